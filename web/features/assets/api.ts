import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { EpcCertificate } from '../../../shared/schemas/asset-public-data.ts';
import type { AssetStatus } from '../../../shared/schemas/asset-wizard.ts';

/** Answers of the register's calls, as the pages use them. */
export interface ListPage<T> {
  data: T[];
  total: number;
  limit?: number;
  skip?: number;
}

export interface AssetImageView {
  _id?: string;
  url?: string;
  thumbUrl?: string;
  enhancedUrl?: string;
  isPrimary?: boolean;
  width?: number;
  height?: number;
}

export interface AddressView {
  streetAddress?: string;
  locality?: string;
  region?: string;
  postCode?: string;
  country?: string;
}

export interface AssetView {
  _id: string;
  siteName: string;
  entityId: string;
  assetType?: string;
  status: AssetStatus;
  address?: AddressView;
  /** m², whatever unit it was entered in. */
  floorArea?: number;
  floorAreaUnit?: 'm2' | 'ft2';
  epcRating?: string;
  epc?: { certificateId: string; kind: string; rating: number; band: string; lodgementDate?: string };
  geocoordinates?: { lat: number; lng: number };
  images?: AssetImageView[];
  primaryImage?: AssetImageView;
  satelliteImages?: { url: string; zoom?: number; label?: string }[];
  deleted?: boolean;
}

export interface EntityOption {
  _id: string;
  legalName: string;
}

export interface DocumentView {
  _id: string;
  name: string;
  fileName: string;
  category?: string;
  description?: string;
  size?: number;
  createdAt: string;
}

export interface ProjectView {
  _id: string;
  name: string;
  assetId: string;
  description?: string;
  status: 'planned' | 'in-progress' | 'completed' | 'cancelled';
  startDate?: string;
  endDate?: string;
  cost?: number;
  tasks?: { _id: string; taskId: string; title: string; done: boolean; dueDate?: string }[];
  documents?: { _id: string; documentId: string; name: string; fileName: string; createdAt: string }[];
}

export interface RecommendationView {
  _id: string;
  title: string;
  description?: string;
  assetId?: string;
  category?: string;
  estimatedSaving?: number;
  estimatedCost?: number;
  priority: 'low' | 'medium' | 'high';
  status: string;
}

export type CertificateView = EpcCertificate & { register?: Record<string, unknown> };

export const assetKey = (id: string | undefined) => (id ? `/assets/${id}` : null);

export function useAsset(id: string | undefined) {
  return useSWR<AssetView>(assetKey(id));
}

/** While a picture is being processed the site is fetched again every 1.5 s, until the worker is done. */
export function useAssetWhile(id: string | undefined, waiting: boolean) {
  return useSWR<AssetView>(assetKey(id), { refreshInterval: waiting ? 1500 : 0 });
}

export function useEntityOptions() {
  return useSWR<ListPage<EntityOption>>('/entities?limit=1000');
}

/** The company's document categories, from its settings. */
export function useDocumentCategories(): string[] {
  const { data } = useSWR<{ settings?: { documentCategories?: string[] } }>('/users/me/company');
  return data?.settings?.documentCategories ?? [];
}

/** Fetches again every cached answer whose key starts with one of these paths. */
export function useRefresh() {
  const { mutate } = useSWRConfig();
  return useCallback(
    (...prefixes: string[]) =>
      mutate(
        (key) =>
          typeof key === 'string' &&
          prefixes.some((p) => key === p || key.startsWith(`${p}?`) || key.startsWith(`${p}/`)),
      ),
    [mutate],
  );
}

export const STATUS_LABELS: Record<AssetStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  sold: 'Sold',
  development: 'In development',
};

export function addressLine(address: AddressView | undefined): string {
  if (!address) return '';
  return [address.streetAddress, address.locality, address.postCode].filter(Boolean).join(', ');
}

export function fileSize(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
