import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../web/lib/api-client.ts';
import {
  createSearch,
  fetchSearch,
  groupResults,
  isActiveAccount,
  isSubMeter,
  type SearchResult,
  type SearchState,
  searchLink,
  searchTerm,
} from '../../web/lib/search.ts';

const COMPANY = { _id: 'co1', name: 'Demo Estates' };

const RESULTS: SearchResult[] = [
  {
    searchType: 'asset',
    sourceId: 'a1',
    company: COMPANY,
    siteName: 'Hardman Court',
    addressString: '1 Hardman St, Manchester',
  },
  {
    searchType: 'entity',
    sourceId: 'e1',
    company: COMPANY,
    legalName: 'Demo Estates Retail Ltd',
    parentEntity: { _id: 'e0', legalName: 'Demo Estates Group plc' },
  },
  {
    searchType: 'account',
    sourceId: 'c1',
    company: COMPANY,
    name: 'Hardman Court Electricity',
    assetId: 'a1',
    status: 'active',
  },
  {
    searchType: 'account',
    sourceId: 'c2',
    company: COMPANY,
    name: 'Hardman Court Sub',
    assetId: 'a1',
    status: 'inactive',
    parentAccountId: 'c1',
  },
];

/** The real API client over a fake network: records the addresses it is asked for. */
function searchApi(answer: unknown = { results: RESULTS }) {
  const urls: string[] = [];
  const api = createApiClient({
    baseUrl: 'http://localhost:3000/api',
    getToken: async () => 'tok',
    onUnauthorized: () => undefined,
    fetch: (async (input: RequestInfo | URL) => {
      urls.push(String(input));
      return new Response(JSON.stringify(answer), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch,
  });
  return { api, urls };
}

describe('the search rule', () => {
  it('needs at least 3 characters, spaces aside', () => {
    expect(searchTerm('ha')).toBeNull();
    expect(searchTerm('  ha  ')).toBeNull();
    expect(searchTerm(' har ')).toBe('har');
  });
});

describe('the search panel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(answer?: unknown) {
    const { api, urls } = searchApi(answer);
    const states: SearchState[] = [];
    const search = createSearch({
      run: (q, signal) => fetchSearch(api, q, signal),
      onChange: (s) => states.push(s),
    });
    return { search, urls, states, last: () => states.at(-1) };
  }

  it('calls the API only once typing pauses for 500 ms, with the whole text', async () => {
    const { search, urls, last } = setup();
    for (const text of ['h', 'ha', 'har', 'hard', 'hardm']) {
      search.input(text);
      await vi.advanceTimersByTimeAsync(200);
    }
    expect(urls).toEqual([]);
    await vi.advanceTimersByTimeAsync(299);
    expect(urls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(urls).toEqual(['http://localhost:3000/api/global-search/search?query=hardm']);
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ status: 'done', query: 'hardm' });
    expect(last()?.status === 'done' && last()).toMatchObject({ results: RESULTS });
  });

  it('never calls the API for fewer than 3 characters', async () => {
    const { search, urls, states } = setup();
    search.input('h');
    search.input('ha');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(urls).toEqual([]);
    expect(states.every((s) => s.status === 'idle')).toBe(true);
  });

  it('forgets a pending search when the text becomes too short again', async () => {
    const { search, urls, last } = setup();
    search.input('hard');
    await vi.advanceTimersByTimeAsync(400);
    search.input('ha');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(urls).toEqual([]);
    expect(last()).toEqual({ status: 'idle' });
  });

  it('encodes the text and keeps answers that are not search results out', async () => {
    const { search, urls, last } = setup({ results: [...RESULTS, { nonsense: true }] });
    search.input('5 & 6 Hardman');
    await vi.advanceTimersByTimeAsync(500);
    expect(urls[0]).toBe('http://localhost:3000/api/global-search/search?query=5+%26+6+Hardman');
    expect(last()?.status === 'done' ? last() : undefined).toMatchObject({ results: RESULTS });
  });

  it('never lets an older answer replace a newer one', async () => {
    let release: (value: SearchResult[]) => void = () => undefined;
    const states: SearchState[] = [];
    const search = createSearch({
      run: (query) =>
        query === 'old'
          ? new Promise<SearchResult[]>((resolve) => {
              release = resolve;
            })
          : Promise.resolve([]),
      onChange: (s) => states.push(s),
    });
    search.input('old');
    await vi.advanceTimersByTimeAsync(500);
    search.input('newer');
    await vi.advanceTimersByTimeAsync(500);
    release(RESULTS);
    await vi.advanceTimersByTimeAsync(0);
    expect(states.at(-1)).toEqual({ status: 'done', query: 'newer', results: [] });
  });

  it('reports a failed search', async () => {
    const onChange = vi.fn();
    const failing = createSearch({ run: () => Promise.reject(new Error('down')), onChange });
    failing.input('hard');
    await vi.advanceTimersByTimeAsync(500);
    expect(onChange).toHaveBeenLastCalledWith({ status: 'error', query: 'hard', error: new Error('down') });
  });
});

describe('search results', () => {
  it('are grouped as Entities, Assets and Accounts', () => {
    const groups = groupResults(RESULTS);
    expect(groups.entities.map((r) => r.sourceId)).toEqual(['e1']);
    expect(groups.assets.map((r) => r.sourceId)).toEqual(['a1']);
    expect(groups.accounts.map((r) => r.sourceId)).toEqual(['c1', 'c2']);
  });

  it('link to the entity view, the asset overview and the account overview under its asset', () => {
    expect(RESULTS.map(searchLink)).toEqual([
      '/assets/a1/overview',
      '/entities/e1',
      '/assets/a1/accounts/c1/overview',
      '/assets/a1/accounts/c2/overview',
    ]);
    expect(searchLink({ searchType: 'account', sourceId: 'c9', company: COMPANY })).toBe('/accounts/c9');
  });

  it('mark accounts active or inactive, and sub-meters where there is a parent account', () => {
    expect(RESULTS.slice(2).map((r) => [isActiveAccount(r), isSubMeter(r)])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(
      isActiveAccount({ searchType: 'account', sourceId: 'x', company: COMPANY, status: 'Active' }),
    ).toBe(true);
    expect(
      isSubMeter({ searchType: 'account', sourceId: 'x', company: COMPANY, parentAccountId: null }),
    ).toBe(false);
  });
});
