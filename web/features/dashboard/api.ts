import useSWR from 'swr';
import type { ListPage } from '../../../shared/schemas/responses/common.ts';

/** Totals from the list calls with `limit=1`: the answer's `total` counts every item the user may see. */
export const COUNT_KEYS = {
  sites: '/assets?limit=1',
  meters: '/accounts?limit=1',
  entities: '/entities?limit=1',
} as const;

export type CountName = keyof typeof COUNT_KEYS;

export function useCount(name: CountName) {
  const { data, error, isLoading } = useSWR<ListPage<unknown>>(COUNT_KEYS[name]);
  return { total: data?.total, error: error as unknown, isLoading };
}
