import { getItem } from '../core/data/item-repository.ts';
import { notFound } from '../core/lib/errors.ts';
import type { AnyOpContext, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { type AccountTypeCount, accountTypesOf } from './analytics-account-types.ts';
import { type EpcRatings, epcRatingsOf, sitesOf } from './analytics-epc.ts';
import { type AnalyticsQuery, windowOf } from './analytics-params.ts';
import { type RenewableFigures, renewableShares, type SiteRenewable } from './analytics-renewable.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import { meterScope, type ReadScope, resolveScope } from './analytics-scope.ts';

/** The analytics of a scope's sites rather than of its figures over time. */
export const SITE_ANALYTICS_IDS = ['epc-ratings', 'asset-contract-renewable'] as const;
export type SiteAnalyticsId = (typeof SITE_ANALYTICS_IDS)[number];

export interface SiteAnalyticsAnswer {
  id: SiteAnalyticsId;
  version: 'v1' | 'v2';
  scope: { type: ReadScope['kind']; id?: string; name?: string; restricted: boolean; sites: number };
  /** asset-contract-renewable: the window the shares are of. */
  window?: { startDate: string; endDate: string };
  /** epc-ratings */
  ratings?: EpcRatings['ratings'];
  /** epc-ratings: sites, rated sites and floor area; asset-contract-renewable: the scope's electricity. */
  totals: EpcRatings['totals'] | RenewableFigures;
  /** asset-contract-renewable: each site's share. */
  assets?: SiteRenewable[];
}

const today = () => new Date().toISOString().slice(0, 10);

/** epc-ratings and asset-contract-renewable over a scope, counting only the sites the caller may read. */
export async function siteAnswer(
  ctx: Pick<AnyOpContext, 'caller'>,
  id: SiteAnalyticsId,
  version: 'v1' | 'v2',
  query: AnalyticsQuery,
): Promise<SiteAnalyticsAnswer> {
  const window = windowOf(query, today());
  const scope = query.accountId
    ? await meterScope(ctx.caller, query.accountId)
    : await resolveScope(ctx.caller, {
        assetId: query.assetId,
        assetGroupId: query.assetGroupId,
        bySite: true,
      });
  const head = {
    id,
    version,
    scope: {
      type: scope.kind,
      ...(scope.id ? { id: scope.id } : {}),
      ...(scope.name ? { name: scope.name } : {}),
      restricted: scope.restricted,
      sites: scope.sites.length,
    },
  };
  if (id === 'epc-ratings') {
    const figures = epcRatingsOf(await sitesOf(ctx.caller, scope));
    return { ...head, ratings: figures.ratings, totals: figures.totals };
  }
  const shares = await renewableShares(ctx.caller, scope, window);
  return {
    ...head,
    window: { startDate: window.start, endDate: window.end },
    totals: shares.totals,
    assets: shares.assets,
  };
}

const idsOf = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * GET /asset-groups/{id}/account-types: the utilities metered across the portfolio's sites, in the usual
 * order with how many meters of each, as GET /assets/{id}/account-types answers for one site (the route
 * has checked the caller may read the portfolio, which means every site in it).
 */
export const groupAccountTypes = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const group = await getItem(scopeCollectionPk(ctx.caller.companyId, 'asset-groups'), ctx.params.id);
  if (!group || group.deleted === true) throw notFound();
  const types: AccountTypeCount[] = await accountTypesOf(ctx.caller, idsOf(group.assetIds));
  const counts = Object.fromEntries(types.map((t) => [t.type, t.meters]));
  return { body: { data: types.map((t) => t.type), counts, total: types.length } };
});
