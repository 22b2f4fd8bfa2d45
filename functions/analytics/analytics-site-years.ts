import type { Caller } from '../../shared/access/caller.ts';
import { PATHWAY_FIRST_YEAR } from '../../shared/benchmarks/crrem.ts';
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
import { type ChangeMarks, readChangeMarks, SITE_TABLE_FIELDS } from '../core/data/change-marks.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { keepSiteYears, readKeptSiteYears } from './analytics-kept-site-years-repository.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import { resolveScope } from './analytics-scope.ts';

/** Utilities that are energy a building uses, as benchmarks count it; water and waste are not. */
const ENERGY_UTILITIES: ReadonlySet<UtilityType> = new Set(['electricity', 'gas', 'heating', 'cooling']);
const KWH_PER_UNIT: Readonly<Record<string, number>> = { kwh: 1, mwh: 1000 };

/** The fields a site is read with: the same whose writes move the company's sites mark. */
const SITE_FIELDS = SITE_TABLE_FIELDS;

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

/** Sums the utilities' years of each site into its energy years, each site's years in year order. */
function sumSiteYears(rows: Iterable<SiteYearRollup>): Map<string, SiteYear[]> {
  // Months held as bits of a mask per site-year: thousands of sites are summed here.
  const held = new Map<SiteYear, number>();
  const bySite = new Map<string, Map<number, SiteYear>>();
  for (const row of rows) {
    const factor = KWH_PER_UNIT[row.unit.toLowerCase()];
    if (!ENERGY_UTILITIES.has(row.utilityType) || factor === undefined) continue;
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
  const out = new Map<string, SiteYear[]>();
  for (const [assetId, years] of bySite)
    out.set(
      assetId,
      [...years.values()].sort((a, b) => a.year - b.year),
    );
  return out;
}

/**
 * Every live site's fields and energy years from the first year benchmarks judge, kept whole for the
 * company (analytics-kept-site-years-repository): a table of thousands of sites reads a few items rather
 * than one per site and one per site-year. A copy counts only while the change marks it was made under
 * stand (every write of a site's fields or a site's year moves them after it) and for an hour at most, so
 * a write cut off before its mark moved is seen within the hour.
 */
const KEPT_FROM_YEAR = PATHWAY_FIRST_YEAR;
const KEPT_LAYOUT = 1;
const KEPT_FOR_MS = 3_600_000;

/** Year, energy (kWh), emissions (kg), electricity (kWh), electricity's emissions (kg), months held. */
type KeptYear = [number, number, number, number, number, number];
interface KeptSites {
  /** The last year the copy holds. */
  to: number;
  sites: [StoredItem, KeptYear[]][];
}

const keptYear = (y: SiteYear): KeptYear => [
  y.year,
  y.energyKwh,
  y.emissionsKg,
  y.electricityKwh,
  y.electricityKg,
  y.months,
];
const siteYearOfKept = ([year, energyKwh, emissionsKg, electricityKwh, electricityKg, months]: KeptYear) => ({
  year,
  energyKwh,
  emissionsKg,
  electricityKwh,
  electricityKg,
  months,
});

/** A site's fields as the copy keeps them: those the tables read, its address by its country alone. */
function keptFields(site: StoredItem): StoredItem {
  const out: StoredItem = { _id: site._id };
  for (const f of SITE_FIELDS) if (f !== 'address' && site[f] !== undefined) out[f] = site[f];
  if (site.address && typeof site.address === 'object') {
    const country = (site.address as Record<string, unknown>).country;
    out.address = typeof country === 'string' ? { country } : {};
  }
  return out;
}

const sameMarks = (a: ChangeMarks, b: ChangeMarks) => a.sites === b.sites && a.siteYears === b.siteYears;

/** Makes the copy from the sites and their whole years, read strongly: reads after the marks were read. */
async function buildKeptSites(companyId: string, to: number): Promise<KeptSites> {
  await ensureSiteYears(companyId);
  const [items, rows] = await Promise.all([
    projectAll(scopeCollectionPk(companyId, 'assets'), [...SITE_FIELDS], { consistent: true }),
    Promise.all(
      yearsBetween(KEPT_FROM_YEAR, to).map((year) =>
        listWholeSiteYears(companyId, year, year, { consistent: true }),
      ),
    ),
  ]);
  const bySite = sumSiteYears(rows.flat());
  return {
    to,
    sites: items
      .filter((s) => s.deleted !== true)
      .map((s) => [keptFields(s), (bySite.get(s._id) ?? []).map(keptYear)]),
  };
}

/** The company's kept copy when it holds the years to `to`, made afresh (and kept) when stale or missing. */
async function keptSites(companyId: string, to: number, now = Date.now()): Promise<KeptSites | undefined> {
  const thisYear = new Date(now).getUTCFullYear();
  if (to > thisYear) return undefined;
  const [marks, kept] = await Promise.all([
    readChangeMarks(companyId),
    readKeptSiteYears<KeptSites>(companyId),
  ]);
  if (
    kept &&
    kept.layout === KEPT_LAYOUT &&
    kept.payload.to >= to &&
    sameMarks(kept.marks, marks) &&
    kept.builtAt <= now &&
    now - kept.builtAt < KEPT_FOR_MS
  )
    return kept.payload;
  // Made under the marks read before any of its reads: a write it missed has moved them since.
  const payload = await buildKeptSites(companyId, thisYear);
  await keepSiteYears(companyId, { marks, layout: KEPT_LAYOUT, builtAt: now, payload });
  return payload;
}

/**
 * Every site a caller may read (narrowed to a portfolio or an entity when asked), with its energy and
 * emissions by calendar year from its monthly roll-ups. Only whole sites count: a meter granted on a
 * site the caller may not read does not make that site benchmarkable. From the company's kept copy when
 * the years asked for are in it; its sites carry only the fields tables of sites read.
 */
export async function siteYearFigures(
  caller: Caller,
  ask: { assetGroupId?: string; entityId?: string; assetId?: string },
  years: { from: number; to: number },
): Promise<{ restricted: boolean; sites: SiteYears[] }> {
  // The sites' ids are enough here (they are read whole below), so the scope reads no site list itself.
  const scope = await resolveScope(caller, ask);
  const wanted =
    scope.kind === 'company' && !scope.restricted ? undefined : new Set(scope.sites.map((s) => s._id));
  const kept = years.from >= KEPT_FROM_YEAR ? await keptSites(caller.companyId, years.to) : undefined;
  if (kept) {
    const sites: SiteYears[] = [];
    for (const [site, keptYears] of kept.sites) {
      if (wanted && !wanted.has(site._id)) continue;
      const inRange: SiteYear[] = [];
      for (const y of keptYears) if (y[0] >= years.from && y[0] <= years.to) inRange.push(siteYearOfKept(y));
      sites.push({ site, years: inRange });
    }
    return { restricted: scope.restricted, sites };
  }
  const pk = scopeCollectionPk(caller.companyId, 'assets');
  const readSites = async () =>
    wanted === undefined
      ? (await projectAll(pk, [...SITE_FIELDS])).filter((s) => s.deleted !== true)
      : [...(await getItems(pk, [...wanted])).values()].filter((s) => s.deleted !== true);
  const [items, rows] = await Promise.all([
    readSites(),
    siteYearRows(caller.companyId, years.from, years.to),
  ]);
  const bySite = sumSiteYears(rows);
  return {
    restricted: scope.restricted,
    sites: items.map((site): SiteYears => ({ site, years: bySite.get(site._id) ?? [] })),
  };
}
