import { useEffect, useState } from 'react';
import useSWR from 'swr';
import type { AssetGroupReport, FloorAreaTotal } from '../../../shared/schemas/register.ts';
import type { AssetView } from '../../../shared/schemas/responses/assets.ts';
import type { ListPage as ListAnswer } from '../../../shared/schemas/responses/common.ts';
import type { AssetChoice, AssetGroup, GroupAsset } from '../../../shared/schemas/responses/portfolios.ts';
import { useEndpoint } from '../../lib/endpoint.ts';
import type { AreaUnitSystem } from '../../lib/format.ts';

export type {
  AssetChoice,
  AssetGroup,
  GroupAsset,
} from '../../../shared/schemas/responses/portfolios.ts';

/** One SWR key per call of the portfolio pages; changes revalidate keys that name asset groups. */
export const portfolioKeys = {
  mine: '/users/me/asset-groups?limit=1000',
  group: (id: string) => `/asset-groups/${id}`,
  assets: (id: string) => `/asset-groups/${id}/assets?limit=1000`,
  floorArea: (id: string) => `/asset-groups/${id}/floor-area`,
  reportData: (id: string) => `/asset-groups/${id}/report-data`,
  searchAssets: (id: string, query: string) =>
    `/asset-groups/${id}/search-assets?query=${encodeURIComponent(query)}&limit=50`,
  allAssets: '/assets?limit=1000',
} as const;

export const isPortfolioKey = (key: unknown) =>
  typeof key === 'string' && (key.startsWith('/asset-groups') || key.startsWith('/users/me/asset-groups'));

export const useMyGroups = () => useSWR<ListAnswer<AssetGroup>>(portfolioKeys.mine);
export const useGroup = (id: string | undefined) => useSWR<AssetGroup>(id ? portfolioKeys.group(id) : null);
export const useGroupAssets = (id: string) => useSWR<ListAnswer<GroupAsset>>(portfolioKeys.assets(id));
export const useFloorArea = (id: string) => useSWR<FloorAreaTotal>(portfolioKeys.floorArea(id));
export const useReportData = (id: string) => useSWR<AssetGroupReport>(portfolioKeys.reportData(id));
export const useAssetChoices = (id: string, query: string) =>
  useSWR<ListAnswer<AssetChoice>>(query.length >= 3 ? portfolioKeys.searchAssets(id, query) : null, {
    keepPreviousData: true,
  });
export const useAllAssets = () =>
  useSWR<ListAnswer<Pick<AssetView, '_id' | 'siteName' | 'address'>>>(portfolioKeys.allAssets);

const AREA_KEY = 'voltfolio.areaUnit';

/** Whether floor areas show in m² or ft²; the choice is kept in the browser. */
export function useAreaUnit(): [AreaUnitSystem, (next: AreaUnitSystem) => void] {
  const [unit, setUnit] = useState<AreaUnitSystem>(() =>
    typeof localStorage !== 'undefined' && localStorage.getItem(AREA_KEY) === 'imperial'
      ? 'imperial'
      : 'metric',
  );
  useEffect(() => {
    localStorage.setItem(AREA_KEY, unit);
  }, [unit]);
  return [unit, setUnit];
}

const PORTFOLIO_READS = [(key: string) => isPortfolioKey(key)];
interface GroupBody {
  name: string;
  description?: string;
  assetIds: string[];
}

/** POST /asset-groups */
export const useCreateGroup = () =>
  useEndpoint(
    (api, body: GroupBody) => api.post<AssetGroup>('/asset-groups', body),
    () => PORTFOLIO_READS,
  );

/** PATCH /asset-groups/{id} */
export const useUpdateGroup = () =>
  useEndpoint(
    (api, id: string, body: GroupBody) => api.patch<AssetGroup>(`/asset-groups/${id}`, body),
    () => PORTFOLIO_READS,
  );

/** DELETE /asset-groups/{id}: the sites are kept. */
export const useDeleteGroup = () =>
  useEndpoint(
    (api, id: string) => api.del(`/asset-groups/${id}`),
    () => PORTFOLIO_READS,
  );

/** PUT /asset-groups/{id}/assets/{ids} */
export const useAddGroupAssets = () =>
  useEndpoint(
    (api, id: string, assetIds: string[]) => api.put(`/asset-groups/${id}/assets/${assetIds.join(',')}`),
    () => PORTFOLIO_READS,
  );

/** DELETE /asset-groups/{id}/asset/{assetId} */
export const useRemoveGroupAsset = () =>
  useEndpoint(
    (api, id: string, assetId: string) => api.del(`/asset-groups/${id}/asset/${assetId}`),
    () => PORTFOLIO_READS,
  );

/**
 * GET /asset-groups/{id}, then one PATCH with the sites that stay, so the removal is all or nothing and a
 * site someone added meanwhile stays; `gone` are ids to drop as well (sites the table never showed).
 */
export const useRemoveGroupAssets = () =>
  useEndpoint(
    async (api, id: string, drop: ReadonlySet<string>, gone: ReadonlySet<string>) => {
      const fresh = await api.get<AssetGroup>(`/asset-groups/${id}`);
      const assetIds = fresh.assetIds.filter((a) => !drop.has(a) && !gone.has(a));
      return api.patch(`/asset-groups/${id}`, { assetIds });
    },
    () => PORTFOLIO_READS,
  );
