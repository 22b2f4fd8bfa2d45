import type { ListResult } from '../core/data/item-repository.ts';

/**
 * First pages of a company's whole list of sites in name order, kept in the process while the company's site
 * list mark stands, so that a call which sees the mark unchanged makes no read of the ordered index.
 *
 * The mark is read consistently on every call and moves after every write to the company's sites, so a
 * page kept under it never hides a write that moved it. The ordered index is read eventually consistent,
 * though: just after a write it may still hold the site as it was, and a page read then and kept would
 * carry the index's lag on for as long as the mark stands. A page is kept only when it was asked for
 * after the mark had stood for longer than the index takes to catch up, counted from when this process
 * first saw the mark (which is after the mark moved, and so after every write it covers). A writer that
 * dies between its write and the mark's move is outlived by nothing kept longer than KEEP_MS.
 */
export const INDEX_CATCH_UP_MS = 10_000;
export const KEEP_MS = 60_000;
const MAX_COMPANIES = 50;
/** Page sizes the app asks for; a bigger page is read each time rather than held. */
const MAX_KEPT_LIMIT = 100;
/** Over every company: a site is a kilobyte or two, so the process holds at most about 10 MB of pages. */
const MAX_SITES = 5_000;

interface Marked {
  mark: number;
  /** When this process first saw the mark. */
  seenAt: number;
  /** By page size: first pages only. */
  pages: Map<number, { page: ListResult; readAt: number }>;
}

const marked = new Map<string, Marked>();

function keptSites(): number {
  let n = 0;
  for (const entry of marked.values()) for (const { page } of entry.pages.values()) n += page.data.length;
  return n;
}

/** The company's entry at `mark`; none when a newer mark has been seen (this call read an older one). */
function markedAt(companyId: string, mark: number, now: number): Marked | undefined {
  const found = marked.get(companyId);
  if (found && found.mark === mark) return found;
  if (found && found.mark > mark) return undefined;
  const fresh: Marked = { mark, seenAt: now, pages: new Map() };
  marked.delete(companyId);
  marked.set(companyId, fresh);
  if (marked.size > MAX_COMPANIES) {
    const oldest = marked.keys().next().value;
    if (oldest !== undefined) marked.delete(oldest);
  }
  return fresh;
}

/**
 * A page of the company's live sites in name order, as `read` makes it, or as it was kept under `mark`
 * (the site list mark read on this call). Only first pages are kept; `read` answering undefined (no
 * ordered index) keeps nothing.
 */
export async function companySitePage(
  companyId: string,
  mark: number | undefined,
  page: { limit: number; skip: number },
  read: () => Promise<ListResult | undefined>,
): Promise<ListResult | undefined> {
  if (mark === undefined || page.skip !== 0 || page.limit > MAX_KEPT_LIMIT) return read();
  const asked = Date.now();
  const entry = markedAt(companyId, mark, asked);
  const hit = entry?.pages.get(page.limit);
  if (hit && asked - hit.readAt <= KEEP_MS) return hit.page;
  const found = await read();
  if (
    found &&
    entry &&
    marked.get(companyId) === entry &&
    asked - entry.seenAt > INDEX_CATCH_UP_MS &&
    keptSites() + found.data.length <= MAX_SITES
  )
    entry.pages.set(page.limit, { page: found, readAt: asked });
  return found;
}
