import useSWR from 'swr';
import type { AssetView } from '../../shared/schemas/responses/assets.ts';

export type {
  AddressView,
  AssetImageView,
  AssetView,
} from '../../shared/schemas/responses/assets.ts';

export const assetKey = (id: string | undefined) => (id ? `/assets/${id}` : null);

/** GET /assets/{id}: one site, for its own pages and for the pages of its meters. */
export function useAsset(id: string | undefined) {
  return useSWR<AssetView>(assetKey(id));
}
