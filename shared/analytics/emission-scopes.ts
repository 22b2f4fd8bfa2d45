import {
  EMISSION_FACTORS,
  type EmissionFactor,
  type FactorActivity,
  findEmissionFactor,
  findWellToTankFactor,
} from '../domain/emission-factors.ts';
import { findResidualMix, RESIDUAL_MIX_FACTORS, type ResidualMixFactor } from './residual-mix.ts';

/** The factor set named for supply under a renewable contract backed by REGOs: it counts 0 market-based. */
export const REGO_ZERO_SET = 'rego-zero';

/**
 * One month of one utility as the monthly figures hold it: the emissions stored when its bills were
 * written (by the utility's own factor: gas burnt, grid electricity, water supplied and treated, waste),
 * with the electricity in kWh and the part of it supplied under REGO-backed renewable contracts.
 */
export interface ScopeInput {
  /** YYYY-MM: factors are chosen by its year. */
  month: string;
  utilityType: string;
  emissionsKg: number;
  /** The factor set the stored emissions came from. */
  factorVersion?: string;
  /** Electricity and gas: the month's consumption in kWh, when it converts (well-to-tank is per kWh). */
  kwh?: number;
  /** Electricity only: kWh supplied under a renewable contract with REGO backing. */
  regoKwh?: number;
}

export interface ScopeThreeParts {
  transmissionDistribution: number;
  water: number;
  waste: number;
  /** Gas and electricity well-to-tank, for the years the factor library holds a confirmed figure. */
  wellToTank: number;
}

/** Emissions in kg CO2e by GHG Protocol scope, each with the factor sets that produced it. */
export interface ScopeSplit {
  scope1: number;
  scope2Location: number;
  scope2Market: number;
  scope3: number;
  scope3Parts: ScopeThreeParts;
  /** Scopes 1, 2 location-based and 3 */
  totalLocation: number;
  /** Scopes 1, 2 market-based and 3 */
  totalMarket: number;
  factorSets: {
    scope1: string[];
    scope2Location: string[];
    scope2Market: string[];
    scope3: string[];
  };
  /**
   * Scope 3 parts left out, so they show as missing rather than as 0: `well-to-tank 2024` for a year with
   * no confirmed factor, `well-to-tank (gas not in kWh)` for gas read by volume.
   */
  notCovered: string[];
}

export interface ScopeTables {
  factors?: readonly EmissionFactor[];
  residualMix?: readonly ResidualMixFactor[];
}

/** Fuels burnt on site: their stored emissions are scope 1. */
const SCOPE_ONE = new Set(['gas']);
/** Bought energy other than electricity: scope 2, one figure for both methods. */
const SCOPE_TWO_OTHER = new Set(['heating', 'cooling']);

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Market-based scope 2 of a share of an electricity month: supply under a REGO-backed renewable contract
 * counts 0, the rest is counted at the residual mix of the month's year.
 */
export function marketBased(
  row: Pick<ScopeInput, 'month' | 'kwh' | 'regoKwh'>,
  fraction: number,
  residualMix: readonly ResidualMixFactor[] = RESIDUAL_MIX_FACTORS,
): { kg: number; sets: string[] } {
  if (row.kwh === undefined) return { kg: 0, sets: [] };
  const kwh = row.kwh * fraction;
  const rego = Math.min(kwh, Math.max(0, (row.regoKwh ?? 0) * fraction));
  const sets = rego > 0 ? [REGO_ZERO_SET] : [];
  const mix = findResidualMix(Number(row.month.slice(0, 4)), residualMix);
  if (!mix || kwh - rego <= 0) return { kg: 0, sets };
  return { kg: (kwh - rego) * mix.factor, sets: [...sets, mix.version] };
}

interface Sets {
  scope1: Set<string>;
  scope2Location: Set<string>;
  scope2Market: Set<string>;
  scope3: Set<string>;
}

/** Sums of scope figures, added to month by month (with a share of each month), then read out. */
export class ScopeSum {
  private s1 = 0;
  private s2l = 0;
  private s2m = 0;
  private td = 0;
  private water = 0;
  private waste = 0;
  private wtt = 0;
  private readonly sets: Sets = {
    scope1: new Set(),
    scope2Location: new Set(),
    scope2Market: new Set(),
    scope3: new Set(),
  };
  private readonly missing = new Set<string>();
  private readonly tables: ScopeTables;

  constructor(tables: ScopeTables = {}) {
    this.tables = tables;
  }

  /** Well-to-tank of a share of a gas or electricity month, at its own year's factors only. */
  private wellToTank(
    row: ScopeInput,
    fraction: number,
    year: number,
    activities: readonly FactorActivity[],
  ): void {
    const utility = row.utilityType === 'gas' ? 'gas' : 'electricity';
    if (row.kwh === undefined) {
      this.missing.add(`well-to-tank (${utility} not in kWh)`);
      return;
    }
    const kwh = row.kwh * fraction;
    for (const activity of activities) {
      const f = findWellToTankFactor(utility, activity, year, this.tables.factors ?? EMISSION_FACTORS);
      if (!f) {
        this.missing.add(`well-to-tank ${year}`);
        continue;
      }
      this.wtt += kwh * f.factor;
      this.sets.scope3.add(f.version);
    }
  }

  add(row: ScopeInput, fraction: number): void {
    const kg = row.emissionsKg * fraction;
    const version = row.factorVersion && row.factorVersion !== 'none' ? row.factorVersion : undefined;
    const year = Number(row.month.slice(0, 4));
    if (SCOPE_ONE.has(row.utilityType)) {
      this.s1 += kg;
      if (version) this.sets.scope1.add(version);
      this.wellToTank(row, fraction, year, ['well-to-tank']);
      return;
    }
    if (SCOPE_TWO_OTHER.has(row.utilityType)) {
      this.s2l += kg;
      this.s2m += kg;
      if (version) for (const s of [this.sets.scope2Location, this.sets.scope2Market]) s.add(version);
      return;
    }
    if (row.utilityType === 'electricity') {
      this.s2l += kg;
      if (version) this.sets.scope2Location.add(version);
      this.wellToTank(row, fraction, year, [
        'well-to-tank-generation',
        'well-to-tank-transmission-distribution',
      ]);
      if (row.kwh === undefined) return;
      const kwh = row.kwh * fraction;
      const market = marketBased(row, fraction, this.tables.residualMix);
      this.s2m += market.kg;
      for (const v of market.sets) this.sets.scope2Market.add(v);
      const td = findEmissionFactor(
        'electricity',
        'transmission-distribution',
        year,
        this.tables.factors ?? EMISSION_FACTORS,
      );
      if (td && kwh > 0) {
        this.td += kwh * td.factor;
        this.sets.scope3.add(td.version);
      }
      return;
    }
    if (row.utilityType === 'water' || row.utilityType === 'waste') {
      if (row.utilityType === 'water') this.water += kg;
      else this.waste += kg;
      if (version) this.sets.scope3.add(version);
    }
  }

  /** Each figure rounded to the gram, the totals summed from the rounded parts so they add up exactly. */
  result(): ScopeSplit {
    const sorted = (s: Set<string>) => [...s].sort();
    const parts = {
      transmissionDistribution: r3(this.td),
      water: r3(this.water),
      waste: r3(this.waste),
      wellToTank: r3(this.wtt),
    };
    const scope3 = r3(parts.transmissionDistribution + parts.water + parts.waste + parts.wellToTank);
    const scope1 = r3(this.s1);
    const scope2Location = r3(this.s2l);
    const scope2Market = r3(this.s2m);
    return {
      scope1,
      scope2Location,
      scope2Market,
      scope3,
      scope3Parts: parts,
      totalLocation: r3(scope1 + scope2Location + scope3),
      totalMarket: r3(scope1 + scope2Market + scope3),
      factorSets: {
        scope1: sorted(this.sets.scope1),
        scope2Location: sorted(this.sets.scope2Location),
        scope2Market: sorted(this.sets.scope2Market),
        scope3: sorted(this.sets.scope3),
      },
      notCovered: sorted(this.missing),
    };
  }
}
