import { describe, expect, it } from 'vitest';
import {
  calculateEmissions,
  EMISSION_FACTORS,
  type FactorActivity,
  type FactorUtility,
  FIRST_EDITION_FACTORS,
  factorNote,
  findEmissionFactor,
  wasteActivity,
} from '../../../shared/domain/emission-factors.ts';

describe('emission factor lookup', () => {
  it("uses the consumption year's factor", () => {
    expect(findEmissionFactor('electricity', 'generation', 2023)?.factor).toBe(0.20707);
    expect(findEmissionFactor('electricity', 'generation', 2025)?.factor).toBe(0.177);
    expect(findEmissionFactor('gas', 'combustion', 2024)?.factor).toBe(0.1829);
  });

  it('has natural gas as DESNZ published it for 2024 (v1.1) and 2025, with source, sheet, version and period', () => {
    expect(findEmissionFactor('gas', 'combustion', 2024)).toMatchObject({
      factor: 0.1829,
      version: 'desnz-2024-v2',
      source: expect.stringMatching(/DESNZ.*2024, full set v1\.1/),
      sheet: expect.stringContaining('Fuels!D42'),
      period: '2024-01-01/2024-12-31',
    });
    expect(findEmissionFactor('gas', 'combustion', 2025)).toMatchObject({
      factor: 0.18296,
      version: 'desnz-2025-v2',
      source: expect.stringMatching(/DESNZ.*2025, full set v1 /),
      sheet: expect.stringContaining('Fuels!D42'),
      period: '2025-01-01/2025-12-31',
    });
    // 2023 was right: it keeps its first-edition row and version.
    expect(findEmissionFactor('gas', 'combustion', 2023)).toMatchObject({
      factor: 0.18293,
      version: 'desnz-2023-v1',
    });
  });

  it('keeps the first edition as it was, so figures stated in it name what produced them', () => {
    const gas = (year: number) => findEmissionFactor('gas', 'combustion', year, FIRST_EDITION_FACTORS);
    expect(gas(2024)).toMatchObject({ factor: 0.18278, version: 'desnz-2024-v1' });
    expect(gas(2025)).toMatchObject({ factor: 0.18231, version: 'desnz-2025-v1' });
    // Only the two gas rows and 2025 water supply differ in figure between the editions; the 2024 and 2025
    // T&D rows and 2024 water differ in their proof; the 2024 well-to-tank, 2023 and 2025 water, every 2022
    // row and the 2023 and 2024 waste rows are new.
    const changed = EMISSION_FACTORS.filter((f, i) => f !== FIRST_EDITION_FACTORS[i]);
    expect(changed.map((f) => `${f.utility}/${f.activity}/${f.year}`)).toEqual([
      'electricity/transmission-distribution/2024',
      'electricity/transmission-distribution/2025',
      'gas/combustion/2024',
      'gas/combustion/2025',
      'water/supply/2024',
      'water/supply/2025',
      'water/treatment/2024',
      'waste/landfill/2025',
      'waste/recycling/2025',
      'waste/food-landfill/2025',
      'waste/food-composted/2025',
      'gas/well-to-tank/2024',
      'electricity/well-to-tank-generation/2024',
      'electricity/well-to-tank-transmission-distribution/2024',
      'water/treatment/2025',
      'water/supply/2023',
      'water/treatment/2023',
      'electricity/generation/2022',
      'electricity/transmission-distribution/2022',
      'gas/combustion/2022',
      'water/supply/2022',
      'water/treatment/2022',
      'gas/well-to-tank/2022',
      'electricity/well-to-tank-generation/2022',
      'electricity/well-to-tank-transmission-distribution/2022',
      'waste/landfill/2023',
      'waste/recycling/2023',
      'waste/food-landfill/2023',
      'waste/food-composted/2023',
      'waste/landfill/2024',
      'waste/recycling/2024',
      'waste/food-landfill/2024',
      'waste/food-composted/2024',
    ]);
    // The first edition has no 2022 row and no 2023 or 2024 waste: a company on it keeps its borrowed figures.
    expect(FIRST_EDITION_FACTORS.some((f) => f.year === 2022)).toBe(false);
    expect(findEmissionFactor('waste', 'landfill', 2023, FIRST_EDITION_FACTORS)?.year).toBe(2025);
    const water = (table: typeof EMISSION_FACTORS) => findEmissionFactor('water', 'supply', 2025, table);
    expect(water(FIRST_EDITION_FACTORS)).toMatchObject({ factor: 0.17088, version: 'desnz-2025-v1' });
    const td = (table: typeof EMISSION_FACTORS) =>
      findEmissionFactor('electricity', 'transmission-distribution', 2025, table);
    expect(td(EMISSION_FACTORS)).toMatchObject({ factor: 0.01853, version: 'desnz-2025-v1' });
    expect(td(FIRST_EDITION_FACTORS)).toMatchObject({ factor: 0.01853, version: 'desnz-2025-v1' });
  });

  it('has a 2024 transmission and distribution row, confirmed from the 2024 full set, rather than falling back to 2023', () => {
    const td2024 = findEmissionFactor('electricity', 'transmission-distribution', 2024);
    expect(td2024).toMatchObject({ year: 2024, factor: 0.0183, version: 'desnz-2024-v1' });
    expect(td2024?.sheet).toMatch(/^Transmission and distribution!E22/);
    expect(td2024 && factorNote(td2024, 2024)).toBeUndefined();
    // The first edition still says it was not checked.
    const first = findEmissionFactor('electricity', 'transmission-distribution', 2024, FIRST_EDITION_FACTORS);
    expect(first && factorNote(first, 2024)).toMatch(/^unconfirmed/);
  });

  it('has water as the DESNZ workbooks print it: supply and treatment for 2023, 2024 and 2025, each with its cell', () => {
    const w = (activity: 'supply' | 'treatment', year: number) => {
      const f = findEmissionFactor('water', activity, year);
      return {
        year: f?.year,
        factor: f?.factor,
        note: f && factorNote(f, year),
        sheet: f?.sheet,
        period: f?.period,
      };
    };
    // 2025 full, condensed and flat files: supply 0.1913 (17_404_4005_1_1), treatment 0.17088 (18_405_4006_1_1).
    expect(w('supply', 2025)).toMatchObject({
      year: 2025,
      factor: 0.1913,
      note: undefined,
      period: '2025-01-01/2025-12-31',
    });
    expect(w('supply', 2025).sheet).toMatch(/^Water supply!D18.*17_404_4005_1_1/);
    expect(w('treatment', 2025)).toMatchObject({ year: 2025, factor: 0.17088, note: undefined });
    expect(w('treatment', 2025).sheet).toMatch(/^Water treatment!D17.*18_405_4006_1_1/);
    // 2024 condensed set v1.1: the figures stand, now read from the workbook.
    expect(w('supply', 2024)).toMatchObject({ year: 2024, factor: 0.15311, note: undefined });
    expect(w('supply', 2024).sheet).toMatch(/^Water supply!D18/);
    expect(w('treatment', 2024)).toMatchObject({ year: 2024, factor: 0.18574, note: undefined });
    expect(w('treatment', 2024).sheet).toMatch(/^Water treatment!D17/);
    expect(findEmissionFactor('water', 'treatment', 2024)?.confirmedBy).toMatch(
      /2024 condensed set v1\.1.*streetvisit/,
    );
    // 2023 flat file v1.1 and condensed set: a 2023 bill no longer borrows the 2024 figures.
    expect(w('supply', 2023)).toMatchObject({ year: 2023, factor: 0.176684547, note: undefined });
    expect(w('treatment', 2023)).toMatchObject({ year: 2023, factor: 0.201318292, note: undefined });
    expect(findEmissionFactor('water', 'supply', 2023)?.confirmedBy).toMatch(/filcuk/);
  });

  it('falls back to the nearest earlier year when a year is missing, and says so', () => {
    const later = findEmissionFactor('electricity', 'generation', 2027);
    expect(later?.year).toBe(2025);
    expect(later && factorNote(later, 2027)).toBe('no 2027 figure: the 2025 factor stands in');
  });

  it('uses the earliest later year only when no earlier year exists, and says so', () => {
    const waste2022 = findEmissionFactor('waste', 'landfill', 2022);
    expect(waste2022?.year).toBe(2023);
    expect(waste2022 && factorNote(waste2022, 2022)).toBe('no 2022 figure: the 2023 factor stands in');
    const water2021 = findEmissionFactor('water', 'supply', 2021);
    expect(water2021?.year).toBe(2022);
    expect(water2021 && factorNote(water2021, 2021)).toBe('no 2021 figure: the 2022 factor stands in');
    // The first edition still lends 2023's figures to a 2022 bill, and says so.
    const first = findEmissionFactor('electricity', 'generation', 2022, FIRST_EDITION_FACTORS);
    expect(first && factorNote(first, 2022)).toBe('no 2022 figure: the 2023 factor stands in');
  });

  it("has every 2022 figure as BEIS published it, from the condensed set's cell and the flat file's line", () => {
    const f = (utility: FactorUtility, activity: FactorActivity) => {
      const r = findEmissionFactor(utility, activity, 2022);
      return [r?.year, r?.factor, r?.version, r?.period, r && factorNote(r, 2022), r?.sheet];
    };
    const y = ['desnz-2022-v2', '2022-01-01/2022-12-31', undefined] as const;
    expect(f('electricity', 'generation')).toEqual([
      2022,
      0.19338,
      ...y,
      'UK electricity!F24: Electricity generated, Electricity: UK, kWh, kg CO2e (flat file line 2850)',
    ]);
    expect(f('electricity', 'transmission-distribution')).toEqual([
      2022,
      0.01769,
      ...y,
      'Transmission and distribution!F21: T&D- UK electricity, kWh, kg CO2e (flat file line 3408)',
    ]);
    expect(f('gas', 'combustion')).toEqual([
      2022,
      0.18254,
      ...y,
      'Fuels!E42: Natural gas, kWh (Gross CV), kg CO2e (flat file line 78)',
    ]);
    expect(f('water', 'supply')).toEqual([
      2022,
      0.149,
      ...y,
      'Water supply!E18: Water supply, cubic metres, kg CO2e (flat file line 3725)',
    ]);
    expect(f('water', 'treatment')).toEqual([
      2022,
      0.272,
      ...y,
      'Water treatment!E17: Water treatment, cubic metres, kg CO2e (flat file line 3727)',
    ]);
    const gas = findEmissionFactor('gas', 'combustion', 2022);
    expect(gas?.source).toMatch(
      /DESNZ\) 2022 \(published by BEIS\), condensed set v2\.0 and flat file v3\.0/,
    );
    expect(gas?.confirmedBy).toMatch(/condensed set v2\.0.*streetvisit.*flat file v3\.0.*filcuk/);
  });

  it('has waste for 2023, 2024 and 2025 from the "Waste disposal" sheet, each read from two copies', () => {
    const f = (activity: FactorActivity, year: number) => {
      const r = findEmissionFactor('waste', activity, year);
      return [r?.year, r?.factor, r?.version, r?.period, r && factorNote(r, year), r?.sheet?.split(':')[0]];
    };
    const y2023 = ['desnz-2023-v2', '2023-01-01/2023-12-31', undefined] as const;
    expect(f('landfill', 2023)).toEqual([2023, 520.3347435, ...y2023, 'Waste disposal!I53']);
    expect(f('recycling', 2023)).toEqual([2023, 21.28080724, ...y2023, 'Waste disposal!G53']);
    expect(f('food-landfill', 2023)).toEqual([2023, 700.2098818, ...y2023, 'Waste disposal!I50']);
    expect(f('food-composted', 2023)).toEqual([2023, 8.912421711, ...y2023, 'Waste disposal!H50']);
    expect(findEmissionFactor('waste', 'landfill', 2023)?.sheet).toMatch(/20_507_5313_15_1/);
    expect(findEmissionFactor('waste', 'landfill', 2023)?.confirmedBy).toMatch(/2023 condensed set.*filcuk/);
    const y2024 = ['desnz-2024-v2', '2024-01-01/2024-12-31', undefined] as const;
    expect(f('landfill', 2024)).toEqual([2024, 520.3342, ...y2024, 'Waste disposal!I52']);
    expect(f('recycling', 2024)).toEqual([2024, 6.41061, ...y2024, 'Waste disposal!G52']);
    expect(f('food-landfill', 2024)).toEqual([2024, 700.20961, ...y2024, 'Waste disposal!I49']);
    expect(f('food-composted', 2024)).toEqual([2024, 8.88386, ...y2024, 'Waste disposal!H49']);
    expect(findEmissionFactor('waste', 'landfill', 2024)?.confirmedBy).toMatch(
      /2024 condensed set v1\.1.*streetvisit.*themisiq.*defraWaste2024/,
    );
    // 2025 stands as the first edition had it (same figure and version), now with its cell and period.
    const y2025 = ['desnz-2025-v1', '2025-01-01/2025-12-31', undefined] as const;
    expect(f('landfill', 2025)).toEqual([2025, 520.5327, ...y2025, 'Waste disposal!H52']);
    expect(f('recycling', 2025)).toEqual([2025, 4.68568, ...y2025, 'Waste disposal!F52']);
    expect(f('food-landfill', 2025)).toEqual([2025, 700.30886, ...y2025, 'Waste disposal!H49']);
    expect(f('food-composted', 2025)).toEqual([2025, 8.98311, ...y2025, 'Waste disposal!G49']);
    expect(findEmissionFactor('waste', 'landfill', 2025)?.confirmedBy).toMatch(
      /2025 full set v1.*condensed set v1/,
    );
    expect(findEmissionFactor('waste', 'landfill', 2025, FIRST_EDITION_FACTORS)?.sheet).toBeUndefined();
  });

  it('reads a table passed in place of the built-in one', () => {
    const corrected = EMISSION_FACTORS.map((f) =>
      f.utility === 'gas' && f.year === 2024 ? { ...f, factor: 0.18293, version: 'desnz-2024-v2' } : f,
    );
    const f = findEmissionFactor('gas', 'combustion', 2024, corrected);
    expect(f?.factor).toBe(0.18293);
    expect(f?.version).toBe('desnz-2024-v2');
  });

  it('marks every figure not confirmed from a readable source as unconfirmed', () => {
    const flagged = EMISSION_FACTORS.filter((f) => f.check).map(
      (f) => `${f.utility}/${f.activity}/${f.year}`,
    );
    expect(flagged).toEqual([]);
    expect(findEmissionFactor('water', 'treatment', 2024, FIRST_EDITION_FACTORS)?.check).toMatch(
      /^unconfirmed/,
    );
    // Confirmed by two copies of the 2025 tables: the full set and the flat file.
    const td2025 = findEmissionFactor('electricity', 'transmission-distribution', 2025);
    expect(td2025).toMatchObject({ factor: 0.01853, period: '2025-01-01/2025-12-31' });
    expect(td2025?.confirmedBy).toMatch(/themisiq.*JulesProject/);
    expect(findEmissionFactor('gas', 'combustion', 2024)?.check).toBeUndefined();
    expect(findEmissionFactor('gas', 'combustion', 2025)?.check).toBeUndefined();
  });

  it('gives every factor a source and version', () => {
    for (const f of EMISSION_FACTORS) {
      expect(f.source).toMatch(/DESNZ/);
      expect(f.version).toMatch(new RegExp(`^desnz-${f.year}-v[12]$`));
    }
  });
});

describe('emissions', () => {
  it('multiplies kWh by the year factor and keeps the factor version', () => {
    const r = calculateEmissions({ utility: 'electricity', year: 2024, quantity: 10_000, unit: 'kWh' });
    expect(r?.kgCO2e).toBeCloseTo(2070.5, 2);
    expect(r?.factorVersion).toBe('desnz-2024-v1');
  });

  it('turns gas read in m³ into kWh at the calorific value before the gas factor', () => {
    // 100 m³ × 39.2 MJ/m³ × 1.02264 ÷ 3.6 = 1,113.54 kWh × 0.18296
    const r = calculateEmissions({
      utility: 'gas',
      year: 2025,
      quantity: 100,
      unit: 'm³',
      calorificValue: 39.2,
    });
    expect(r?.kgCO2e).toBeCloseTo(1113.5413 * 0.18296, 2);
    const feet = calculateEmissions({ utility: 'gas', year: 2025, quantity: 10, unit: 'hcf' });
    expect(feet?.kgCO2e).toBeCloseTo(((28.3168 * 39.5 * 1.02264) / 3.6) * 0.18296, 2);
  });

  it('adds supply and treatment for water', () => {
    const r = calculateEmissions({ utility: 'water', year: 2024, quantity: 100, unit: 'm³' });
    expect(r?.kgCO2e).toBeCloseTo(100 * (0.15311 + 0.18574), 2);
    // 2025: 1,000 m³ is 191.3 kg supplied and 170.88 kg treated (the first edition had 170.88 + 185.74).
    const y2025 = calculateEmissions({ utility: 'water', year: 2025, quantity: 1000, unit: 'm³' });
    expect(y2025?.kgCO2e).toBeCloseTo(362.18, 2);
    expect(y2025?.factorVersion).toBe('desnz-2025-v2');
  });

  it('converts kg of waste to tonnes and uses the stream factor', () => {
    const landfill = calculateEmissions({ utility: 'waste', year: 2025, quantity: 2000, unit: 'kg' });
    expect(landfill?.kgCO2e).toBeCloseTo(2 * 520.5327, 2);
    const recycled = calculateEmissions({
      utility: 'waste',
      year: 2025,
      quantity: 2000,
      unit: 'kg',
      activities: [wasteActivity('Dry mixed recycling')],
    });
    expect(recycled?.kgCO2e).toBeCloseTo(2 * 4.68568, 2);
  });

  it('includes transmission losses only when asked', () => {
    const r = calculateEmissions({
      utility: 'electricity',
      year: 2025,
      quantity: 1000,
      unit: 'kWh',
      activities: ['generation', 'transmission-distribution'],
    });
    expect(r?.kgCO2e).toBeCloseTo(1000 * (0.177 + 0.01853), 2);
  });

  it('refuses a unit that does not fit the utility', () => {
    expect(calculateEmissions({ utility: 'gas', year: 2024, quantity: 10, unit: 'kg' })).toBeUndefined();
    expect(calculateEmissions({ utility: 'electricity', year: 2024, quantity: 10, unit: 'litres' })).toBe(
      undefined,
    );
  });

  it('classifies waste streams', () => {
    expect(wasteActivity('General waste')).toBe('landfill');
    expect(wasteActivity('Food waste')).toBe('food-composted');
    expect(wasteActivity('Glass recycling')).toBe('recycling');
  });
});
