import { useEffect, useState } from 'react';
import useSWR from 'swr';
import type { AssetGroupReport, FloorAreaTotal } from '../../../shared/schemas/register.ts';
import type { AreaUnitSystem } from '../../lib/format.ts';

export interface AssetGroup {
  _id: string;
  name: string;
  description?: string;
  assetIds: string[];
}

export interface GroupAsset {
  _id: string;
  siteName: string;
  assetType?: string;
  status?: string;
  address?: { streetAddress?: string; locality?: string; postCode?: string };
  floorAreaM2: number | null;
}

export interface AssetChoice {
  _id: string;
  siteName: string;
  addressString?: string;
  inGroup: boolean;
}

interface ListAnswer<T> {
  data: T[];
  total: number;
}

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
  useSWR<ListAnswer<{ _id: string; siteName: string; address?: { locality?: string } }>>(
    portfolioKeys.allAssets,
  );

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
