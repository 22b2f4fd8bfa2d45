import type { ImageContentType } from '../../shared/schemas/asset-documents.ts';
import { IMAGE_TYPES } from '../../shared/schemas/asset-documents.ts';

/**
 * Where a site's pictures live in the documents bucket. Uploads go to `originals/`; the worker writes
 * `thumbs/` and the enhancer `enhanced/`. Only `originals/` starts work, so the worker's own output can
 * never set it off again.
 */
export const originalKey = (assetId: string, imageId: string, type: ImageContentType) =>
  `assets/${assetId}/images/originals/${imageId}.${IMAGE_TYPES[type]}`;
export const thumbKey = (assetId: string, imageId: string) =>
  `assets/${assetId}/images/thumbs/${imageId}.jpg`;
export const enhancedKey = (assetId: string, imageId: string) =>
  `assets/${assetId}/images/enhanced/${imageId}.jpg`;

const ORIGINAL = /^assets\/([0-9a-f]{24})\/images\/originals\/([0-9a-f]{24})\.(png|jpg)$/;

export function parseOriginalKey(key: string): { assetId: string; imageId: string } | undefined {
  const m = ORIGINAL.exec(key);
  return m?.[1] && m[2] ? { assetId: m[1], imageId: m[2] } : undefined;
}
