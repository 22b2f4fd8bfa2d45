import type { EmissionScope, Milestone, TargetMeasure, TargetNormalisation } from '../schemas/targets.ts';

/** One calendar year of a site's (or a scope's) figures, in the utilities' default units. */
export interface YearFigures {
  /** Electricity, gas, heating and cooling, kWh (solar generation is not consumption). */
  energyKwh: number;
  emissionsKg: { scope1: number; scope2: number; scope3: number };
  /** Net cost, pounds. */
  cost: number;
  waterM3: number;
  wasteKg: number;
  /** Months of the year with any figure. */
  months: number;
}

export interface SiteYears {
  assetId: string;
  siteName?: string;
  /** null when the site has no floor area recorded. */
  floorAreaM2: number | null;
  /** By calendar year. */
  years: Readonly<Record<number, YearFigures>>;
}

/** What the arithmetic needs of a target. */
export interface TargetTerms {
  measure: TargetMeasure;
  emissionScope: EmissionScope;
  normalisation: TargetNormalisation;
  baselineYear: number;
  baselineOverride?: number;
  targetYear: number;
  reductionPercent: number;
  milestones: readonly Milestone[];
  linearPath: boolean;
}

export type TargetStatus = 'on-track' | 'off-track' | 'no-data' | 'no-baseline' | 'not-started';

const MEASURE_UNITS: Readonly<Record<TargetMeasure, string>> = {
  energy: 'kWh',
  emissions: 'kgCO2e',
  cost: '£',
  water: 'm³',
  waste: 'kg',
};

export function unitOf(t: Pick<TargetTerms, 'measure' | 'normalisation'>): string {
  const unit = MEASURE_UNITS[t.measure];
  return t.normalisation === 'per-m2' ? `${unit}/m²` : unit;
}

/** A year's figure of the target's measure, before any division by floor area. */
export function measureOf(f: YearFigures, t: Pick<TargetTerms, 'measure' | 'emissionScope'>): number {
  switch (t.measure) {
    case 'energy':
      return f.energyKwh;
    case 'cost':
      return f.cost;
    case 'water':
      return f.waterM3;
    case 'waste':
      return f.wasteKg;
    case 'emissions': {
      const e = f.emissionsKg;
      if (t.emissionScope === 'scope1') return e.scope1;
      if (t.emissionScope === 'scope2') return e.scope2;
      if (t.emissionScope === 'scope3') return e.scope3;
      if (t.emissionScope === 'scope1and2') return e.scope1 + e.scope2;
      return e.scope1 + e.scope2 + e.scope3;
    }
  }
}

export interface ScopeYear {
  /** null: nothing to divide by, or no figures at all. */
  value: number | null;
  /** The floor area divided by (per-m² targets). */
  floorAreaM2?: number;
  /** Sites with figures that year but no floor area: a per-m² figure leaves them out, and says so. */
  sitesWithoutFloorArea: string[];
  /** Sites with any figure that year. */
  sitesWithData: number;
}

/**
 * The scope's figure for a year. Absolute: the sum over its sites. Per m²: the sum over sites with a floor
 * area divided by their total area; a site with figures but no area counts in neither (it would inflate
 * the intensity), and a site with no figures that year adds no area (it would dilute it).
 */
export function scopeValueOf(sites: readonly SiteYears[], year: number, t: TargetTerms): ScopeYear {
  let sum = 0;
  let area = 0;
  let withData = 0;
  const missingArea: string[] = [];
  for (const site of sites) {
    const f = site.years[year];
    if (!f || f.months === 0) continue;
    withData++;
    if (t.normalisation === 'per-m2') {
      if (!site.floorAreaM2 || site.floorAreaM2 <= 0) {
        missingArea.push(site.assetId);
        continue;
      }
      area += site.floorAreaM2;
    }
    sum += measureOf(f, t);
  }
  if (withData === 0) return { value: null, sitesWithoutFloorArea: [], sitesWithData: 0 };
  if (t.normalisation === 'absolute')
    return { value: sum, sitesWithoutFloorArea: [], sitesWithData: withData };
  return {
    value: area > 0 ? sum / area : null,
    floorAreaM2: area,
    sitesWithoutFloorArea: missingArea,
    sitesWithData: withData,
  };
}

/** The points the path runs through: the baseline, each milestone and the target, as reductions in %. */
export function checkpointsOf(t: TargetTerms): { year: number; reductionPercent: number }[] {
  const milestones = [...t.milestones]
    .filter((m) => m.year > t.baselineYear && m.year < t.targetYear)
    .sort((a, b) => a.year - b.year);
  return [
    { year: t.baselineYear, reductionPercent: 0 },
    ...milestones.map((m) => ({ year: m.year, reductionPercent: m.reductionPercent })),
    { year: t.targetYear, reductionPercent: t.reductionPercent },
  ];
}

/**
 * The reduction (in % of the baseline) the target expects by a year. A linear path runs straight between
 * checkpoints (with no milestones, the SBTi-style linear reduction: the same amount every year); a stepped
 * path expects only what the latest checkpoint reached asks. Before the baseline nothing is expected,
 * after the target year the target holds.
 */
export function expectedReductionPercent(t: TargetTerms, year: number): number {
  const points = checkpointsOf(t);
  if (year <= t.baselineYear) return 0;
  if (year >= t.targetYear) return t.reductionPercent;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as { year: number; reductionPercent: number };
    const b = points[i] as { year: number; reductionPercent: number };
    if (year > b.year) continue;
    if (year === b.year) return b.reductionPercent;
    if (!t.linearPath) return a.reductionPercent;
    return (
      a.reductionPercent + ((b.reductionPercent - a.reductionPercent) * (year - a.year)) / (b.year - a.year)
    );
  }
  return t.reductionPercent;
}

/** The value the path expects in a year, from the baseline. */
export function pathValueOf(t: TargetTerms, baseline: number, year: number): number {
  return baseline * (1 - expectedReductionPercent(t, year) / 100);
}

/** The straight path's yearly cut, in % of the baseline (SBTi's "linear annual reduction"). */
export function annualReductionPercent(
  t: Pick<TargetTerms, 'baselineYear' | 'targetYear' | 'reductionPercent'>,
) {
  return t.reductionPercent / (t.targetYear - t.baselineYear);
}

export interface Progress {
  year: number;
  actual: number;
  expected: number;
  targetValue: number;
  /** actual − expected: above 0, behind the path by that much. */
  gap: number;
  /** The gap as a percentage of the expected value. */
  gapPercent: number;
  /** Share of the whole reduction (baseline to target) achieved so far, in %. */
  achievedPercent: number;
  status: 'on-track' | 'off-track';
}

/** Where a year's figure stands against the path: on track when no higher than the path expects. */
export function progressOf(t: TargetTerms, baseline: number, actual: number, year: number): Progress {
  const expected = pathValueOf(t, baseline, year);
  const targetValue = baseline * (1 - t.reductionPercent / 100);
  const gap = actual - expected;
  const whole = baseline - targetValue;
  return {
    year,
    actual,
    expected,
    targetValue,
    gap,
    gapPercent: expected > 0 ? (gap / expected) * 100 : gap > 0 ? 100 : 0,
    achievedPercent: whole > 0 ? ((baseline - actual) / whole) * 100 : 0,
    // A rounding hair above the path is not a miss.
    status: gap > Math.max(1e-9, Math.abs(expected) * 1e-9) ? 'off-track' : 'on-track',
  };
}

export interface Contribution {
  assetId: string;
  siteName?: string;
  /** The site's own figure against its share of the path, in the target's unit (per m²: of the scope's area). */
  gap: number;
}

/**
 * Which sites make the gap. Each site is held to its own baseline scaled by the path, so the sites' gaps
 * add up to the scope's gap when the baseline is worked out from the data (an overridden one moves the
 * scope's path but not the sites'). Per m², each site's gap is divided by the scope's floor area of the
 * year, which is how its figure enters the intensity. Largest first.
 */
export function gapContributions(
  sites: readonly SiteYears[],
  t: TargetTerms,
  year: number,
  divisor: number,
): Contribution[] {
  const share = 1 - expectedReductionPercent(t, year) / 100;
  const out: Contribution[] = [];
  for (const site of sites) {
    const now = site.years[year];
    if (!now || now.months === 0) continue;
    if (t.normalisation === 'per-m2' && !(site.floorAreaM2 && site.floorAreaM2 > 0)) continue;
    const before = site.years[t.baselineYear];
    const base = before && before.months > 0 ? measureOf(before, t) : 0;
    const gap = (measureOf(now, t) - base * share) / (divisor > 0 ? divisor : 1);
    out.push({ assetId: site.assetId, ...(site.siteName ? { siteName: site.siteName } : {}), gap });
  }
  return out.sort((a, b) => b.gap - a.gap);
}

export interface Evaluation {
  unit: string;
  baseline: {
    computed: number | null;
    override?: number;
    /** The override when set, else the computed figure. */
    value: number | null;
    sitesWithoutFloorArea: string[];
  };
  targetValue: number | null;
  /** The year judged: the last whole year before `today`, no later than the target year. */
  assessedYear: number;
  status: TargetStatus;
  progress?: Progress;
  /** Months with figures in the assessed year (fewer than 12: the year's figure is incomplete). */
  months: number;
  sitesWithoutFloorArea: string[];
  /** Each year from the baseline to the target: the path, and the figure where the year has passed. */
  series: { year: number; expected: number | null; actual: number | null }[];
  contributions: Contribution[];
}

/** A target judged on `today` (YYYY-MM-DD) from its sites' yearly figures. */
export function evaluateTarget(t: TargetTerms, sites: readonly SiteYears[], today: string): Evaluation {
  const thisYear = Number(today.slice(0, 4));
  const assessedYear = Math.min(thisYear - 1, t.targetYear);
  const base = scopeValueOf(sites, t.baselineYear, t);
  const baseline = t.baselineOverride ?? base.value;
  const unit = unitOf(t);
  const series: Evaluation['series'] = [];
  for (let y = t.baselineYear; y <= t.targetYear; y++) {
    const actual = y < thisYear ? scopeValueOf(sites, y, t).value : null;
    series.push({ year: y, expected: baseline === null ? null : pathValueOf(t, baseline, y), actual });
  }
  const common = {
    unit,
    baseline: {
      computed: base.value,
      ...(t.baselineOverride !== undefined ? { override: t.baselineOverride } : {}),
      value: baseline,
      sitesWithoutFloorArea: base.sitesWithoutFloorArea,
    },
    targetValue: baseline === null ? null : baseline * (1 - t.reductionPercent / 100),
    assessedYear,
    series,
  };
  if (baseline === null || baseline <= 0)
    return { ...common, status: 'no-baseline', months: 0, sitesWithoutFloorArea: [], contributions: [] };
  if (assessedYear <= t.baselineYear)
    return { ...common, status: 'not-started', months: 0, sitesWithoutFloorArea: [], contributions: [] };
  const now = scopeValueOf(sites, assessedYear, t);
  const months = Math.max(0, ...sites.map((s) => s.years[assessedYear]?.months ?? 0));
  if (now.value === null)
    return {
      ...common,
      status: 'no-data',
      months,
      sitesWithoutFloorArea: now.sitesWithoutFloorArea,
      contributions: [],
    };
  const progress = progressOf(t, baseline, now.value, assessedYear);
  const divisor = t.normalisation === 'per-m2' ? (now.floorAreaM2 ?? 0) : 1;
  return {
    ...common,
    status: progress.status,
    progress,
    months,
    sitesWithoutFloorArea: now.sitesWithoutFloorArea,
    contributions: gapContributions(sites, t, assessedYear, divisor),
  };
}
