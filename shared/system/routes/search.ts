import type { HttpRoute } from '../routes.ts';
import { declaredResource, routesOf } from './route-builder.ts';

/** Whoever may read portfolio items may search them; each sees only the items they may read. */
const SEARCHERS = declaredResource('assets').read;
const route = routesOf('util');

/** Global search (01 §2.3, 02 §7 Other) and its list form for pickers. */
export const SEARCH_ROUTES: readonly HttpRoute[] = [
  route('GET', '/global-search/search', 'search.global', SEARCHERS),
  route('GET', '/util/search', 'search.util', SEARCHERS),
];
