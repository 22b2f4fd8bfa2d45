import type { Caller } from '../../shared/access/caller.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import type { SiteYears, YearFigures } from '../../shared/targets/target-maths.ts';
import type { SiteYearRollup } from '../accounts/index.ts';
import { floorAreaM2, sitesOf } from './analytics-epc.ts';
import { billParts, figuresOf, type MonthFigure } from './analytics-figures.ts';
import { readFigures } from './analytics-rollup-reads.ts';
import { resolveScope, type ScopeAsk } from './analytics-scope.ts';
import { siteYearRows } from './analytics-site-years.ts';

/** Utilities whose consumption is energy used on site, in kWh; solar is generation, not use. */
const ENERGY: readonly UtilityType[] = ['electricity', 'gas', 'heating', 'cooling'];

function yearsOf(
  rows: readonly MonthFigure[],
  monthsHeld: ReadonlyMap<number, ReadonlySet<string>>,
  fromYear: number,
  toYear: number,
): Record<number, YearFigures> {
  const window = { start: `${fromYear}-01-01`, end: `${toYear}-12-31` };
  const figures = figuresOf(rows, window, 'yearly', 'standard', true, 'location');
  const out: Record<number, YearFigures> = {};
  figures.buckets.forEach((bucket, i) => {
    const year = Number(bucket.start.slice(0, 4));
    const scopes = figures.scopes?.buckets[i];
    const u = bucket.utilities;
    out[year] = {
      energyKwh: ENERGY.reduce((n, t) => n + (u[t]?.unit === 'kWh' ? u[t].consumption : 0), 0),
      emissionsKg: {
        scope1: scopes?.scope1 ?? 0,
        scope2: scopes?.scope2Location ?? 0,
        scope3: scopes?.scope3 ?? 0,
      },
      cost: bucket.cost ?? 0,
      waterM3: u.water?.unit === 'm³' ? u.water.consumption : 0,
      wasteKg: u.waste?.unit === 'kg' ? u.waste.consumption : 0,
      months: monthsHeld.get(year)?.size ?? 0,
    };
  });
  return out;
}

/** A site's year from the store as one figure: every factor the scopes apply is by calendar year. */
const yearFigure = (r: SiteYearRollup): MonthFigure => ({
  month: `${r.year}-01`,
  utilityType: r.utilityType,
  consumption: r.consumption,
  unit: r.unit,
  cost: r.cost,
  emissionsKg: r.emissionsKg,
  assetId: r.assetId,
  ...billParts(r),
});

/**
 * Calendar-year figures of each site of a scope the caller may read (the company's when nothing is
 * asked), with the sites' floor areas: what a reduction target is measured on. Scope 2 is location-based.
 */
export async function siteYearsOf(
  caller: Caller,
  ask: Omit<ScopeAsk, 'bySite'>,
  fromYear: number,
  toYear: number,
): Promise<SiteYears[]> {
  const scope = await resolveScope(caller, { ...ask, bySite: true });
  const readable = new Set(scope.sites.map((s) => s._id));
  // Whole sites from the company's store of site years; meters granted alone from their own months.
  const [stored, meterRows, sites] = await Promise.all([
    siteYearRows(caller.companyId, fromYear, toYear),
    scope.meters.length > 0
      ? readFigures(
          caller,
          { ...scope, wholeCompany: false, sites: [] },
          { from: `${fromYear}-01`, to: `${toYear}-12` },
          undefined,
        )
      : Promise.resolve([]),
    sitesOf(caller, scope),
  ]);
  const bySite = new Map<string, MonthFigure[]>();
  const monthsBySite = new Map<string, Map<number, Set<string>>>();
  const held = (assetId: string, year: number, month: string) => {
    const years = monthsBySite.get(assetId) ?? new Map<number, Set<string>>();
    years.set(year, (years.get(year) ?? new Set()).add(month));
    monthsBySite.set(assetId, years);
  };
  for (const row of stored) {
    if (!readable.has(row.assetId)) continue;
    bySite.set(row.assetId, [...(bySite.get(row.assetId) ?? []), yearFigure(row)]);
    for (const m of row.monthsHeld) held(row.assetId, row.year, String(m));
  }
  for (const row of meterRows) {
    if (!row.assetId) continue;
    bySite.set(row.assetId, [...(bySite.get(row.assetId) ?? []), row]);
    held(row.assetId, Number(row.month.slice(0, 4)), row.month.slice(5, 7).replace(/^0/, ''));
  }
  const names = new Map(scope.sites.map((s) => [s._id, s.siteName]));
  const areas = new Map(sites.map((s) => [s._id, floorAreaM2(s)]));
  const ids = new Set([...scope.sites.map((s) => s._id), ...bySite.keys()]);
  return [...ids].map((assetId) => {
    const siteName = names.get(assetId);
    const area = areas.get(assetId) ?? 0;
    return {
      assetId,
      ...(siteName ? { siteName } : {}),
      floorAreaM2: area > 0 ? area : null,
      years: yearsOf(bySite.get(assetId) ?? [], monthsBySite.get(assetId) ?? new Map(), fromYear, toYear),
    };
  });
}
