import type { Caller } from '../../shared/access/caller.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import type { SiteYears, YearFigures } from '../../shared/targets/target-maths.ts';
import { floorAreaM2, sitesOf } from './analytics-epc.ts';
import { figuresOf, type MonthFigure } from './analytics-figures.ts';
import { resolveScope, type ScopeAsk } from './analytics-scope.ts';
import { readFigures } from './analytics-service.ts';

/** Utilities whose consumption is energy used on site, in kWh; solar is generation, not use. */
const ENERGY: readonly UtilityType[] = ['electricity', 'gas', 'heating', 'cooling'];

function yearsOf(
  rows: readonly MonthFigure[],
  fromYear: number,
  toYear: number,
): Record<number, YearFigures> {
  const window = { start: `${fromYear}-01-01`, end: `${toYear}-12-31` };
  const figures = figuresOf(rows, window, 'yearly', 'standard', true, 'location');
  const months = new Map<number, Set<string>>();
  for (const r of rows) {
    const y = Number(r.month.slice(0, 4));
    months.set(y, (months.get(y) ?? new Set()).add(r.month));
  }
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
      months: months.get(year)?.size ?? 0,
    };
  });
  return out;
}

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
  const [rows, sites] = await Promise.all([
    readFigures(caller, scope, { from: `${fromYear}-01`, to: `${toYear}-12` }, undefined),
    sitesOf(caller, scope),
  ]);
  const bySite = new Map<string, MonthFigure[]>();
  for (const row of rows) {
    if (!row.assetId) continue;
    bySite.set(row.assetId, [...(bySite.get(row.assetId) ?? []), row]);
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
      years: yearsOf(bySite.get(assetId) ?? [], fromYear, toYear),
    };
  });
}
