import useSWR from 'swr';
import type { NamedRef } from '../../../shared/schemas/register.ts';
import type { AnalyticsAnswerView as AnalyticsAnswer } from '../../../shared/schemas/responses/analytics.ts';
import type { AssetView } from '../../../shared/schemas/responses/assets.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type { Entity } from '../../../shared/schemas/responses/entities.ts';
import type { ApiClient } from '../../lib/api-client.ts';
import { useApi } from '../../lib/app-context.tsx';
import { queryString } from './insights-filters.ts';
import { createLatestRequests, isAbort } from './latest-request.ts';

/** An item of the portfolio, entity or site list a filter offers: named by its kind's name field. */
export type NamedOption = NamedRef &
  Partial<Pick<Entity, 'parentEntityId'>> &
  Partial<Pick<AssetView, 'entityId'>>;

/** One SWR key per call of the Insights pages. */
export const analyticsKeys = {
  analytics: (id: 'consumption' | 'asset-consumption', query: Record<string, string>) =>
    `/analytics/v2/${id}?${queryString(query)}`,
  site: (assetId: string, query: Record<string, string>) =>
    `/assets/${assetId}/analytics?${queryString(query)}`,
  /** Several sites' answers fetched as one; under /analytics, so word of changed figures makes it stale too. */
  siteBatch: (channel: string, sites: readonly { _id: string }[], query: Record<string, string>) =>
    `/analytics/sites?${queryString({ ...query, channel, sites: sites.map((s) => s._id).join(',') })}`,
  portfolios: '/users/me/asset-groups?limit=1000',
  entities: '/entities?limit=1000',
  sites: '/assets?limit=1000',
} as const;

/** Shared by every Insights page: a newer request on a channel aborts the older one still in flight. */
const latest = createLatestRequests();

/** Aborted requests were replaced by newer ones: asking again would only fetch a view no one shows. */
const retryUnlessAborted = (error: unknown) => !isAbort(error);

const OPTIONS = { keepPreviousData: true, shouldRetryOnError: retryUnlessAborted } as const;

/** Fetches a key on a channel, aborting the channel's earlier request. */
export const fetchLatest = (api: ApiClient, channel: string, key: string) =>
  latest(channel, (signal) => api.get<AnalyticsAnswer>(key, { signal }));

/**
 * GET /analytics/v2/{id}: the figures of a view. A request on the same channel (by default the analytics
 * id) aborts the one before it, so filters changed quickly leave one request on the wire.
 */
export function useAnalytics(
  id: 'consumption' | 'asset-consumption',
  query: Record<string, string> | null,
  channel: string = id,
) {
  const api = useApi();
  return useSWR<AnalyticsAnswer>(
    query ? analyticsKeys.analytics(id, query) : null,
    (key: string) => fetchLatest(api, channel, key),
    OPTIONS,
  );
}

export interface SiteAnswer {
  assetId: string;
  siteName: string;
  answer: AnalyticsAnswer;
}

/**
 * GET /assets/{id}/analytics for several sites at once: an entity's sites, or the sites a chart by site
 * shows. The batch is one request on its channel, aborted whole by the next.
 */
export function useSitesAnalytics(
  channel: string,
  sites: readonly { _id: string; siteName: string }[] | undefined,
  query: Record<string, string> | null,
) {
  const api = useApi();
  const key = sites && query ? analyticsKeys.siteBatch(channel, sites, query) : null;
  return useSWR<SiteAnswer[]>(
    key,
    () =>
      latest(channel, (signal) =>
        Promise.all(
          (sites ?? []).map(async (s) => ({
            assetId: s._id,
            siteName: s.siteName,
            answer: await api.get<AnalyticsAnswer>(analyticsKeys.site(s._id, query ?? {}), { signal }),
          })),
        ),
      ),
    OPTIONS,
  );
}

export const usePortfolioOptions = (ask: boolean) =>
  useSWR<ListAnswer<NamedOption>>(ask ? analyticsKeys.portfolios : null);
export const useEntityOptions = (ask: boolean) =>
  useSWR<ListAnswer<NamedOption>>(ask ? analyticsKeys.entities : null);
export const useSiteOptions = (ask: boolean) =>
  useSWR<ListAnswer<NamedOption>>(ask ? analyticsKeys.sites : null);
