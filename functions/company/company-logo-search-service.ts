import { logoSearchQuery } from '../../shared/schemas/queries.ts';
import { type LogoSearchResult, UTIL_MESSAGES } from '../../shared/schemas/util-staff.ts';
import { searchBrands } from '../core/adapters/logo-search.ts';
import { UpstreamError } from '../core/adapters/public-data.ts';
import { upstreamFailed } from '../core/lib/errors.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';

/**
 * GET /util/company-logo-search?query=: logos of companies whose name matches, from the brand search
 * service, for a company's or a supplier's logo. Only web addresses are passed on as logos: the page
 * shows them as images, and another scheme (data:, javascript:) has no business there.
 */
const search = operation({ query: logoSearchQuery }, async (ctx): Promise<OpResult> => {
  const { query } = ctx.query;
  let brands: Awaited<ReturnType<typeof searchBrands>>;
  try {
    brands = await searchBrands(query);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    ctx.log.warn('Brand search failed', { error: err.message });
    throw upstreamFailed(UTIL_MESSAGES.logoSearchProblem);
  }
  const data: LogoSearchResult[] = brands.map((b) => ({
    name: b.name ?? b.domain,
    domain: b.domain,
    logoUrl: b.icon && /^https?:\/\//.test(b.icon) ? b.icon : null,
    claimed: b.claimed === true,
    brandId: b.brandId,
  }));
  return { body: { data, total: data.length } };
});

export const COMPANY_LOGO_SEARCH_OPERATIONS: Operations = { 'lookups.companyLogoSearch': search };
