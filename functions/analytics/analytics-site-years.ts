import type { Caller } from '../../shared/access/caller.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  fillWholeSiteYears,
  listSiteYears,
  listWholeSiteYears,
  markSiteYearsBuilt,
  rebuildSiteYears,
  type SiteYearMonths,
  type SiteYearRollup,
  siteYearsState,
} from '../accounts/index.ts';
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import { resolveScope } from './analytics-scope.ts';

/** Utilities that are energy a building uses, as benchmarks count it; water and waste are not. */
const ENERGY_UTILITIES: ReadonlySet<UtilityType> = new Set(['electricity', 'gas', 'heating', 'cooling']);
const KWH_PER_UNIT: Readonly<Record<string, number>> = { kwh: 1, mwh: 1000 };

const SITE_FIELDS = [
  'siteName',
  'entityId',
  'assetType',
  'address',
  'floorArea',
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
 * Fills the company's store of site years when it predates what is read now: from the sites' roll-ups (a
 * partition per site) when it holds nothing or no month figures, from its years by utility (one partition)
 * when it only lacks the whole years. Once per company.
 */
async function ensureSiteYears(companyId: string): Promise<void> {
  const state = await siteYearsState(companyId);
  if (state === 'empty') {
    const sites = await projectAll(scopeCollectionPk(companyId, 'assets'), ['siteName']);
    await rebuildSiteYears(
      companyId,
      sites.map((s) => s._id),
    );
  } else if (state === 'by-utility') await fillWholeSiteYears(companyId);
  if (state !== 'built') await markSiteYearsBuilt(companyId);
}

const bitsSet = (mask: number) => {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
};

const yearsBetween = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Every site's years of the company from the store, one item per site and year. */
export async function siteYearRows(companyId: string, from: number, to: number): Promise<SiteYearRollup[]> {
  await ensureSiteYears(companyId);
  // Each year is its own range of the partition: read side by side, a company of thousands of sites
  // waits for its largest year rather than for every page of every year one after another.
  return (
    await Promise.all(yearsBetween(from, to).map((year) => listWholeSiteYears(companyId, year, year)))
  ).flat();
}

/** Every site's years of the company by utility, each with its months' figures: for windows of months. */
export async function siteYearMonthRows(
  companyId: string,
  from: number,
  to: number,
): Promise<SiteYearMonths[]> {
  await ensureSiteYears(companyId);
  return (
    await Promise.all(yearsBetween(from, to).map((year) => listSiteYears(companyId, year, year)))
  ).flat();
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
  // The sites' ids are enough here (they are read whole below), so the scope reads no site list itself.
  const scope = await resolveScope(caller, ask);
  const pk = scopeCollectionPk(caller.companyId, 'assets');
  const readSites = async () =>
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
  const [items, rows] = await Promise.all([
    readSites(),
    siteYearRows(caller.companyId, years.from, years.to),
  ]);
  const readable = new Set(items.map((s) => s._id));
  // Months held as bits of a mask per site-year: thousands of sites are summed here on every call.
  const held = new Map<SiteYear, number>();
  const bySite = new Map<string, Map<number, SiteYear>>();
  for (const row of rows) {
    const factor = KWH_PER_UNIT[row.unit.toLowerCase()];
    if (!readable.has(row.assetId) || !ENERGY_UTILITIES.has(row.utilityType) || factor === undefined)
      continue;
    let ofSite = bySite.get(row.assetId);
    if (!ofSite) {
      ofSite = new Map<number, SiteYear>();
      bySite.set(row.assetId, ofSite);
    }
    let y = ofSite.get(row.year);
    if (!y) {
      y = { year: row.year, energyKwh: 0, emissionsKg: 0, electricityKwh: 0, electricityKg: 0, months: 0 };
      ofSite.set(row.year, y);
    }
    let mask = held.get(y) ?? 0;
    for (const m of row.monthsHeld) mask |= 1 << (m - 1);
    held.set(y, mask);
    y.months = bitsSet(mask);
    const kwh = row.consumption * factor;
    y.energyKwh += kwh;
    y.emissionsKg += row.emissionsKg;
    if (row.utilityType === 'electricity') {
      y.electricityKwh += kwh;
      y.electricityKg += row.emissionsKg;
    }
  }
  const sites = items.map(
    (site): SiteYears => ({
      site,
      years: [...(bySite.get(site._id)?.values() ?? [])].sort((a, b) => a.year - b.year),
    }),
  );
  return { restricted: scope.restricted, sites };
}
