import type { SearchResult } from '../register.ts';

/** GET /global-search/search: the header's search, every kind of hit in one list. */
export interface SearchAnswer {
  results: SearchResult[];
}
