/**
 * Greenhouse-gas conversion factors (kg CO2e per unit) as versioned data. Factors are chosen by the year of
 * the consumption; each calculated figure keeps the version of the factor set that produced it, so a
 * corrected or newer set never changes past emissions silently. A table loaded from storage can be passed
 * to every lookup in place of the built-in one, so a correction does not need a release.
 */
import { gasVolumeToKwh } from './gas-volume.ts';

export type FactorUtility = 'electricity' | 'gas' | 'water' | 'waste';

const FACTOR_UTILITIES: readonly string[] = [
  'electricity',
  'gas',
  'water',
  'waste',
] satisfies FactorUtility[];

/** Whether the factor table covers a utility (heating, cooling and solar have no factors of their own). */
export const isFactorUtility = (utility: string): utility is FactorUtility =>
  FACTOR_UTILITIES.includes(utility);

export type FactorActivity =
  /** electricity generation, scope 2 (location-based) */
  | 'generation'
  /** electricity transmission and distribution losses, scope 3 */
  | 'transmission-distribution'
  /** natural gas burnt, gross calorific value, scope 1 */
  | 'combustion'
  | 'supply'
  | 'treatment'
  /** commercial and industrial waste to landfill */
  | 'landfill'
  /** waste incinerated with energy recovery, or most recycling */
  | 'recycling'
  | 'food-landfill'
  /** food waste composted or sent to anaerobic digestion */
  | 'food-composted'
  /** extracting, refining and transporting the natural gas burnt ("WTT- fuels"), scope 3 */
  | 'well-to-tank'
  /** well-to-tank of the fuels burnt to generate grid electricity ("WTT- UK electricity (generation)"), scope 3 */
  | 'well-to-tank-generation'
  /** well-to-tank of the electricity lost in transmission and distribution ("WTT- UK electricity (T&D)"), scope 3 */
  | 'well-to-tank-transmission-distribution';

/** Well-to-tank activities: counted only with a factor of the consumption's own year, never a stand-in. */
export const WELL_TO_TANK_ACTIVITIES: ReadonlySet<FactorActivity> = new Set([
  'well-to-tank',
  'well-to-tank-generation',
  'well-to-tank-transmission-distribution',
]);

export type FactorUnit = 'kWh' | 'm³' | 'tonne';

export interface EmissionFactor {
  year: number;
  utility: FactorUtility;
  activity: FactorActivity;
  scope: 1 | 2 | 3;
  unit: FactorUnit;
  /** kg CO2e per unit */
  factor: number;
  source: string;
  version: string;
  /** Why the figure needs checking against the official document, when it does. */
  check?: string;
  /** Where the figure was confirmed, when that was a page quoting the official tables. */
  confirmedBy?: string;
  /** The workbook's sheet and cell (or the flat file's factor ID) the figure was read from. */
  sheet?: string;
  /** The consumption the figure applies to, as ISO dates: `2024-01-01/2024-12-31`. */
  period?: string;
}

const DESNZ = 'UK Government GHG Conversion Factors for Company Reporting (DESNZ)';

/**
 * A figure confirmed from a source that can be read, kept with the row. Rows without one carry `check`,
 * which the product shows beside every figure worked out with them.
 */
const row = (
  year: number,
  utility: FactorUtility,
  activity: FactorActivity,
  scope: 1 | 2 | 3,
  unit: FactorUnit,
  factor: number,
  check?: string,
  confirmedBy?: string,
): EmissionFactor => ({
  year,
  utility,
  activity,
  scope,
  unit,
  factor,
  source: `${DESNZ} ${year}`,
  version: `desnz-${year}-v1`,
  ...(check ? { check } : {}),
  ...(confirmedBy ? { confirmedBy } : {}),
});

const FLAT_2023 =
  'DESNZ flat file 2023 v1.1 (published 20/06/2023), as redistributed in github.com/filcuk/ghg_conversion_factors';
const FLAT_2025 =
  'DESNZ flat file 2025 v1 (ghg-conversion-factors-2025-flat-format), as kept in github.com/streetvisit/carbon-recycling-platform';

/** A well-to-tank row (scope 3, per kWh; gas on gross CV), with the flat file's factor ID. */
const wtt = (
  year: number,
  utility: FactorUtility,
  activity: FactorActivity,
  factor: number,
  factorId: string,
  file: string,
): EmissionFactor => ({
  ...row(year, utility, activity, 3, 'kWh', factor, undefined, `${file}, factor ID ${factorId}`),
  source: `${DESNZ} ${year}, sheet ${utility === 'gas' ? '"WTT- fuels" (natural gas, kWh gross CV)' : '"WTT- UK electricity"'}`,
});

const CLIMATE_ESSENTIALS = 'climateessentials.com, "Carbon factors: a 2025 update" (June 2025)';
const GREEN_CALCULUS = 'greencalculus.com, natural gas glossary (DEFRA 2025 factor)';
const UNCONFIRMED = (year: number) => `unconfirmed: not checked against the published ${year} tables`;

/**
 * The first edition's rows, kept as they were so figures stated in them can name what produced them. Each
 * row applies to consumption in its calendar year. Water has no row before 2024: figures for 2023 and
 * earlier have not been sourced, so those years use the 2024 figure and say so.
 */
export const FIRST_EDITION_FACTORS: readonly EmissionFactor[] = [
  row(2023, 'electricity', 'generation', 2, 'kWh', 0.20707),
  row(2024, 'electricity', 'generation', 2, 'kWh', 0.20705, undefined, CLIMATE_ESSENTIALS),
  row(2025, 'electricity', 'generation', 2, 'kWh', 0.177, undefined, CLIMATE_ESSENTIALS),
  row(2023, 'electricity', 'transmission-distribution', 3, 'kWh', 0.01792),
  row(2024, 'electricity', 'transmission-distribution', 3, 'kWh', 0.0183, UNCONFIRMED(2024)),
  row(2025, 'electricity', 'transmission-distribution', 3, 'kWh', 0.01853, UNCONFIRMED(2025)),
  row(2023, 'gas', 'combustion', 1, 'kWh', 0.18293),
  row(
    2024,
    'gas',
    'combustion',
    1,
    'kWh',
    0.18278,
    'unconfirmed: secondary sources give 0.18290, 0.18278 and 0.18293 for 2024',
  ),
  row(2025, 'gas', 'combustion', 1, 'kWh', 0.18231, undefined, GREEN_CALCULUS),
  row(2024, 'water', 'supply', 3, 'm³', 0.15311, undefined, CLIMATE_ESSENTIALS),
  row(2025, 'water', 'supply', 3, 'm³', 0.17088, undefined, CLIMATE_ESSENTIALS),
  // No 2025 treatment figure has been sourced; 2025 uses this one and says so.
  row(2024, 'water', 'treatment', 3, 'm³', 0.18574, UNCONFIRMED(2024)),
  row(2025, 'waste', 'landfill', 3, 'tonne', 520.5327),
  row(2025, 'waste', 'recycling', 3, 'tonne', 4.68568),
  row(2025, 'waste', 'food-landfill', 3, 'tonne', 700.30886),
  row(2025, 'waste', 'food-composted', 3, 'tonne', 8.98311),
  // Well-to-tank, read from DESNZ's flat files ("Factors by Category"). This edition has no 2024 rows: the only
  // 2024 workbook read then was the condensed set, which has no WTT sheets (the current edition adds them).
  wtt(2023, 'gas', 'well-to-tank', 0.03021, '11_100_1004_6_1', FLAT_2023),
  wtt(2023, 'electricity', 'well-to-tank-generation', 0.0459, '15_917_4000_5_1', FLAT_2023),
  wtt(2023, 'electricity', 'well-to-tank-transmission-distribution', 0.00397, '15_918_4000_5_1', FLAT_2023),
  wtt(2025, 'gas', 'well-to-tank', 0.03021, '11_100_1004_6_1', FLAT_2025),
  wtt(2025, 'electricity', 'well-to-tank-generation', 0.0459, '15_917_4000_5_1', FLAT_2025),
  wtt(2025, 'electricity', 'well-to-tank-transmission-distribution', 0.00397, '15_918_4000_5_1', FLAT_2025),
];

const FULL_SET_TRANSCRIPTION =
  'cell-by-cell transcription of the DESNZ full sets in github.com/themisiqco/themisiq (docs/review/t3d-2025-values.csv)';
const FLAT_2025_TRANSCRIPTION =
  'DESNZ 2025 flat file, factor ID 1_100_1004_6_1 (Fuels > Gaseous fuels > Natural gas > kWh (Gross CV)), as transcribed in public carbon calculators';

/**
 * Natural gas burnt (scope 1, per kWh gross CV) as DESNZ published it for 2024 (v1.1, the correction of
 * 30 October 2024) and 2025 (v1). The first edition had 0.18278 for 2024, which no workbook gives, and
 * 0.18231 for 2025, which is the 2026 set's figure.
 */
const GAS_CORRECTIONS: readonly EmissionFactor[] = [
  {
    ...row(2024, 'gas', 'combustion', 1, 'kWh', 0.1829, undefined, FULL_SET_TRANSCRIPTION),
    source: `${DESNZ} 2024, full set v1.1 (30/10/2024)`,
    sheet: 'Fuels!D42: Natural gas, kWh (Gross CV), kg CO2e',
    version: 'desnz-2024-v2',
    period: '2024-01-01/2024-12-31',
  },
  {
    ...row(
      2025,
      'gas',
      'combustion',
      1,
      'kWh',
      0.18296,
      undefined,
      `${FULL_SET_TRANSCRIPTION}; ${FLAT_2025_TRANSCRIPTION}`,
    ),
    source: `${DESNZ} 2025, full set v1 (10/06/2025)`,
    sheet: 'Fuels!D42: Natural gas, kWh (Gross CV), kg CO2e',
    version: 'desnz-2025-v2',
    period: '2025-01-01/2025-12-31',
  },
];

const FULL_SET_2024 =
  'cell-by-cell transcription of the DESNZ 2024 full set v1.1 (ghg-conversion-factors-2024-full_set__for_advanced_users__v1_1.xlsx, sha256 558116ed…) in github.com/themisiqco/themisiq (lib/emissionFactors/defraEnergy2024.json)';

/** A 2024 row read from the full set v1.1 (the correction of 30 October 2024), with its sheet and cell. */
const fullSet2024 = (
  utility: FactorUtility,
  activity: FactorActivity,
  factor: number,
  sheet: string,
): EmissionFactor => ({
  ...row(2024, utility, activity, 3, 'kWh', factor, undefined, FULL_SET_2024),
  source: `${DESNZ} 2024, full set v1.1 (30/10/2024)`,
  sheet,
  version: 'desnz-2024-v2',
  period: '2024-01-01/2024-12-31',
});

/**
 * Rows the first edition lacked. 2024 well-to-tank: the first edition had read only the 2024 condensed set,
 * which has no WTT sheets. The full set prints the same three figures as 2023 and 2025.
 */
const ADDITIONS: readonly EmissionFactor[] = [
  fullSet2024('gas', 'well-to-tank', 0.03021, 'WTT- fuels!D41: Natural gas, kWh (Gross CV), kg CO2e'),
  fullSet2024(
    'electricity',
    'well-to-tank-generation',
    0.0459,
    'WTT- UK electricity!E19: WTT- UK electricity (generation), kWh, kg CO2e',
  ),
  fullSet2024(
    'electricity',
    'well-to-tank-transmission-distribution',
    0.00397,
    'WTT- UK electricity!E24: WTT- UK electricity (T&D), kWh, kg CO2e',
  ),
];

const CONDENSED_2024 =
  'DESNZ 2024 condensed set v1.1 (ghg-conversion-factors-2024-condensed_set__for_most_users__v1_1.xlsx, sha256 02287cec…), as kept in github.com/streetvisit/carbon-recycling-platform (reference-data/uk-gov-conversion-factors/2024/condensed-set.xlsx)';
const WORKBOOKS_2025 =
  'DESNZ 2025 full set v1 (sha256 c08f24da…) and condensed set v1 (sha256 666f5a00…), as kept in github.com/streetvisit/carbon-recycling-platform (reference-data/uk-gov-conversion-factors/2025/)';
const FLAT_2025_WATER =
  'DESNZ 2025 flat file, as kept in github.com/streetvisit/carbon-recycling-platform and exported in github.com/scope3emissiontest-oss/JulesProject (defra_factors_2025_v2/category_water_*.csv)';
const WORKBOOK_2023 =
  'DESNZ 2023 condensed set v1.1 (sha256 db3b9f72…), as kept in github.com/streetvisit/carbon-recycling-platform (data/defra-conversion-factors/raw-files/conversion-factors-2023.xlsx)';

/** A water row (scope 3, per m³) read from the published workbooks, with its sheet and cell. */
const water = (
  year: number,
  activity: 'supply' | 'treatment',
  factor: number,
  sheet: string,
  confirmedBy: string,
  version = `desnz-${year}-v2`,
): EmissionFactor => ({
  ...row(year, 'water', activity, 3, 'm³', factor, undefined, confirmedBy),
  source: `${DESNZ} ${year}, sheet "Water ${activity}"`,
  sheet,
  version,
  period: `${year}-01-01/${year}-12-31`,
});

/**
 * Water as DESNZ published it. 2024 supply and treatment stand as the first edition had them, now read from
 * the workbook. 2025: the first edition had the treatment figure (0.17088) as supply and no treatment row;
 * every 2025 workbook and the flat file give supply 0.1913 and treatment 0.17088. 2023 had no row.
 */
const WATER: readonly EmissionFactor[] = [
  water(
    2024,
    'supply',
    0.15311,
    'Water supply!D18: Water supply, cubic metres, kg CO2e',
    CONDENSED_2024,
    'desnz-2024-v1',
  ),
  water(
    2024,
    'treatment',
    0.18574,
    'Water treatment!D17: Water treatment, cubic metres, kg CO2e',
    CONDENSED_2024,
    'desnz-2024-v1',
  ),
  water(
    2025,
    'supply',
    0.1913,
    'Water supply!D18: Water supply, cubic metres, kg CO2e (flat file ID 17_404_4005_1_1)',
    `${WORKBOOKS_2025}; ${FLAT_2025_WATER}`,
  ),
  water(
    2025,
    'treatment',
    0.17088,
    'Water treatment!D17: Water treatment, cubic metres, kg CO2e (flat file ID 18_405_4006_1_1)',
    `${WORKBOOKS_2025}; ${FLAT_2025_WATER}`,
  ),
  water(
    2023,
    'supply',
    0.176684547,
    'Water supply!D18: Water supply, cubic metres, kg CO2e (flat file ID 17_404_4005_1_1)',
    `${WORKBOOK_2023}; ${FLAT_2023}`,
  ),
  water(
    2023,
    'treatment',
    0.201318292,
    'Water treatment!D17: Water treatment, cubic metres, kg CO2e (flat file ID 18_405_4006_1_1)',
    `${WORKBOOK_2023}; ${FLAT_2023}`,
  ),
];

const FLAT_2025_SCOPE_3 =
  'DESNZ 2025 flat file, factor ID 13_402_4000_5_1 (Transmission and distribution > T&D- UK electricity > kWh), as exported in github.com/scope3emissiontest-oss/JulesProject (backend/insert_statements_part_*.sql, from defra_factors_2025_v2/scope_3.csv)';

/**
 * Rows whose figure stands but is now confirmed by two independent copies of the published tables. The
 * factor and its version do not change, so no figure stated with them moves.
 */
const CONFIRMATIONS: readonly EmissionFactor[] = [
  {
    ...row(2024, 'electricity', 'transmission-distribution', 3, 'kWh', 0.0183, undefined, FULL_SET_2024),
    source: `${DESNZ} 2024, full set v1.1 (30/10/2024)`,
    sheet: 'Transmission and distribution!E22: T&D- UK electricity, kWh, kg CO2e',
    period: '2024-01-01/2024-12-31',
  },
  {
    ...row(
      2025,
      'electricity',
      'transmission-distribution',
      3,
      'kWh',
      0.01853,
      undefined,
      `${FULL_SET_TRANSCRIPTION}; ${FLAT_2025_SCOPE_3}`,
    ),
    source: `${DESNZ} 2025, full set v1 (10/06/2025)`,
    sheet: 'Transmission and distribution!E22: T&D- UK electricity, kWh, kg CO2e',
    period: '2025-01-01/2025-12-31',
  },
];

const WORKBOOK_2022 =
  'BEIS 2022 condensed set v2.0 (an .xls workbook, sha256 c21576e7…), as kept in github.com/streetvisit/carbon-recycling-platform (data/defra-conversion-factors/raw-files/conversion-factors-2022.xlsx)';
const FLAT_2022 =
  'BEIS 2022 flat file v3.0 (published 08/09/2022; it has no factor IDs), as redistributed in github.com/filcuk/ghg_conversion_factors (country/gbr/release/ghg-conversion-factors-2022-gbr-v3.0.csv)';
const ONE_COPY_2022 =
  'one copy only: the 2022 condensed set has no well-to-tank sheets and no copy of the 2022 full set was found';

/** A 2022 row (BEIS published the 2022 set), with the workbook cell or the flat file's line. */
const beis2022 = (
  utility: FactorUtility,
  activity: FactorActivity,
  scope: 1 | 2 | 3,
  unit: FactorUnit,
  factor: number,
  sheet: string,
  confirmedBy: string,
  read = 'condensed set v2.0 and flat file v3.0',
): EmissionFactor => ({
  ...row(2022, utility, activity, scope, unit, factor, undefined, confirmedBy),
  source: `${DESNZ} 2022 (published by BEIS), ${read}`,
  sheet,
  version: 'desnz-2022-v2',
  period: '2022-01-01/2022-12-31',
});

const BOTH_2022 = `${WORKBOOK_2022}; ${FLAT_2022}`;

/**
 * 2022, which had no row: a 2022 bill borrowed the 2023 figures and listed its well-to-tank as not covered.
 * The condensed set and the flat file print the same five figures; well-to-tank is in the flat file only.
 */
const YEAR_2022: readonly EmissionFactor[] = [
  beis2022(
    'electricity',
    'generation',
    2,
    'kWh',
    0.19338,
    'UK electricity!F24: Electricity generated, Electricity: UK, kWh, kg CO2e (flat file line 2850)',
    BOTH_2022,
  ),
  beis2022(
    'electricity',
    'transmission-distribution',
    3,
    'kWh',
    0.01769,
    'Transmission and distribution!F21: T&D- UK electricity, kWh, kg CO2e (flat file line 3408)',
    BOTH_2022,
  ),
  beis2022(
    'gas',
    'combustion',
    1,
    'kWh',
    0.18254,
    'Fuels!E42: Natural gas, kWh (Gross CV), kg CO2e (flat file line 78)',
    BOTH_2022,
  ),
  beis2022(
    'water',
    'supply',
    3,
    'm³',
    0.149,
    'Water supply!E18: Water supply, cubic metres, kg CO2e (flat file line 3725)',
    BOTH_2022,
  ),
  beis2022(
    'water',
    'treatment',
    3,
    'm³',
    0.272,
    'Water treatment!E17: Water treatment, cubic metres, kg CO2e (flat file line 3727)',
    BOTH_2022,
  ),
  beis2022(
    'gas',
    'well-to-tank',
    3,
    'kWh',
    0.0311,
    'flat file line 3261: Scope 3, WTT- fuels, Gaseous fuels, Natural gas, kWh (Gross CV), kg CO2e',
    `${FLAT_2022}; ${ONE_COPY_2022}`,
    'flat file v3.0',
  ),
  beis2022(
    'electricity',
    'well-to-tank-generation',
    3,
    'kWh',
    0.04625,
    'flat file line 3720: Scope 3, WTT- UK & overseas elec, WTT- UK electricity (generation), kWh, kg CO2e',
    `${FLAT_2022}; ${ONE_COPY_2022}`,
    'flat file v3.0',
  ),
  beis2022(
    'electricity',
    'well-to-tank-transmission-distribution',
    3,
    'kWh',
    0.00423,
    'flat file line 3721: Scope 3, WTT- UK & overseas elec, WTT- UK electricity (T&D), kWh, kg CO2e',
    `${FLAT_2022}; ${ONE_COPY_2022}`,
    'flat file v3.0',
  ),
];

const WASTE_2024_TRANSCRIPTION =
  'cell-by-cell transcription of the DESNZ 2024 full set v1.1 (sha256 558116ed…) in github.com/themisiqco/themisiq (lib/emissionFactors/defraWaste2024.json)';

/** A waste row (scope 3, per tonne) read from the "Waste disposal" sheet, with its cell. */
const WASTE_READ_FROM: Readonly<Record<number, string>> = {
  2023: `${WORKBOOK_2023}; ${FLAT_2023}`,
  2024: `${CONDENSED_2024}; ${WASTE_2024_TRANSCRIPTION}`,
  2025: WORKBOOKS_2025,
};

const waste = (
  year: 2023 | 2024 | 2025,
  activity: 'landfill' | 'recycling' | 'food-landfill' | 'food-composted',
  factor: number,
  sheet: string,
  version = `desnz-${year}-v2`,
): EmissionFactor => ({
  ...row(year, 'waste', activity, 3, 'tonne', factor, undefined, WASTE_READ_FROM[year]),
  source: `${DESNZ} ${year}, sheet "Waste disposal"`,
  sheet,
  version,
  period: `${year}-01-01/${year}-12-31`,
});

/**
 * Waste for 2023 and 2024, which had no row: their bills borrowed the 2025 figures. The same four cells as
 * 2025's rows: commercial and industrial waste to landfill and to combustion (energy recovery; most recycling
 * prints the same figure), food and drink waste to landfill and to composting.
 */
const WASTE: readonly EmissionFactor[] = [
  waste(
    2023,
    'landfill',
    520.3347435,
    'Waste disposal!I53: Refuse, Commercial and industrial waste, Landfill, kg CO2e per tonne (flat file ID 20_507_5313_15_1)',
  ),
  waste(
    2023,
    'recycling',
    21.28080724,
    'Waste disposal!G53: Refuse, Commercial and industrial waste, Combustion, kg CO2e per tonne (flat file ID 20_507_5311_15_1)',
  ),
  waste(
    2023,
    'food-landfill',
    700.2098818,
    'Waste disposal!I50: Refuse, Organic: food and drink waste, Landfill, kg CO2e per tonne (flat file ID 20_507_5292_15_1)',
  ),
  waste(
    2023,
    'food-composted',
    8.912421711,
    'Waste disposal!H50: Refuse, Organic: food and drink waste, Composting, kg CO2e per tonne (flat file ID 20_507_5291_15_1)',
  ),
  waste(
    2024,
    'landfill',
    520.3342,
    'Waste disposal!I52: Refuse, Commercial and industrial waste, Landfill, kg CO2e per tonne',
  ),
  waste(
    2024,
    'recycling',
    6.41061,
    'Waste disposal!G52: Refuse, Commercial and industrial waste, Combustion, kg CO2e per tonne',
  ),
  waste(
    2024,
    'food-landfill',
    700.20961,
    'Waste disposal!I49: Refuse, Organic: food and drink waste, Landfill, kg CO2e per tonne',
  ),
  waste(
    2024,
    'food-composted',
    8.88386,
    'Waste disposal!H49: Refuse, Organic: food and drink waste, Composting, kg CO2e per tonne',
  ),
];

/**
 * The 2025 waste rows stand as the first edition had them, now read from the full and condensed sets (2025
 * prints no Re-use column, and names combustion "Incineration with energy recovery"). Same figure and
 * version, so no figure stated with them moves.
 */
const WASTE_2025_CONFIRMED: readonly EmissionFactor[] = [
  waste(
    2025,
    'landfill',
    520.5327,
    'Waste disposal!H52: Refuse, Commercial and industrial waste, Landfill, kg CO2e per tonne',
    'desnz-2025-v1',
  ),
  waste(
    2025,
    'recycling',
    4.68568,
    'Waste disposal!F52: Refuse, Commercial and industrial waste, Incineration with energy recovery, kg CO2e per tonne',
    'desnz-2025-v1',
  ),
  waste(
    2025,
    'food-landfill',
    700.30886,
    'Waste disposal!H49: Refuse, Organic: food and drink waste, Landfill, kg CO2e per tonne',
    'desnz-2025-v1',
  ),
  waste(
    2025,
    'food-composted',
    8.98311,
    'Waste disposal!G49: Refuse, Organic: food and drink waste, Composting, kg CO2e per tonne',
    'desnz-2025-v1',
  ),
];

const sameFactor = (a: EmissionFactor, b: EmissionFactor) =>
  a.year === b.year && a.utility === b.utility && a.activity === b.activity;

/**
 * The current edition: the first, with the natural gas and 2025 water supply rows corrected, the 2024 and
 * 2025 transmission and distribution, 2024 water and 2025 waste rows confirmed, and the 2024 well-to-tank, 2025 water
 * treatment, 2023 water, every 2022 row and the 2023 and 2024 waste rows added. New figures are worked out with it;
 * figures stated in the first edition move to it only when the company restates them.
 */
export const EMISSION_FACTORS: readonly EmissionFactor[] = [
  ...FIRST_EDITION_FACTORS.map(
    (f) =>
      GAS_CORRECTIONS.find((c) => sameFactor(c, f)) ??
      CONFIRMATIONS.find((c) => sameFactor(c, f)) ??
      WATER.find((c) => sameFactor(c, f)) ??
      WASTE_2025_CONFIRMED.find((c) => sameFactor(c, f)) ??
      f,
  ),
  ...ADDITIONS,
  ...WATER.filter((w) => !FIRST_EDITION_FACTORS.some((f) => sameFactor(f, w))),
  ...YEAR_2022,
  ...WASTE,
];

/**
 * The year's well-to-tank factor, or undefined: unlike other factors no other year stands in, since the
 * published figure for a year may differ and a borrowed one would pass for confirmed.
 */
export function findWellToTankFactor(
  utility: FactorUtility,
  activity: FactorActivity,
  year: number,
  table: readonly EmissionFactor[] = EMISSION_FACTORS,
): EmissionFactor | undefined {
  return table.find((f) => f.utility === utility && f.activity === activity && f.year === year);
}

/**
 * The factor for a year: that year's, else the nearest earlier year's. When the table has no earlier year,
 * the earliest later year's stands in (a proxy); `year` on the result says which year was used, and
 * `factorNote` says it in words for the screen.
 */
export function findEmissionFactor(
  utility: FactorUtility,
  activity: FactorActivity,
  year: number,
  table: readonly EmissionFactor[] = EMISSION_FACTORS,
): EmissionFactor | undefined {
  const rows = table.filter((f) => f.utility === utility && f.activity === activity);
  const earlier = rows.filter((f) => f.year <= year).sort((a, b) => b.year - a.year)[0];
  if (earlier) return earlier;
  return rows.sort((a, b) => a.year - b.year)[0];
}

/** The activities that make up a utility's reported emissions by default. */
export const DEFAULT_ACTIVITIES: Readonly<Record<FactorUtility, readonly FactorActivity[]>> = {
  electricity: ['generation'],
  gas: ['combustion'],
  water: ['supply', 'treatment'],
  waste: ['landfill'],
};

/** The activity for a waste stream, by its category name. */
export function wasteActivity(category: string | undefined): FactorActivity {
  const c = (category ?? '').toLowerCase();
  if (c.includes('food')) return c.includes('landfill') ? 'food-landfill' : 'food-composted';
  if (
    c.includes('recycl') ||
    c.includes('glass') ||
    c.includes('cardboard') ||
    c.includes('energy recovery')
  ) {
    return 'recycling';
  }
  return 'landfill';
}

/**
 * What a person should know about the factor used for a year: that it is unconfirmed, or that another
 * year's figure stands in. Undefined for a confirmed figure of the year itself.
 */
export function factorNote(f: EmissionFactor, year: number): string | undefined {
  const stands = f.year !== year ? `no ${year} figure: the ${f.year} factor stands in` : undefined;
  const notes = [f.check, stands].filter(Boolean);
  return notes.length > 0 ? notes.join('; ') : undefined;
}

export interface EmissionsResult {
  kgCO2e: number;
  /** The versions of the factor sets used, joined by '+'. */
  factorVersion: string;
  factors: readonly EmissionFactor[];
}

const PER_UNIT: Readonly<Record<string, { unit: FactorUnit; scale: number }>> = {
  kWh: { unit: 'kWh', scale: 1 },
  MWh: { unit: 'kWh', scale: 1000 },
  'm³': { unit: 'm³', scale: 1 },
  m3: { unit: 'm³', scale: 1 },
  kg: { unit: 'tonne', scale: 0.001 },
  tonne: { unit: 'tonne', scale: 1 },
  t: { unit: 'tonne', scale: 1 },
};

/**
 * Emissions of a quantity consumed in a year. Undefined when the unit does not fit the utility's factors or
 * a factor is missing, so a gap shows as a gap rather than as zero.
 */
export function calculateEmissions(input: {
  utility: FactorUtility;
  year: number;
  quantity: number;
  unit: string;
  activities?: readonly FactorActivity[];
  table?: readonly EmissionFactor[];
  /** Gas read by volume: the bill's calorific value, MJ/m³ */
  calorificValue?: number;
}): EmissionsResult | undefined {
  // Gas factors are per kWh (gross calorific value), so gas read by volume is turned into kWh first.
  const gas =
    input.utility === 'gas' && PER_UNIT[input.unit]?.unit !== 'kWh'
      ? gasVolumeToKwh(input.quantity, input.unit, input.calorificValue)
      : undefined;
  if (gas) return calculateEmissions({ ...input, quantity: gas.kwh, unit: 'kWh' });
  const per = PER_UNIT[input.unit];
  if (!per) return undefined;
  const activities = input.activities ?? DEFAULT_ACTIVITIES[input.utility];
  const factors: EmissionFactor[] = [];
  for (const activity of activities) {
    const f = findEmissionFactor(input.utility, activity, input.year, input.table);
    if (!f || f.unit !== per.unit) return undefined;
    factors.push(f);
  }
  if (factors.length === 0) return undefined;
  const amount = input.quantity * per.scale;
  const kg = factors.reduce((sum, f) => sum + amount * f.factor, 0);
  return {
    kgCO2e: Math.round(kg * 1000) / 1000,
    factorVersion: [...new Set(factors.map((f) => f.version))].join('+'),
    factors,
  };
}
