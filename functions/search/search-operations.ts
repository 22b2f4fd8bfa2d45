import type * as z from 'zod';
import { canSearch } from '../../shared/access/route-access.ts';
import { searchQuerySchema } from '../../shared/schemas/register.ts';
import type { SearchAnswer } from '../../shared/schemas/responses/search.ts';
import { forbidden } from '../core/lib/errors.ts';
import type { AnyOpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { searchPortfolio } from './search-service.ts';

/*
 * The search calls, apart from the search itself: other areas' functions use the search, and a module's
 * operations are kept in every bundle that imports the module.
 */

type SearchInput = z.output<typeof searchQuerySchema>;

function searchInput(ctx: Pick<AnyOpContext, 'caller'> & { query: SearchInput }): SearchInput {
  if (!canSearch(ctx.caller)) throw forbidden();
  return ctx.query;
}

/** GET /global-search/search?query= (01 §2.3, 02 §7): the header's grouped search. */
const globalSearch = operation(
  { query: searchQuerySchema },
  async (ctx): Promise<OpResult> => ({
    body: { results: await searchPortfolio(ctx.caller, searchInput(ctx)) } satisfies SearchAnswer,
  }),
);

/** GET /util/search?query=&type=: the same search as a list, for pickers that look up one kind of item. */
const utilSearch = operation({ query: searchQuerySchema }, async (ctx): Promise<OpResult> => {
  const results = await searchPortfolio(ctx.caller, searchInput(ctx));
  return { body: { data: results, total: results.length } };
});

export const SEARCH_OPERATIONS: Operations = {
  'search.global': globalSearch,
  'search.util': utilSearch,
};
