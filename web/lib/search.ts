import { useCallback } from 'react';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from '../../shared/constants.ts';
import type { SearchResult } from '../../shared/schemas/register.ts';
import type { SearchAnswer } from '../../shared/schemas/responses/search.ts';
import type { ApiClient } from './api-client.ts';
import { useApi } from './app-context.tsx';

export type { SearchResult } from '../../shared/schemas/register.ts';

export interface GroupedResults {
  entities: SearchResult[];
  assets: SearchResult[];
  accounts: SearchResult[];
}

export const SEARCH_PATH = '/global-search/search';

/** The text to search for, or null while it is shorter than the minimum (01 §5). */
export function searchTerm(input: string, minChars = SEARCH_MIN_CHARS): string | null {
  const term = input.trim();
  return term.length >= minChars ? term : null;
}

export function groupResults(results: readonly SearchResult[]): GroupedResults {
  return {
    entities: results.filter((r) => r.searchType === 'entity'),
    assets: results.filter((r) => r.searchType === 'asset'),
    accounts: results.filter((r) => r.searchType === 'account'),
  };
}

/** Entity view, asset overview, or the account's overview under its asset (01 §2.3). */
export function searchLink(result: SearchResult): string {
  const id = encodeURIComponent(result.sourceId);
  if (result.searchType === 'entity') return `/entities/${id}`;
  if (result.searchType === 'asset') return `/assets/${id}/overview`;
  if (result.assetId) return `/assets/${encodeURIComponent(result.assetId)}/accounts/${id}/overview`;
  return `/accounts/${id}`;
}

export function isActiveAccount(result: SearchResult): boolean {
  return result.status?.toLowerCase() === 'active';
}

export function isSubMeter(result: SearchResult): boolean {
  return typeof result.parentAccountId === 'string' && result.parentAccountId !== '';
}

const isResult = (value: unknown): value is SearchResult => {
  const r = value as Partial<SearchResult> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.sourceId === 'string' &&
    (r.searchType === 'entity' || r.searchType === 'asset' || r.searchType === 'account')
  );
};

/** GET /global-search/search?query=…; the answer is `{ results: [...] }`. */
export async function fetchSearch(
  api: ApiClient,
  query: string,
  signal?: AbortSignal,
): Promise<SearchResult[]> {
  // Checked item by item all the same: a hit of a kind this page does not know is left out, not shown broken.
  const answer = await api.get<Partial<SearchAnswer> | undefined>(SEARCH_PATH, { query: { query }, signal });
  const results = Array.isArray(answer?.results) ? answer.results : [];
  return results.filter(isResult);
}

export type SearchState =
  | { status: 'idle' }
  | { status: 'waiting' | 'loading'; query: string }
  | { status: 'done'; query: string; results: SearchResult[] }
  | { status: 'error'; query: string; error: unknown };

export interface SearchOptions {
  run: (query: string, signal: AbortSignal) => Promise<SearchResult[]>;
  onChange: (state: SearchState) => void;
  debounceMs?: number;
  minChars?: number;
}

export interface Search {
  /** The input's new text: searches once typing has paused for the debounce time. */
  input(text: string): void;
  dispose(): void;
}

/**
 * Debounced search: nothing runs below the minimum length, a search starts once typing pauses for
 * 500 ms, and an answer for an older text never replaces a newer one (its request is aborted).
 */
export function createSearch(options: SearchOptions): Search {
  const debounceMs = options.debounceMs ?? SEARCH_DEBOUNCE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let current: string | null = null;

  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    inFlight?.abort();
    inFlight = undefined;
  };

  async function run(query: string) {
    const controller = new AbortController();
    inFlight = controller;
    options.onChange({ status: 'loading', query });
    try {
      const results = await options.run(query, controller.signal);
      if (!controller.signal.aborted) options.onChange({ status: 'done', query, results });
    } catch (error) {
      if (!controller.signal.aborted) options.onChange({ status: 'error', query, error });
    } finally {
      if (inFlight === controller) inFlight = undefined;
    }
  }

  return {
    input(text) {
      const term = searchTerm(text, options.minChars);
      if (term === current) return;
      current = term;
      cancel();
      if (term === null) {
        options.onChange({ status: 'idle' });
        return;
      }
      options.onChange({ status: 'waiting', query: term });
      timer = setTimeout(() => void run(term), debounceMs);
    },
    dispose: cancel,
  };
}

/** GET /global-search/search as a function of the query, bound to the app's client. */
export function useSearchCall(): (query: string, signal: AbortSignal) => ReturnType<typeof fetchSearch> {
  const api = useApi();
  return useCallback((query: string, signal: AbortSignal) => fetchSearch(api, query, signal), [api]);
}
