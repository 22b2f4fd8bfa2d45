import type { Caller } from '../../shared/access/caller.ts';
import { PATHWAY_FIRST_YEAR } from '../../shared/benchmarks/crrem.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  fillWholeSiteYears,
  getWholeSiteYears,
  listSiteYears,
  listWholeSiteYears,
  markSiteYearsBuilt,
  rebuildSiteYears,
  type SiteYearMonths,
  type SiteYearRollup,
  siteYearsState,
} from '../accounts/index.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import {
  type ChangeMark,
  type ChangeMarks,
  changedSince,
  dropDeadWrites,
  marksOf,
  readChangeMarks,
  restartJournal,
  SITE_TABLE_FIELDS,
  settledFor,
  yearMark,
} from '../core/data/change-marks.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { objectOf } from '../core/lib/stored-values.ts';
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
export async function ensureSiteYears(companyId: string): Promise<void> {
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

export const yearsBetween = (from: number, to: number) =>
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
 * Every live site's fields and energy years from the first year benchmarks judge, kept for the company
 * in parts (analytics-kept-site-years-repository): the sites' fields, and each year's figures of every
 * site. A table of thousands of sites reads a few items rather than one per site and one per site-year.
 * A part counts only while the change marks it was made under stand: the sites' fields under `sites`,
 * a year under its own mark and the mark of all years, so a bill in one year makes only that year again.
 * A part made while a write of its marks was under way is not kept (the write may land after its reads).
 * After a write, a part is patched rather than made afresh when the mark's journal names the sites
 * written since it was kept: a bill reads its site again, not every site of its year. A part is made
 * afresh from every item at least hourly, in case a write ever missed its mark: by the analytics worker,
 * asked by a caller that finds it older than that, who is answered from it (patched) meanwhile. A
 * caller makes a part itself only when none is kept, or its marks moved without naming what changed.
 */
export const KEPT_FROM_YEAR = PATHWAY_FIRST_YEAR;
export const KEPT_LAYOUT = 2;
export const KEPT_FOR_MS = 3_600_000;
/** How long one request for a part to be made afresh stands before a caller asks again. */
const ASK_AGAIN_AFTER_MS = 10 * 60_000;
export const SITES_PART = 'sites';

/** Site, energy (kWh), emissions (kg), electricity (kWh), electricity's emissions (kg), months held. */
type KeptYear = [string, number, number, number, number, number];

const siteYearOfKept = (
  year: number,
  [, energyKwh, emissionsKg, electricityKwh, electricityKg, months]: KeptYear,
): SiteYear => ({
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
    const country = objectOf(site.address).country;
    out.address = typeof country === 'string' ? { country } : {};
  }
  return out;
}

/** The marks a part is made under: the sites' fields, or one year of the site years. */
export const marksOfPart = (part: string): ChangeMark[] =>
  part === SITES_PART ? ['sites'] : ['siteYears', yearMark(part)];

const sameMarks = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) =>
  Object.keys(b).every((name) => a[name] === b[name]);

/** The sites' fields, read strongly: after the marks were read. */
export async function buildSitesPart(companyId: string): Promise<StoredItem[]> {
  const items = await projectAll(scopeCollectionPk(companyId, 'assets'), [...SITE_FIELDS], {
    consistent: true,
  });
  return items.filter((s) => s.deleted !== true).map(keptFields);
}

/** One year's energy figures of every site, read strongly: after the marks were read. */
export async function buildYearPart(companyId: string, year: number): Promise<KeptYear[]> {
  return keptYearsOf(sumSiteYears(await listWholeSiteYears(companyId, year, year, { consistent: true })));
}

function keptYearsOf(bySite: Map<string, SiteYear[]>): KeptYear[] {
  const out: KeptYear[] = [];
  for (const [assetId, [y]] of bySite)
    if (y) out.push([assetId, y.energyKwh, y.emissionsKg, y.electricityKwh, y.electricityKg, y.months]);
  return out;
}

/** Sites' fields after some sites were written: those read again (live ones) in place of their old fields. */
async function patchSitesPart(
  companyId: string,
  kept: readonly StoredItem[],
  changed: readonly string[],
): Promise<StoredItem[]> {
  const fresh = await getItems(scopeCollectionPk(companyId, 'assets'), changed, { consistent: true });
  const gone = new Set(changed);
  const out = kept.filter((s) => !gone.has(s._id));
  for (const site of fresh.values()) if (site.deleted !== true) out.push(keptFields(site));
  // In the order the sites' partition is read in, as a part made afresh holds them.
  return out.sort((a, b) => byKey(a._id, b._id));
}

/** One year's figures after some sites' years were written: theirs read again in place of the old. */
async function patchYearPart(
  companyId: string,
  year: number,
  kept: readonly KeptYear[],
  changed: readonly string[],
): Promise<KeptYear[]> {
  const bySite = sumSiteYears(await getWholeSiteYears(companyId, year, changed));
  const gone = new Set(changed);
  const out = kept.filter((row) => !gone.has(row[0]));
  out.push(...keptYearsOf(bySite));
  return out.sort((a, b) => byKey(a[0], b[0]));
}

/** Ids in the order the table sorts keys (their UTF-8 bytes; ids are ASCII). */
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One part of the company's copy: the kept one while its marks stand; else, when only its journaled mark
 * moved and the journal reaches back to the kept part, the kept one with the sites written since read
 * again; else made afresh. Kept when it may be, and the mark's journal restarted from there. A kept part
 * older than `KEPT_FOR_MS` still answers, and is named in `old` to be made afresh by the worker.
 */
async function keptPart<T>(
  companyId: string,
  part: string,
  marks: ChangeMarks,
  now: number,
  build: () => Promise<T>,
  patch: (kept: T, changed: readonly string[]) => Promise<T>,
  old: string[],
): Promise<T> {
  const names = marksOfPart(part);
  const journaled = names[names.length - 1] as ChangeMark;
  const wanted = marksOf(marks, names);
  const kept = await readKeptSiteYears<T>(companyId, part);
  const usable = kept && kept.layout === KEPT_LAYOUT && kept.builtAt <= now ? kept : undefined;
  if (usable && now - usable.builtAt >= KEPT_FOR_MS) old.push(part);
  if (usable && sameMarks(usable.marks, wanted)) return usable.payload;
  const changed =
    usable && names.every((n) => n === journaled || usable.marks[n] === wanted[n])
      ? changedSince(marks, journaled, usable.marks[journaled] ?? 0)
      : undefined;
  // Made (or patched) under the marks read before any of its reads: a write it missed has moved them
  // since. One under way may land after these reads and its writer die before moving them again: not
  // kept then. A patched part keeps the time its first reads were made, so it is still made afresh hourly.
  const payload = usable && changed ? await patch(usable.payload, changed) : await build();
  if (settledFor(marks, names, now)) {
    const builtAt = usable && changed ? usable.builtAt : now;
    const copy = { marks: wanted, layout: KEPT_LAYOUT, builtAt, payload };
    if (await keepSiteYears(companyId, part, copy, kept && { build: kept.build, parts: kept.parts }))
      await restartJournal(companyId, marks, journaled, now);
  }
  return payload;
}

/** When this process last asked for each company's copy to be made afresh. */
const askedAt = new Map<string, number>();

/**
 * Asks the analytics worker to make afresh the parts found older than `KEPT_FOR_MS`, at most once in
 * `ASK_AGAIN_AFTER_MS` from a process (the worker makes a part once, however often it is asked). Never
 * fails the call: the parts still answer, and the next call after that time asks again.
 */
async function askForFreshParts(companyId: string, parts: string[], now: number): Promise<void> {
  if (now - (askedAt.get(companyId) ?? 0) < ASK_AGAIN_AFTER_MS) return;
  askedAt.set(companyId, now);
  await sendToQueue('restatements', [{ companyId, keptSiteYears: parts }]).catch(() => undefined);
}

/** Every live site with its energy years, from the kept parts, when the years to `to` may be kept. */
async function keptSites(
  companyId: string,
  to: number,
  now = Date.now(),
): Promise<[StoredItem, SiteYear[]][] | undefined> {
  const thisYear = new Date(now).getUTCFullYear();
  if (to > thisYear) return undefined;
  const marks = await readChangeMarks(companyId);
  let ensured: Promise<void> | undefined;
  const old: string[] = [];
  const years = yearsBetween(KEPT_FROM_YEAR, thisYear);
  const [sites, yearParts] = await Promise.all([
    keptPart(
      companyId,
      SITES_PART,
      marks,
      now,
      () => buildSitesPart(companyId),
      (kept: StoredItem[], changed) => patchSitesPart(companyId, kept, changed),
      old,
    ),
    Promise.all(
      years.map((year) =>
        keptPart(
          companyId,
          String(year),
          marks,
          now,
          async () => {
            ensured ??= ensureSiteYears(companyId);
            await ensured;
            return buildYearPart(companyId, year);
          },
          (kept: KeptYear[], changed) => patchYearPart(companyId, year, kept, changed),
          old,
        ),
      ),
    ),
    dropDeadWrites(companyId, marks, now),
  ]);
  if (old.length > 0) await askForFreshParts(companyId, old, now);
  const bySite = new Map<string, SiteYear[]>();
  yearParts.forEach((rows, i) => {
    const year = years[i] as number;
    for (const row of rows) {
      let list = bySite.get(row[0]);
      if (!list) {
        list = [];
        bySite.set(row[0], list);
      }
      list.push(siteYearOfKept(year, row));
    }
  });
  return sites.map((site) => [site, bySite.get(site._id) ?? []]);
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
    for (const [site, keptYears] of kept) {
      if (wanted && !wanted.has(site._id)) continue;
      sites.push({ site, years: keptYears.filter((y) => y.year >= years.from && y.year <= years.to) });
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
