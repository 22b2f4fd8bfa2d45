import type { StoredItem } from '../core/data/item-repository.ts';
import { readSitesAsWritten } from './asset-repository.ts';

/**
 * Sites kept in the process for granted callers' list pages, and the company's count of live sites for
 * everyone's, per company, while the company's site list mark stands. The mark is read consistently with the access version on every call and moves after every
 * write to the company's sites, so a page never shows a site as it was before a write that finished
 * before the call. When the mark moved by one and names the site written, only that site is read again.
 *
 * Sites are read consistently to be kept: an eventually consistent read just after a write could return
 * the site as it was, which the moved mark would then vouch for. A writer that dies between its write and
 * the mark's move is outlived by nothing kept longer than KEEP_MS.
 */
const KEEP_MS = 60_000;
const MAX_COMPANIES = 50;
/** Over every company: a site is a kilobyte or two, so the process keeps at most about 10 MB of them. */
const MAX_SITES = 5_000;

interface Kept {
  mark: number;
  since: number;
  sites: Map<string, StoredItem>;
  /** How many live sites the company has, as the sites' counter said under this mark. */
  total?: number;
}

const kept = new Map<string, Kept>();

export interface SiteListMark {
  mark: number;
  lastSite?: string;
}

/** What is kept for a company, brought to `at`: dropped, or patched when one named site moved the mark. */
function keptAt(companyId: string, at: SiteListMark, now: number): Kept | undefined {
  const found = kept.get(companyId);
  // A call that read an older mark than one already kept for neither uses nor replaces what is kept.
  if (found && at.mark < found.mark) return undefined;
  if (found && now - found.since <= KEEP_MS) {
    if (found.mark === at.mark) return found;
    if (found.mark === at.mark - 1 && at.lastSite !== undefined) {
      // That one write may have made its site live or not.
      found.sites.delete(at.lastSite);
      found.total = undefined;
      found.mark = at.mark;
      return found;
    }
  }
  const fresh: Kept = { mark: at.mark, since: now, sites: new Map() };
  kept.delete(companyId);
  kept.set(companyId, fresh);
  if (kept.size > MAX_COMPANIES) {
    const oldest = kept.keys().next().value;
    if (oldest !== undefined) kept.delete(oldest);
  }
  return fresh;
}

/** The live sites among `ids`, in their order, as of the site list mark read on this call. */
export async function sitesInOrder(
  companyId: string,
  at: SiteListMark,
  ids: readonly string[],
): Promise<StoredItem[]> {
  const entry = keptAt(companyId, at, Date.now());
  const missing = entry ? ids.filter((id) => !entry.sites.has(id)) : ids;
  const read = missing.length > 0 ? await readSitesAsWritten(companyId, missing) : undefined;
  // Kept only while the entry is still the company's at the mark it was read under.
  if (read && entry && kept.get(companyId) === entry && entry.mark === at.mark) {
    let room = MAX_SITES;
    const now = Date.now();
    for (const [company, other] of kept) {
      // What has outlived its time makes room rather than wait for its company's next call.
      if (now - other.since > KEEP_MS) kept.delete(company);
      else room -= other.sites.size;
    }
    for (const [id, site] of read) {
      if (room-- <= 0) break;
      entry.sites.set(id, site);
    }
  }
  return ids
    .map((id) => read?.get(id) ?? entry?.sites.get(id))
    .filter((s): s is StoredItem => s !== undefined && s.deleted !== true);
}

/** The company's live site count kept under the mark read on this call, if any. */
export function keptSiteTotal(companyId: string, at: SiteListMark | undefined): number | undefined {
  return at ? keptAt(companyId, at, Date.now())?.total : undefined;
}

/** Keeps the live site count a call read from the sites' counter (consistently) under its mark. */
export function keepSiteTotal(companyId: string, at: SiteListMark | undefined, total: number): void {
  const entry = at ? keptAt(companyId, at, Date.now()) : undefined;
  if (entry && entry.mark === at?.mark) entry.total = total;
}
