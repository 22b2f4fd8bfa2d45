import { presignGetReused } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { notFound } from '../core/lib/errors.ts';
import { resourceRef } from '../core/resources/resource-refs.ts';
import { findAsset, type StoredAsset, toAsset } from './asset-repository.ts';

export const assetsRef = (companyId: string) => resourceRef(companyId, 'assets');

/** A site of the company; a missing or deleted one is 404. Route item checks have already run. */
export async function loadAsset(companyId: string, id: string): Promise<StoredAsset> {
  const asset = await findAsset(companyId, id);
  if (!asset) throw notFound();
  return asset;
}

/**
 * Changes a site by read, change, conditional write, retried when someone else wrote in between (the
 * picture worker, another tab, a PATCH of other fields). `change` answers undefined when there is nothing
 * to change. `keepUpdatedAt` is for changes nobody made by hand (placing an imported site, a data
 * migration): the import's rollback takes a site whose updatedAt moved for one somebody edited.
 */
export async function changeAsset(
  companyId: string,
  id: string,
  change: (asset: StoredAsset) => StoredItem | undefined,
  opts: { keepUpdatedAt?: boolean } = {},
): Promise<StoredAsset> {
  const changed = await changeItem(assetsRef(companyId), id, (current) => {
    if (current.deleted === true) throw notFound();
    const asset = toAsset(current);
    const next = change(asset);
    const updatedAt = opts.keepUpdatedAt ? asset.updatedAt : laterThan(asset.updatedAt);
    return next && toAsset({ ...next, _id: asset._id, updatedAt });
  });
  if (!changed) throw notFound();
  return toAsset(changed.after);
}

/** A timestamp that differs from the previous one even within the same millisecond. */
function laterThan(previous: unknown): string {
  const now = new Date().toISOString();
  if (typeof previous !== 'string' || now > previous) return now;
  return new Date(Date.parse(previous) + 1).toISOString();
}

export interface AssetImage {
  _id?: string;
  url?: string;
  thumbUrl?: string;
  key?: string;
  thumbKey?: string;
  enhancedKey?: string;
  enhancedUrl?: string;
  width?: number;
  height?: number;
  isPrimary?: boolean;
}

export const imagesOf = (asset: StoredItem): AssetImage[] =>
  Array.isArray(asset.images) ? (asset.images as AssetImage[]) : [];

/** Only this site's own objects are ever signed, whatever a stored image claims. */
const ownKey = (asset: StoredItem, key: unknown): key is string =>
  typeof key === 'string' && key.startsWith(`assets/${asset._id}/images/`) && !key.includes('..');

const IMAGE_URL_SECONDS = 3600;

/** A site as callers see it: pictures with signed URLs for the stored objects, and the primary first. */
export async function presentAsset(asset: StoredItem): Promise<StoredItem> {
  const images = imagesOf(asset);
  if (images.length === 0) return asset;
  const sign = (key: string) => presignGetReused(bucketName('documents'), key, IMAGE_URL_SECONDS);
  const shown = await Promise.all(
    images.map(async (image) => {
      const { key, thumbKey, enhancedKey, ...rest } = image;
      return {
        ...rest,
        ...(ownKey(asset, key) ? { url: await sign(key) } : {}),
        ...(ownKey(asset, thumbKey) ? { thumbUrl: await sign(thumbKey) } : {}),
        ...(ownKey(asset, enhancedKey) ? { enhancedUrl: await sign(enhancedKey) } : {}),
      };
    }),
  );
  return { ...asset, images: shown, primaryImage: shown.find((i) => i.isPrimary) ?? shown[0] };
}
