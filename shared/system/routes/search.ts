import { findResource } from '../resources.ts';
import type { HttpRoute } from '../routes.ts';

const assets = findResource('assets');
if (!assets) throw new Error('The assets resource is not declared');
/** Whoever may read portfolio items may search them; each sees only the items they may read. */
const SEARCHERS = assets.read;

/** Global search (01 §2.3, 02 §7 Other) and its list form for pickers. */
export const SEARCH_ROUTES: readonly HttpRoute[] = [
  { method: 'GET', path: '/global-search/search', fn: 'util', op: 'search.global', permission: SEARCHERS },
  { method: 'GET', path: '/util/search', fn: 'util', op: 'search.util', permission: SEARCHERS },
];
