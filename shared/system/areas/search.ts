import { searchQuerySchema } from '../../schemas/register.ts';
import type { AreaDecl } from '../area.ts';
import { ASSETS_RESOURCE } from '../resources/assets.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

/** Whoever may read portfolio items may search them; each sees only the items they may read. */
const SEARCHERS = ASSETS_RESOURCE.read;
const route = routesOf('util');

/** Global search (01 §2.3, 02 §7 Other) and its list form for pickers. */
const SEARCH_ROUTES: readonly HttpRoute[] = [
  route('GET', '/global-search/search', 'search.global', SEARCHERS),
  route('GET', '/util/search', 'search.util', SEARCHERS),
];

/** Global search. */
export const SEARCH_AREA: AreaDecl = {
  name: 'search',
  routes: withQueries([...SEARCH_ROUTES], {
    'GET /global-search/search': searchQuerySchema,
    'GET /util/search': searchQuerySchema,
  }),
};
