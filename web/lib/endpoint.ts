import { useCallback, useRef } from 'react';
import { type ScopedMutator, useSWRConfig } from 'swr';
import type { ApiClient } from './api-client.ts';
import { useApi } from './app-context.tsx';

/**
 * A cached read a write makes stale: its exact key, every string key a test accepts, or a key with the
 * answer the write already gave for it (put in the cache, and read again unless `revalidate` is false).
 */
export type Stale =
  | string
  | ((key: string) => boolean)
  | { key: string; data: unknown; revalidate?: boolean };

/** Keys under a path prefix, e.g. every `/accounts…` read after an account changes. */
export const keysUnder =
  (prefix: string) =>
  (key: string): boolean =>
    key.startsWith(prefix);

async function revalidate(mutate: ScopedMutator, keys: readonly Stale[]): Promise<void> {
  await Promise.all(
    keys.map((key) => {
      if (typeof key === 'string') return mutate(key);
      if (typeof key === 'function') return mutate((k) => typeof k === 'string' && key(k));
      return mutate(key.key, key.data, { revalidate: key.revalidate ?? true });
    }),
  );
}

/**
 * One call of the API as a stable function: it runs `call`, then revalidates the reads `stale` names
 * for the same arguments, so the hook of an endpoint owns the keys it invalidates.
 */
export function useEndpoint<A extends unknown[], R>(
  call: (api: ApiClient, ...args: A) => Promise<R>,
  stale?: (result: NoInfer<R>, args: NoInfer<A>) => readonly Stale[],
): (...args: A) => Promise<R> {
  const api = useApi();
  const { mutate } = useSWRConfig();
  const latest = useRef({ call, stale });
  latest.current = { call, stale };
  return useCallback(
    async (...args: A) => {
      const result = await latest.current.call(api, ...args);
      const keys = latest.current.stale?.(result, args) ?? [];
      await revalidate(mutate, keys);
      return result;
    },
    [api, mutate],
  );
}

/** Revalidates cached reads without a call, for a write whose effect arrives later (a push, an upload). */
export function useRevalidate(): (...keys: readonly Stale[]) => Promise<void> {
  const { mutate } = useSWRConfig();
  return useCallback(async (...keys: readonly Stale[]) => revalidate(mutate, keys), [mutate]);
}
