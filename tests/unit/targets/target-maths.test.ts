import { describe, expect, it } from 'vitest';
import {
  annualReductionPercent,
  evaluateTarget,
  expectedReductionPercent,
  gapContributions,
  measureOf,
  pathValueOf,
  progressOf,
  type SiteYears,
  scopeValueOf,
  type TargetTerms,
  unitOf,
  type YearFigures,
} from '../../../shared/targets/target-maths.ts';

const year = (energyKwh: number, more: Partial<YearFigures> = {}): YearFigures => ({
  energyKwh,
  emissionsKg: { scope1: 0, scope2: 0, scope3: 0 },
  cost: 0,
  waterM3: 0,
  wasteKg: 0,
  months: 12,
  ...more,
});

const terms = (over: Partial<TargetTerms> = {}): TargetTerms => ({
  measure: 'energy',
  emissionScope: 'all',
  normalisation: 'absolute',
  baselineYear: 2020,
  targetYear: 2030,
  reductionPercent: 50,
  milestones: [],
  linearPath: true,
  ...over,
});

// Two sites: 60,000 + 40,000 kWh in 2020; 40,000 + 38,000 kWh in 2025.
const SITES: SiteYears[] = [
  { assetId: 'a', siteName: 'Alpha', floorAreaM2: 1000, years: { 2020: year(60_000), 2025: year(40_000) } },
  { assetId: 'b', siteName: 'Beta', floorAreaM2: 500, years: { 2020: year(40_000), 2025: year(38_000) } },
];

describe('the path of a target', () => {
  it('runs straight from the baseline to the target without milestones (SBTi-style linear)', () => {
    const t = terms();
    expect(expectedReductionPercent(t, 2020)).toBe(0);
    expect(expectedReductionPercent(t, 2025)).toBe(25);
    expect(expectedReductionPercent(t, 2030)).toBe(50);
    expect(expectedReductionPercent(t, 2035)).toBe(50);
    expect(pathValueOf(t, 100_000, 2025)).toBe(75_000);
    expect(pathValueOf(t, 100_000, 2028)).toBeCloseTo(60_000, 9);
    // 42% over 2020-2030 is the 4.2% a year of SBTi's 1.5 °C linear reduction.
    expect(annualReductionPercent(terms({ reductionPercent: 42 }))).toBeCloseTo(4.2, 12);
  });

  it('bends at milestones on a linear path', () => {
    const t = terms({ milestones: [{ year: 2025, reductionPercent: 20 }] });
    // 2023: three fifths of the way to 20%; 2027: 20% plus two fifths of the 30 points left.
    expect(expectedReductionPercent(t, 2023)).toBeCloseTo(12, 12);
    expect(expectedReductionPercent(t, 2025)).toBe(20);
    expect(expectedReductionPercent(t, 2027)).toBeCloseTo(32, 12);
  });

  it('steps at milestones when the path is not linear', () => {
    const t = terms({ linearPath: false, milestones: [{ year: 2025, reductionPercent: 20 }] });
    expect(expectedReductionPercent(t, 2024)).toBe(0);
    expect(expectedReductionPercent(t, 2025)).toBe(20);
    expect(expectedReductionPercent(t, 2029)).toBe(20);
    expect(expectedReductionPercent(t, 2030)).toBe(50);
  });
});

describe('baseline and progress', () => {
  it('works out the baseline as the sum of the sites in the baseline year', () => {
    expect(scopeValueOf(SITES, 2020, terms()).value).toBe(100_000);
    expect(scopeValueOf(SITES, 2019, terms()).value).toBeNull();
  });

  it('measures the gap to the path in units and percent', () => {
    // Expected in 2025: 100,000 × (1 − 25%) = 75,000; actual 78,000; 3,000 over, 4% of 75,000.
    const p = progressOf(terms(), 100_000, 78_000, 2025);
    expect(p.expected).toBe(75_000);
    expect(p.targetValue).toBe(50_000);
    expect(p.gap).toBe(3_000);
    expect(p.gapPercent).toBeCloseTo(4, 12);
    // 22,000 of the 50,000 reduction made.
    expect(p.achievedPercent).toBeCloseTo(44, 12);
    expect(p.status).toBe('off-track');
    expect(progressOf(terms(), 100_000, 75_000, 2025).status).toBe('on-track');
  });

  it('names the sites that make the gap, adding up to it', () => {
    // Alpha: 40,000 − 0.75 × 60,000 = −5,000; Beta: 38,000 − 0.75 × 40,000 = +8,000; together 3,000.
    const c = gapContributions(SITES, terms(), 2025, 1);
    expect(c.map((s) => [s.assetId, s.gap])).toEqual([
      ['b', 8_000],
      ['a', -5_000],
    ]);
  });

  it('judges the last whole year, with the override replacing the computed baseline', () => {
    const e = evaluateTarget(terms(), SITES, '2026-03-01');
    expect(e.assessedYear).toBe(2025);
    expect(e.baseline).toEqual({ computed: 100_000, value: 100_000, sitesWithoutFloorArea: [] });
    expect(e.status).toBe('off-track');
    expect(e.progress?.gap).toBe(3_000);
    expect(e.contributions[0]?.siteName).toBe('Beta');
    expect(e.series.find((s) => s.year === 2025)).toEqual({ year: 2025, expected: 75_000, actual: 78_000 });
    expect(e.series.find((s) => s.year === 2026)?.actual).toBeNull();

    // Overridden to 110,000: 2025 expects 82,500, so 78,000 is on track.
    const o = evaluateTarget(terms({ baselineOverride: 110_000 }), SITES, '2026-03-01');
    expect(o.baseline.computed).toBe(100_000);
    expect(o.baseline.value).toBe(110_000);
    expect(o.progress?.expected).toBe(82_500);
    expect(o.status).toBe('on-track');
  });

  it('says when there is nothing to judge yet', () => {
    expect(evaluateTarget(terms(), SITES, '2021-06-01').status).toBe('not-started');
    expect(evaluateTarget(terms({ baselineYear: 2019 }), SITES, '2026-03-01').status).toBe('no-baseline');
    expect(evaluateTarget(terms(), SITES, '2025-03-01').status).toBe('no-data');
  });

  it('counts emissions by scope', () => {
    const f = year(0, { emissionsKg: { scope1: 10, scope2: 20, scope3: 5 } });
    expect(measureOf(f, { measure: 'emissions', emissionScope: 'all' })).toBe(35);
    expect(measureOf(f, { measure: 'emissions', emissionScope: 'scope1and2' })).toBe(30);
    expect(measureOf(f, { measure: 'emissions', emissionScope: 'scope2' })).toBe(20);
    expect(unitOf({ measure: 'emissions', normalisation: 'per-m2' })).toBe('kgCO2e/m²');
  });
});

describe('per m² targets', () => {
  const perM2 = terms({ normalisation: 'per-m2' });

  it('divides by the floor area of the sites with figures', () => {
    // (60,000 + 40,000) / (1,000 + 500) m² = 66.67 kWh/m².
    const v = scopeValueOf(SITES, 2020, perM2);
    expect(v.value).toBeCloseTo(66.6667, 4);
    expect(v.floorAreaM2).toBe(1500);
  });

  it('leaves out a site with no floor area, and names it', () => {
    const sites: SiteYears[] = [
      { assetId: 'a', floorAreaM2: 1000, years: { 2020: year(150_000) } },
      { assetId: 'b', floorAreaM2: null, years: { 2020: year(80_000) } },
      { assetId: 'c', floorAreaM2: 500, years: { 2020: year(60_000) } },
    ];
    // (150,000 + 60,000) / 1,500 m² = 140 kWh/m²; Beta's 80,000 kWh is not spread over others' area.
    const v = scopeValueOf(sites, 2020, perM2);
    expect(v.value).toBe(140);
    expect(v.sitesWithoutFloorArea).toEqual(['b']);
  });

  it('has no figure at all when no site has a floor area', () => {
    const sites: SiteYears[] = [
      { assetId: 'b', floorAreaM2: null, years: { 2020: year(80_000), 2025: year(1) } },
    ];
    expect(scopeValueOf(sites, 2020, perM2).value).toBeNull();
    const e = evaluateTarget(perM2, sites, '2026-01-01');
    expect(e.status).toBe('no-baseline');
    expect(e.baseline.sitesWithoutFloorArea).toEqual(['b']);
  });

  it('gives site gaps per m² of the scope that add up to its gap', () => {
    // 2025: 78,000 / 1,500 = 52 kWh/m² against 66.67 × 0.75 = 50: 2 over. Beta 8,000/1,500, Alpha −5,000/1,500.
    const e = evaluateTarget(perM2, SITES, '2026-03-01');
    expect(e.progress?.gap).toBeCloseTo(2, 9);
    const total = e.contributions.reduce((n, c) => n + c.gap, 0);
    expect(total).toBeCloseTo(2, 9);
    expect(e.contributions[0]?.gap).toBeCloseTo(8_000 / 1_500, 9);
  });
});
