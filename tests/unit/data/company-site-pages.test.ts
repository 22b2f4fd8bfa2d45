import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { companySitePage, INDEX_CATCH_UP_MS, KEEP_MS } from '../../../functions/assets/company-site-pages.ts';
import type { ListResult } from '../../../functions/core/data/item-repository.ts';

let now = 1_000_000;
let company = 0;
let id: string;

beforeEach(() => {
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  // A company of its own per test: what one test keeps is not another's.
  id = `co-${++company}`;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The index as it answers now: a page naming `name`, and how often it was read. */
function index(name: string) {
  const reads = { count: 0, name };
  const read = async (): Promise<ListResult> => {
    reads.count++;
    return { data: [{ _id: 's1', siteName: reads.name }], total: 1 };
  };
  return { reads, read };
}

const first = { limit: 20, skip: 0 };
const names = (page: ListResult | undefined) => page?.data.map((s) => s.siteName);

describe('the first page of a whole company list', () => {
  it('is kept only once the mark has stood longer than the index takes to catch up', async () => {
    const { reads, read } = index('Old name');
    await companySitePage(id, 7, first, read);
    now += INDEX_CATCH_UP_MS - 1;
    reads.name = 'New name';
    expect(names(await companySitePage(id, 7, first, read))).toEqual(['New name']);
    expect(reads.count).toBe(2);

    now += 2;
    await companySitePage(id, 7, first, read);
    reads.name = 'Not read';
    expect(names(await companySitePage(id, 7, first, read))).toEqual(['New name']);
    expect(reads.count).toBe(3);
  });

  it('is read again when the mark moves, and after it has been kept for its time', async () => {
    const { reads, read } = index('Before');
    await companySitePage(id, 1, first, read);
    now += INDEX_CATCH_UP_MS + 1;
    await companySitePage(id, 1, first, read);
    reads.name = 'After';
    expect(names(await companySitePage(id, 2, first, read))).toEqual(['After']);
    expect(reads.count).toBe(3);

    now += INDEX_CATCH_UP_MS + 1;
    await companySitePage(id, 2, first, read);
    now += KEEP_MS;
    expect(names(await companySitePage(id, 2, first, read))).toEqual(['After']);
    expect(reads.count).toBe(4);
    reads.name = 'Later';
    now += 1;
    expect(names(await companySitePage(id, 2, first, read))).toEqual(['Later']);
    expect(reads.count).toBe(5);
  });

  it('is neither used nor replaced by a call that read an older mark', async () => {
    const { reads, read } = index('Current');
    await companySitePage(id, 5, first, read);
    now += INDEX_CATCH_UP_MS + 1;
    await companySitePage(id, 5, first, read);
    reads.name = 'As of an older mark';
    expect(names(await companySitePage(id, 4, first, read))).toEqual(['As of an older mark']);
    expect(names(await companySitePage(id, 5, first, read))).toEqual(['Current']);
    expect(reads.count).toBe(3);
  });

  it('keeps no deeper page, no big page, and nothing without a mark', async () => {
    const { reads, read } = index('Any');
    await companySitePage(id, 3, first, read);
    now += INDEX_CATCH_UP_MS + 1;
    for (const page of [
      { limit: 20, skip: 20 },
      { limit: 500, skip: 0 },
    ]) {
      await companySitePage(id, 3, page, read);
      await companySitePage(id, 3, page, read);
    }
    await companySitePage(id, undefined, first, read);
    await companySitePage(id, undefined, first, read);
    expect(reads.count).toBe(7);
  });
});
