import type { WorkedOutSites } from '../core/access/item-access-service.ts';
import {
  type ChangeMarks,
  changedSince,
  readChangeMarks,
  restartJournal,
  settledFor,
} from '../core/data/change-marks.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { keepSiteListCopy, readSiteListCopy } from './asset-list-copy-repository.ts';
import { readSitesAsWritten } from './asset-repository.ts';

/**
 * Sites kept in the process for granted callers' list pages, per company, and the company's count of
 * live sites for everyone's.
 *
 * Kept sites are vouched for in two ways. The company's site list mark, read consistently with the access
 * version on every call, moves after every write to the company's sites: while it stands (for a minute
 * at most), what is kept is shown as it is; when it moved by one and names the site written, that site
 * is read again. Past that (two writes or more between calls, a write of many sites, a minute gone), the
 * change marks are read (change-marks.ts): the `siteList` mark moves before and after every site write and
 * its journal names the sites written, so only those are read again, and the minute starts afresh.
 * A writer that dies between its write and its moves is caught there: its first move named its sites.
 * What a process keeps under a `siteList` mark is also kept in the table (asset-list-copy-repository.ts),
 * so a fresh process starts from it, checked against the journal the same way, instead of reading the
 * page's sites one by one.
 *
 * Sites are read consistently to be kept: an eventually consistent read just after a write could return
 * the site as it was, which the marks would then vouch for.
 */
const KEEP_MS = 60_000;
/** Sites the journal can vouch for are dropped after this long without a call, to make room for others. */
const KEEP_JOURNALED_MS = 15 * 60_000;
/**
 * Sites kept through the journal are read afresh this long after the first of them was: a safety net
 * against a write the journal was never told of (a writer of an older release, say), as for site tables.
 */
const REFRESH_MS = 60 * 60_000;
const MAX_COMPANIES = 50;
/** Over every company: a site is a kilobyte or two, so the process keeps at most about 10 MB of them. */
const MAX_SITES = 5_000;

interface Kept {
  /** The site list mark the kept sites stand for, and when they were last vouched for. */
  mark: number;
  since: number;
  /** When the oldest kept site was read. */
  born: number;
  sites: Map<string, StoredItem>;
  /**
   * The `siteList` change mark, read with no site write under way before any kept site was read: its
   * journal, while it reaches back that far, names every site written since. Absent: nothing vouches so.
   */
  changes?: number;
  /** Whether it holds what the copy kept in the table does not (kept again after the page's reads). */
  unsaved?: boolean;
}

const kept = new Map<string, Kept>();

export interface SiteListMark {
  mark: number;
  lastSite?: string;
}

/** Makes `entry` the company's, and what has outlived its time, or the oldest company, makes room. */
function keep(companyId: string, entry: Kept): void {
  kept.delete(companyId);
  kept.set(companyId, entry);
  if (kept.size > MAX_COMPANIES) {
    const oldest = kept.keys().next().value;
    if (oldest !== undefined) kept.delete(oldest);
  }
}

/**
 * How many more sites the process may keep, once what can no longer be vouched for cheaply is dropped:
 * it makes room rather than wait for its company's next call.
 */
function roomLeft(now: number): number {
  let room = MAX_SITES;
  for (const [company, other] of kept) {
    if (now - other.since > (other.changes === undefined ? KEEP_MS : KEEP_JOURNALED_MS)) kept.delete(company);
    else room -= other.sites.size;
  }
  return room;
}

/**
 * Adds the sites a work-out of what a caller may read read (`worked`, after the `siteList` change mark
 * stood at `worked.changes`) to what is kept, brought to the `marks` this call read since (the entry is
 * vouched for at them): the sites the journal names since the work-out's mark are left out, as they may
 * have been written after it read them, and a journal that does not reach back so far leaves them all out.
 * Sites already kept stay as they are.
 */
function addWorkedOut(entry: Kept, worked: WorkedOutSites, marks: ChangeMarks, now: number) {
  // The journal names what was written since it started, which may be long before the work-out: with the
  // mark where the work-out found it and no write under way, nothing was written since.
  const still = (marks.marks.siteList ?? 0) === worked.changes && settledFor(marks, ['siteList'], now);
  const changed = still ? [] : changedSince(marks, 'siteList', worked.changes);
  if (!changed) return;
  // The hourly read afresh counts from the oldest site kept.
  entry.born = Math.min(entry.born, worked.readAt);
  const skip = new Set(changed);
  let room = roomLeft(now);
  for (const site of worked.sites) {
    if (room <= 0) break;
    if (skip.has(site._id) || entry.sites.has(site._id)) continue;
    entry.sites.set(site._id, site);
    entry.unsaved = true;
    room--;
  }
}

/**
 * What is kept for a company, brought to the site list mark `at` this call read: as it is, without the
 * site one write named, or without the sites the `siteList` journal names; else empty. Undefined when a
 * call that read a newer mark keeps its own: this one neither uses nor replaces it. Sites a work-out read
 * are added (`addWorkedOut`), after reading the marks.
 */
async function keptAt(
  companyId: string,
  at: SiteListMark,
  now: number,
  worked?: WorkedOutSites,
): Promise<Kept | undefined> {
  const found = kept.get(companyId);
  if (found && at.mark < found.mark) return undefined;
  // Sites a work-out read are vouched for by the journal only: the marks are read for them.
  if (found && now - found.since <= KEEP_MS && !worked) {
    if (found.mark === at.mark) return found;
    if (found.mark === at.mark - 1 && at.lastSite !== undefined) {
      found.sites.delete(at.lastSite);
      found.mark = at.mark;
      return found;
    }
  }
  // Read before any site this call keeps, so a write it misses has moved the mark and named its site since.
  // A process that keeps nothing for the company starts from the copy another kept in the table.
  const [marks, copy] = await Promise.all([
    readChangeMarks(companyId),
    // A copy that cannot be read leaves the page to read its sites.
    found ? undefined : readSiteListCopy(companyId).catch(() => undefined),
  ]);
  // Another call of this process moved what is kept meanwhile: this one reads what it shows and keeps none.
  if (kept.get(companyId) !== found || (found && at.mark < found.mark)) return undefined;
  const prior: Kept | undefined =
    found ??
    (copy && { mark: at.mark, since: now, born: copy.born, sites: copy.sites, changes: copy.changes });
  const changed =
    prior?.changes === undefined || !(now - prior.born < REFRESH_MS)
      ? undefined
      : changedSince(marks, 'siteList', prior.changes);
  const entry: Kept = prior && changed ? prior : { mark: at.mark, since: now, born: now, sites: new Map() };
  for (const id of changed ?? []) entry.sites.delete(id);
  entry.mark = at.mark;
  entry.since = now;
  if (entry !== found) keep(companyId, entry);
  if (worked) addWorkedOut(entry, worked, marks, now);
  // With a write under way, the older mark stays: the journal since then names the site being written,
  // and no reader restarts it while that writer may still land.
  if (settledFor(marks, ['siteList'], now)) {
    const value = marks.marks.siteList ?? 0;
    if (entry.changes !== value) entry.unsaved = true;
    entry.changes = value;
    // From here the journal names only what is written after the sites kept. A journal that reaches back
    // past a refill is left as it is (other processes' sites may stand on it), unless it names sites kept
    // from a work-out: every process starting from the copy would read those again, one by one.
    // Restarting only spares later calls reads: a list is not refused for a restart the table refused.
    const journal = marks.journals.siteList;
    if (!journal || (changed && changed.length > 0) || journal.keys.some((id) => entry.sites.has(id)))
      await restartJournal(companyId, marks, 'siteList', now).catch(() => undefined);
  }
  return entry;
}

/**
 * The live sites among `ids`, in their order, as of the site list mark read on this call. `worked`: the
 * sites the latest work-out of what the caller may read read, kept for the pages to come.
 */
export async function sitesInOrder(
  companyId: string,
  at: SiteListMark,
  ids: readonly string[],
  worked?: WorkedOutSites,
): Promise<StoredItem[]> {
  const entry = await keptAt(companyId, at, Date.now(), worked);
  const missing = entry ? ids.filter((id) => !entry.sites.has(id)) : ids;
  const read = missing.length > 0 ? await readSitesAsWritten(companyId, missing) : undefined;
  // Kept only while the entry is still the company's at the mark it was read under.
  if (read && entry && kept.get(companyId) === entry && entry.mark === at.mark) {
    let room = roomLeft(Date.now());
    for (const [id, site] of read) {
      if (room-- <= 0) break;
      entry.sites.set(id, site);
      entry.unsaved = true;
    }
  }
  if (entry?.unsaved && entry.changes !== undefined && kept.get(companyId) === entry) {
    entry.unsaved = false;
    // Its sites were all read after its mark: whichever copy a process reads, the journal vouches for it
    // the same way. Keeping it only spares other processes reads, so a refusal does not fail the list.
    await keepSiteListCopy(companyId, { changes: entry.changes, born: entry.born, sites: entry.sites }).catch(
      () => {
        entry.unsaved = true;
      },
    );
  }
  return ids
    .map((id) => read?.get(id) ?? entry?.sites.get(id))
    .filter((s): s is StoredItem => s !== undefined && s.deleted !== true);
}

/** The company's live site count, kept while the site list mark it was read under stands (a minute at most). */
const totals = new Map<string, { mark: number; since: number; total: number }>();

/** The company's live site count kept under the mark read on this call, if any. */
export function keptSiteTotal(companyId: string, at: SiteListMark | undefined): number | undefined {
  const found = at ? totals.get(companyId) : undefined;
  return found && found.mark === at?.mark && Date.now() - found.since <= KEEP_MS ? found.total : undefined;
}

/** Keeps the live site count a call read from the sites' counter (consistently) under its mark. */
export function keepSiteTotal(companyId: string, at: SiteListMark | undefined, total: number): void {
  if (!at) return;
  const found = totals.get(companyId);
  // A call that read an older mark replaces nothing, and one kept under this mark keeps its time.
  if (found && (found.mark > at.mark || (found.mark === at.mark && Date.now() - found.since <= KEEP_MS)))
    return;
  totals.delete(companyId);
  totals.set(companyId, { mark: at.mark, since: Date.now(), total });
  if (totals.size > MAX_COMPANIES) {
    const oldest = totals.keys().next().value;
    if (oldest !== undefined) totals.delete(oldest);
  }
}
