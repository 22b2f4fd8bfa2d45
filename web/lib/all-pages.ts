import useSWR from 'swr';
import { MAX_PAGE_LIMIT } from '../../shared/constants.ts';
import type { ListPage } from '../../shared/schemas/responses/common.ts';
import type { ApiClient } from './api-client.ts';
import { useApi } from './app-context.tsx';

type Page<T> = Pick<ListPage<T>, 'data' | 'total'>;

/**
 * Every item of a list, read a page of MAX_PAGE_LIMIT at a time: the API answers no more in one call
 * (an answer must stay under Lambda's 6 MB). Stops at the total, or at a short page if items went away.
 */
export async function readAllPages<T>(api: ApiClient, path: string): Promise<Page<T>> {
  const data: T[] = [];
  let total = 0;
  for (let skip = 0; ; skip += MAX_PAGE_LIMIT) {
    const page = await api.get<Page<T>>(path, { query: { limit: MAX_PAGE_LIMIT, skip } });
    data.push(...page.data);
    total = page.total;
    if (page.data.length < MAX_PAGE_LIMIT || data.length >= total) break;
  }
  return { data, total: Math.max(total, data.length) };
}

const WHOLE = '#all-pages';

/**
 * A list read whole (see `readAllPages`). Its cache key is the path marked as whole, so it never shares
 * an entry with a single page of the same path; revalidating keys that start with the path reaches it.
 */
export function useAllPages<T>(path: string | null) {
  const api = useApi();
  return useSWR<Page<T>>(path === null ? null : `${path}${WHOLE}`, (key: string) =>
    readAllPages<T>(api, key.slice(0, -WHOLE.length)),
  );
}
