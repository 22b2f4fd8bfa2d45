import * as z from 'zod';
import { satelliteImageSchema } from '../../shared/schemas/asset.ts';
import { imageContentType } from '../../shared/schemas/asset-documents.ts';
import { ASSET_MESSAGES } from '../../shared/schemas/asset-messages.ts';
import { imageUploadUrlQuery } from '../../shared/schemas/request-queries.ts';
import type { EnhancedImage } from '../../shared/schemas/responses/assets.ts';
import { declaredSize, declaredSizeParam, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { enforceItemCheck } from '../core/access/item-access-service.ts';
import { getObjectBytes, presignGet, presignPut, putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { ApiError, formError } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { formMessagesOf, parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { enhancedKey, originalKey } from './asset-image-keys.ts';
import { type AssetImage, changeAsset, imagesOf, loadAsset, presentAsset } from './asset-records.ts';
import { saveTicket } from './asset-repository.ts';

/** Enhanced copies are made at most this size on the long side, within an HTTP call's time. */
const ENHANCED_MAX = 2048;
/** The HTTP function has half the worker's memory: a larger picture is refused rather than risked. */
export const ENHANCE_MAX_MEGAPIXELS = 32;

const pictureSize = declaredSize(UPLOAD_LIMITS.image);

/** GET /assets/image-upload-url?fileType=&assetId=&size=: a signed PUT of that size for a new picture of the site. */
const uploadUrl = operation({ query: imageUploadUrlQuery }, async (ctx): Promise<OpResult> => {
  const contentType = imageContentType(ctx.query.fileType);
  const assetId = ctx.query.assetId ?? '';
  const size = pictureSize.safeParse(declaredSizeParam(ctx.query.size));
  const problems: Record<string, string> = {};
  if (!contentType) problems.fileType = ASSET_MESSAGES.unsupportedImage;
  if (!/^[0-9a-f]{24}$/.test(assetId)) problems.assetId = 'Must be a valid id';
  if (!size.success) problems.size = formMessagesOf(size.error)._form ?? 'Must be a number';
  if (!contentType || !size.success || problems.assetId)
    throw formError(problems, ASSET_MESSAGES.uploadUrlProblem);
  await enforceItemCheck({ type: 'assets', param: 'assetId', access: 'write' }, ctx.caller, { assetId });
  const asset = await loadAsset(ctx.caller.companyId, assetId);
  const imageId = newId();
  const key = originalKey(asset._id, imageId, contentType);
  const now = new Date().toISOString();
  await saveTicket({
    _id: imageId,
    companyId: ctx.caller.companyId,
    assetId: asset._id,
    key,
    contentType,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  });
  const url = await presignPut(bucketName('documents'), key, contentType, { size: size.data });
  return { body: { uploadUrl: url, method: 'PUT', key, contentType, imageId } };
});

/** Pictures stored before uploads had ids are named by their place in the list. */
function findImage(images: AssetImage[], ref: { imageId?: string; index?: number }): number {
  if (ref.imageId) return images.findIndex((i) => i._id === ref.imageId);
  if (ref.index !== undefined && ref.index < images.length) return ref.index;
  return -1;
}

/** PUT /assets/{id}/primary-thumbnail { imageId } (or { index }): the picture lists and headers show. */
const setPrimary = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(
    z.object({ imageId: z.string().max(100).optional(), index: z.number().int().min(0).optional() }),
    ctx.body ?? {},
  );
  const next = await changeAsset(ctx.caller.companyId, ctx.params.id, (asset) => {
    const images = imagesOf(asset);
    const at = findImage(images, body);
    if (at < 0) throw formError({ imageId: ASSET_MESSAGES.imageNotFound });
    return { ...asset, images: images.map((image, i) => ({ ...image, isPrimary: i === at })) };
  });
  return { body: await presentAsset(next) };
});

const enhanceFailed = (status: number) =>
  new ApiError(status, 'ENHANCE_FAILED', ASSET_MESSAGES.enhanceProblem);

/**
 * POST /assets/{id}/images/{imageId}/enhance: an auto-levelled copy of an uploaded picture, kept beside it
 * as its enhanced preview. Pictures without a stored original (the older, drawn ones) cannot be enhanced.
 */
const enhance = operation({ params: ['id', 'imageId'] }, async (ctx): Promise<OpResult> => {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const imageId = ctx.params.imageId;
  const image = imagesOf(asset).find((i) => i._id === imageId);
  if (!image) throw formError({ imageId: ASSET_MESSAGES.imageNotFound }, ASSET_MESSAGES.enhanceProblem);
  if (!image.key?.startsWith(`assets/${asset._id}/images/originals/`)) throw enhanceFailed(422);
  const bucket = bucketName('documents');
  let bytes: Uint8Array;
  try {
    bytes = await getObjectBytes(bucket, image.key);
  } catch (err) {
    ctx.log.warn('original not readable', { error: String(err) });
    throw enhanceFailed(502);
  }
  // The image codecs (pngjs, jpeg-js) are read only by the requests that enhance a picture, so the
  // function's cold start does not load them.
  const { autoLevels, decodeImage, encodeJpeg, fitWithin, ImageDecodeError, resize } = await import(
    './asset-image-codec.ts'
  );
  let output: Uint8Array;
  try {
    const decoded = decodeImage(bytes, ENHANCE_MAX_MEGAPIXELS);
    const size = fitWithin(decoded.width, decoded.height, ENHANCED_MAX, ENHANCED_MAX);
    const fitted = size.width === decoded.width ? decoded : resize(decoded, size.width, size.height);
    output = encodeJpeg(autoLevels(fitted), 90);
  } catch (err) {
    if (err instanceof ImageDecodeError) throw enhanceFailed(422);
    throw err;
  }
  const key = enhancedKey(asset._id, imageId);
  await putObject(bucket, key, output, 'image/jpeg');
  await changeAsset(ctx.caller.companyId, asset._id, (current) => {
    const images = imagesOf(current);
    if (!images.some((i) => i._id === imageId)) return undefined;
    return { ...current, images: images.map((i) => (i._id === imageId ? { ...i, enhancedKey: key } : i)) };
  });
  const previewUrl = await presignGet(bucket, key, 3600);
  return { body: { imageId, enhancedUrl: previewUrl, previewUrl } satisfies EnhancedImage };
});

const satelliteList = z.array(satelliteImageSchema).max(20, 'At most 20 satellite images');

const getSatellite = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const data = Array.isArray(asset.satelliteImages) ? asset.satelliteImages : [];
  return { body: { data, total: data.length } };
});

/** PUT /assets/{id}/satellite-images: the whole list, as `{ satelliteImages: [...] }` or the list itself. */
const putSatellite = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const raw = Array.isArray(ctx.body) ? ctx.body : objectOf(ctx.body).satelliteImages;
  const list = parseOrThrow(z.object({ satelliteImages: satelliteList }), { satelliteImages: raw });
  const next = await changeAsset(ctx.caller.companyId, ctx.params.id, (asset) => ({
    ...asset,
    satelliteImages: list.satelliteImages,
  }));
  const data = next.satelliteImages as unknown[];
  return { body: { data, total: data.length } };
});

export const ASSET_IMAGE_OPERATIONS: Operations = {
  'assets.images.uploadUrl': uploadUrl,
  'assets.images.primary': setPrimary,
  'assets.images.enhance': enhance,
  'assets.satellite.get': getSatellite,
  'assets.satellite.put': putSatellite,
};
