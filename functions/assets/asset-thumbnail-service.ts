import { MAX_IMAGE_BYTES } from '../../shared/schemas/asset-documents.ts';
import { headObject } from '../core/adapters/asset-storage.ts';
import { getObjectBytes, putObject } from '../core/adapters/s3.ts';
import { getItem } from '../core/data/item-repository.ts';
import type { Logger } from '../core/lib/logger.ts';
import { ImageDecodeError, thumbnail } from './asset-image-codec.ts';
import { parseOriginalKey, thumbKey } from './asset-image-keys.ts';
import { type AssetImage, assetsRef, changeAsset, imagesOf } from './asset-records.ts';
import { findTicket, saveTicket } from './asset-repository.ts';

export type ThumbnailOutcome =
  | { outcome: 'ignored'; reason: string }
  | { outcome: 'rejected'; reason: string; companyId: string; assetId: string }
  | { outcome: 'done' | 'already'; companyId: string; assetId: string; imageId: string };

/**
 * Makes the thumbnail of an uploaded site picture and records the picture on the site. Safe to run
 * twice for the same object (S3 and SQS deliver at least once): a recorded picture is left as it is.
 * A picture that cannot be read is a permanent failure, recorded on its ticket rather than retried;
 * storage and table errors throw, so the message is retried.
 */
export async function processUploadedImage(
  bucket: string,
  key: string,
  log: Logger,
): Promise<ThumbnailOutcome> {
  const parsed = parseOriginalKey(key);
  if (!parsed) return { outcome: 'ignored', reason: 'not an uploaded original' };
  const { assetId, imageId } = parsed;
  const ticket = await findTicket(imageId);
  if (!ticket || ticket.assetId !== assetId || ticket.key !== key)
    return { outcome: 'ignored', reason: 'no upload was handed out for this key' };
  const { companyId } = ticket;
  const asset = await getItem(assetsRef(companyId).pk, assetId);
  if (!asset || asset.deleted === true) return { outcome: 'ignored', reason: 'the site is gone' };
  const recorded = imagesOf(asset).find((i) => i._id === imageId);
  if (recorded?.thumbKey || ticket.status === 'done')
    return { outcome: 'already', companyId, assetId, imageId };
  if (ticket.status === 'rejected')
    return { outcome: 'rejected', reason: ticket.reason ?? '', companyId, assetId };

  const head = await headObject(bucket, key);
  if (!head) return { outcome: 'ignored', reason: 'the object is gone' };
  let small: ReturnType<typeof thumbnail>;
  let full: { width?: number; height?: number } = {};
  try {
    if (head.size > MAX_IMAGE_BYTES) throw new ImageDecodeError('The picture is larger than 20 MB');
    const bytes = await getObjectBytes(bucket, key);
    small = thumbnail(bytes);
    full = small.source;
  } catch (err) {
    if (!(err instanceof ImageDecodeError)) throw err;
    log.warn('picture rejected', { key, reason: err.message });
    await saveTicket({
      ...ticket,
      status: 'rejected',
      reason: err.message,
      updatedAt: new Date().toISOString(),
    });
    return { outcome: 'rejected', reason: err.message, companyId, assetId };
  }
  const thumb = thumbKey(assetId, imageId);
  await putObject(bucket, thumb, small.jpeg, 'image/jpeg');
  await changeAsset(companyId, assetId, (current) => {
    const images = imagesOf(current);
    if (images.some((i) => i._id === imageId && i.thumbKey)) return undefined;
    const image: AssetImage = {
      _id: imageId,
      key,
      thumbKey: thumb,
      ...full,
      isPrimary: !images.some((i) => i.isPrimary),
    };
    return { ...current, images: [...images.filter((i) => i._id !== imageId), image] };
  });
  await saveTicket({ ...ticket, status: 'done', updatedAt: new Date().toISOString() });
  return { outcome: 'done', companyId, assetId, imageId };
}
