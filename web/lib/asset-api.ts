import useSWR from 'swr';
import type { AssetStatus } from '../../shared/schemas/asset-wizard.ts';

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
  /** Floor areas (m²) in force for periods, `to` absent on an open one. */
  floorAreaHistory?: { from: string; to?: string; floorAreaM2: number }[];
  epcRating?: string;
  epc?: { certificateId: string; kind: string; rating: number; band: string; lodgementDate?: string };
  geocoordinates?: { lat: number; lng: number };
  images?: AssetImageView[];
  primaryImage?: AssetImageView;
  satelliteImages?: { url: string; zoom?: number; label?: string }[];
  deleted?: boolean;
}

export const assetKey = (id: string | undefined) => (id ? `/assets/${id}` : null);

/** GET /assets/{id}: one site, for its own pages and for the pages of its meters. */
export function useAsset(id: string | undefined) {
  return useSWR<AssetView>(assetKey(id));
}
