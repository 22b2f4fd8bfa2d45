import { describe, expect, it } from 'vitest';
import { MAX_PAGE_LIMIT } from '../../shared/constants.ts';
import { readAllPages } from '../../web/lib/all-pages.ts';
import type { ApiClient, RequestOptions } from '../../web/lib/api-client.ts';

/** An API holding `count` items that answers at most a page of the cap, as the real one does. */
function pagedApi(count: number) {
  const asked: string[] = [];
  const items = Array.from({ length: count }, (_, i) => ({ _id: `id-${i}` }));
  const get = async <T>(path: string, options?: RequestOptions): Promise<T> => {
    const limit = Math.min(Number(options?.query?.limit ?? 100), MAX_PAGE_LIMIT);
    const skip = Number(options?.query?.skip ?? 0);
    asked.push(`${path} ${skip}`);
    return { data: items.slice(skip, skip + limit), total: count, limit, skip } as T;
  };
  const refuse = () => Promise.reject(new Error('not a read'));
  const api: ApiClient = { get, request: refuse, post: refuse, put: refuse, patch: refuse, del: refuse };
  return { api, asked };
}

describe('reading a whole list', () => {
  it('reads every item of a list longer than a page, a page at a time', async () => {
    const { api, asked } = pagedApi(2 * MAX_PAGE_LIMIT + 7);
    const all = await readAllPages<{ _id: string }>(api, '/assets');
    expect(all.total).toBe(2 * MAX_PAGE_LIMIT + 7);
    expect(new Set(all.data.map((i) => i._id)).size).toBe(2 * MAX_PAGE_LIMIT + 7);
    expect(asked).toEqual(['/assets 0', `/assets ${MAX_PAGE_LIMIT}`, `/assets ${2 * MAX_PAGE_LIMIT}`]);
  });

  it('asks once for a short list', async () => {
    const { api, asked } = pagedApi(3);
    expect((await readAllPages(api, '/entities')).data).toHaveLength(3);
    expect(asked).toHaveLength(1);
  });
});
