import {
  EMISSION_FACTORS,
  type EmissionFactor,
  type FactorActivity,
  type FactorUnit,
  type FactorUtility,
  factorNote,
  findEmissionFactor,
  findWellToTankFactor,
  WELL_TO_TANK_ACTIVITIES,
  wasteActivity,
} from '../domain/emission-factors.ts';
import { findResidualMix, RESIDUAL_MIX_FACTORS, type ResidualMixFactor } from './residual-mix.ts';

/** The electricity contract behind a supply, for market-based scope 2. */
export interface ElectricityContract {
  renewable: boolean;
  /** Backed by Renewable Energy Guarantees of Origin retired for the supply */
  regoBacked: boolean;
  /** A supplier-specific factor, kg CO2e per kWh, with where it came from */
  supplierFactor?: { factor: number; source: string };
}

export interface ConsumptionEntry {
  utility: FactorUtility;
  /** YYYY-MM-DD; factors are chosen by this date's year */
  date: string;
  quantity: number;
  unit: string;
  contract?: ElectricityContract;
  /** For waste, the category that picks landfill, recycling or food factors */
  wasteCategory?: string;
}

export interface EmissionLine {
  scope: 1 | 2 | 3;
  /** Scope 2 is reported both ways; other scopes have one figure */
  method?: 'location' | 'market';
  activity: FactorActivity | 'rego' | 'supplier' | 'residual-mix';
  kgCO2e: number;
  /** kg CO2e per unit */
  factor: number;
  /** The year of the factor used, which can differ from the consumption's when a year is missing */
  factorYear?: number;
  factorVersion: string;
  source: string;
  check?: string;
}

export interface EmissionsResult {
  year: number;
  lines: EmissionLine[];
  scope1: number;
  scope2Location: number;
  scope2Market: number;
  scope3: number;
  /** Activities left out for want of a factor, so a gap shows as a gap rather than as zero */
  notCovered: { activity: string; reason: string }[];
  /** Every factor set version used, sorted */
  factorVersions: string[];
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
 * The activities counted per utility. Well-to-tank (scope 3) is counted only with a factor of the
 * consumption's own year; a year without one is listed as not covered.
 */
const ACTIVITIES: Readonly<Record<Exclude<FactorUtility, 'waste'>, readonly string[]>> = {
  electricity: [
    'generation',
    'transmission-distribution',
    'well-to-tank-generation',
    'well-to-tank-transmission-distribution',
  ],
  gas: ['combustion', 'well-to-tank'],
  water: ['supply', 'treatment'],
};

export interface EmissionTables {
  factors?: readonly EmissionFactor[];
  residualMix?: readonly ResidualMixFactor[];
}

/** True when some row of the table has the activity, so a lookup can be made with it. */
function isTabled(activity: string, factors: readonly EmissionFactor[]): activity is FactorActivity {
  return factors.some((f) => f.activity === activity);
}

function lineFrom(f: EmissionFactor, amount: number, year: number): EmissionLine {
  const check = factorNote(f, year);
  return {
    scope: f.scope,
    ...(f.scope === 2 ? { method: 'location' as const } : {}),
    activity: f.activity,
    kgCO2e: amount * f.factor,
    factor: f.factor,
    factorYear: f.year,
    factorVersion: f.version,
    source: f.source,
    ...(check ? { check } : {}),
  };
}

function marketLine(
  kwh: number,
  year: number,
  contract: ElectricityContract | undefined,
  residualMix: readonly ResidualMixFactor[],
): EmissionLine | undefined {
  if (contract?.renewable && contract.regoBacked) {
    return {
      scope: 2,
      method: 'market',
      activity: 'rego',
      kgCO2e: 0,
      factor: 0,
      factorVersion: 'rego-zero',
      source: 'Renewable supply backed by REGOs (GHG Protocol Scope 2 market-based)',
    };
  }
  if (contract?.supplierFactor) {
    const { factor, source } = contract.supplierFactor;
    return {
      scope: 2,
      method: 'market',
      activity: 'supplier',
      kgCO2e: kwh * factor,
      factor,
      factorVersion: `supplier:${source}`,
      source,
    };
  }
  const mix = findResidualMix(year, residualMix);
  if (!mix) return undefined;
  const notes = [
    contract?.renewable ? 'renewable contract without REGO backing counts at the residual mix' : undefined,
    mix.check,
    mix.year !== year ? `the ${mix.year} residual mix stands in for ${year}` : undefined,
  ].filter(Boolean);
  return {
    scope: 2,
    method: 'market',
    activity: 'residual-mix',
    kgCO2e: kwh * mix.factor,
    factor: mix.factor,
    factorYear: mix.year,
    factorVersion: mix.version,
    source: mix.source,
    ...(notes.length ? { check: notes.join('; ') } : {}),
  };
}

/** Emissions of one consumption figure by scope, with the factor versions that produced them. */
export function emissionsOf(entry: ConsumptionEntry, tables: EmissionTables = {}): EmissionsResult {
  const factors = tables.factors ?? EMISSION_FACTORS;
  const residualMix = tables.residualMix ?? RESIDUAL_MIX_FACTORS;
  const year = Number(entry.date.slice(0, 4));
  const lines: EmissionLine[] = [];
  const notCovered: EmissionsResult['notCovered'] = [];
  const per = PER_UNIT[entry.unit];
  const activities =
    entry.utility === 'waste' ? [wasteActivity(entry.wasteCategory)] : ACTIVITIES[entry.utility];
  for (const activity of activities) {
    const wellToTank = isTabled(activity, factors) && WELL_TO_TANK_ACTIVITIES.has(activity);
    const f = isTabled(activity, factors)
      ? wellToTank
        ? findWellToTankFactor(entry.utility, activity, year, factors)
        : findEmissionFactor(entry.utility, activity, year, factors)
      : undefined;
    if (!f) {
      notCovered.push({
        activity,
        reason: wellToTank
          ? `no confirmed ${year} ${entry.utility} ${activity} factor`
          : `no ${entry.utility} ${activity} factor`,
      });
      continue;
    }
    if (!per || per.unit !== f.unit) {
      notCovered.push({ activity, reason: `${entry.unit} does not convert to ${f.unit}` });
      continue;
    }
    const amount = entry.quantity * per.scale;
    lines.push(lineFrom(f, amount, year));
    if (entry.utility === 'electricity' && activity === 'generation') {
      const market = marketLine(amount, year, entry.contract, residualMix);
      if (market) lines.push(market);
      else notCovered.push({ activity: 'residual-mix', reason: 'no residual mix factor' });
    }
  }
  const sum = (pick: (l: EmissionLine) => boolean) =>
    lines.filter(pick).reduce((total, l) => total + l.kgCO2e, 0);
  return {
    year,
    lines,
    scope1: sum((l) => l.scope === 1),
    scope2Location: sum((l) => l.scope === 2 && l.method === 'location'),
    scope2Market: sum((l) => l.scope === 2 && l.method === 'market'),
    scope3: sum((l) => l.scope === 3),
    notCovered,
    factorVersions: [...new Set(lines.map((l) => l.factorVersion))].sort(),
  };
}

export interface EmissionsTotals {
  scope1: number;
  scope2Location: number;
  scope2Market: number;
  scope3: number;
  /** Scopes 1, 2 location-based and 3 */
  totalLocation: number;
  /** Scopes 1, 2 market-based and 3 */
  totalMarket: number;
  factorVersions: string[];
}

export function sumEmissions(results: readonly EmissionsResult[]): EmissionsTotals {
  const add = (pick: (r: EmissionsResult) => number) => results.reduce((t, r) => t + pick(r), 0);
  const scope1 = add((r) => r.scope1);
  const scope2Location = add((r) => r.scope2Location);
  const scope2Market = add((r) => r.scope2Market);
  const scope3 = add((r) => r.scope3);
  return {
    scope1,
    scope2Location,
    scope2Market,
    scope3,
    totalLocation: scope1 + scope2Location + scope3,
    totalMarket: scope1 + scope2Market + scope3,
    factorVersions: [...new Set(results.flatMap((r) => r.factorVersions))].sort(),
  };
}

/** kg CO2e per m² of floor area; undefined without a positive area. */
export function intensityPerSquareMetre(kgCO2e: number, floorAreaM2: number | undefined): number | undefined {
  if (floorAreaM2 === undefined || !(floorAreaM2 > 0)) return undefined;
  return kgCO2e / floorAreaM2;
}
