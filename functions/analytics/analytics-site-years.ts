import type { Caller } from '../../shared/access/caller.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { listAssetRollups } from '../accounts/index.ts';
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import { resolveScope } from './analytics-scope.ts';

/** Utilities that are energy a building uses, as benchmarks count it; water and waste are not. */
const ENERGY_UTILITIES: ReadonlySet<UtilityType> = new Set(['electricity', 'gas', 'heating', 'cooling']);
const KWH_PER_UNIT: Readonly<Record<string, number>> = { kwh: 1, mwh: 1000 };

/**
 * Parallel partition reads: a year-by-site answer reads one roll-up partition per site, so more run at
 * once than for a window's figures.
 */
const READ_CONCURRENCY = 32;

const SITE_FIELDS = [
  'siteName',
  'entityId',
  'assetType',
  'address',
  'floorArea',
  'floorAreaUnit',
  'floorAreaHistory',
] as const;

/** A site's energy and emissions in one calendar year, electricity on its own. */
export interface SiteYear {
  year: number;
  energyKwh: number;
  emissionsKg: number;
  electricityKwh: number;
  electricityKg: number;
  /** How many months of the year have energy figures: a year short of twelve is not a whole year's use. */
  months: number;
}

/** A site as benchmarks need it: what it is, where, how large, and its energy by year. */
export interface SiteYears {
  site: StoredItem;
  years: SiteYear[];
}

/**
 * Every site a caller may read (narrowed to a portfolio or an entity when asked), with its energy and
 * emissions by calendar year from its monthly roll-ups. Only whole sites count: a meter granted on a
 * site the caller may not read does not make that site benchmarkable.
 */
export async function siteYearFigures(
  caller: Caller,
  ask: { assetGroupId?: string; entityId?: string; assetId?: string },
  years: { from: number; to: number },
): Promise<{ restricted: boolean; sites: SiteYears[] }> {
  const scope = await resolveScope(caller, { ...ask, bySite: true });
  const pk = scopeCollectionPk(caller.companyId, 'assets');
  const items =
    scope.kind === 'company' && !scope.restricted
      ? (await projectAll(pk, [...SITE_FIELDS])).filter((s) => s.deleted !== true)
      : [
          ...(
            await getItems(
              pk,
              scope.sites.map((s) => s._id),
            )
          ).values(),
        ].filter((s) => s.deleted !== true);
  const from = `${years.from}-01`;
  const to = `${years.to}-12`;
  const sites = await inPool(items, READ_CONCURRENCY, async (site): Promise<SiteYears> => {
    const byYear = new Map<number, SiteYear>();
    const months = new Map<number, Set<string>>();
    for (const row of await listAssetRollups(caller.companyId, site._id, from, to)) {
      const factor = KWH_PER_UNIT[String(row.unit).toLowerCase()];
      if (!ENERGY_UTILITIES.has(row.utilityType) || factor === undefined) continue;
      const year = Number(row.month.slice(0, 4));
      const y = byYear.get(year) ?? {
        year,
        energyKwh: 0,
        emissionsKg: 0,
        electricityKwh: 0,
        electricityKg: 0,
        months: 0,
      };
      const seen = months.get(year) ?? new Set<string>();
      seen.add(row.month);
      months.set(year, seen);
      y.months = seen.size;
      const kwh = (Number(row.consumption) || 0) * factor;
      const kg = Number(row.emissionsKg) || 0;
      y.energyKwh += kwh;
      y.emissionsKg += kg;
      if (row.utilityType === 'electricity') {
        y.electricityKwh += kwh;
        y.electricityKg += kg;
      }
      byYear.set(year, y);
    }
    return { site, years: [...byYear.values()].sort((a, b) => a.year - b.year) };
  });
  return { restricted: scope.restricted, sites };
}
