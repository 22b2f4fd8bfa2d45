import type { S3Client } from '@aws-sdk/client-s3';
import { downloadContentType } from '../../../shared/files/file-type.ts';
import { config, s3Options } from '../config.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * The S3 SDK and the process's one client, loaded with the first object operation: most requests of the
 * functions that can store files touch none, and their cold start should not pay for the SDK.
 */
export const s3 = onFirstUse(async () => {
  const lib = await import('@aws-sdk/client-s3');
  return {
    lib,
    client: new lib.S3Client({ region: config().region, forcePathStyle: s3Options().forcePathStyle }),
  };
});

/**
 * The client presigned URLs are made with: locally they must name another host (the app's origin) than
 * the SDK's endpoint. It adds no checksum to a PUT: the SDK would sign the checksum of an empty body into
 * the URL, which S3 then compares with the file the browser sends.
 */
const presignClient = onFirstUse(async (): Promise<S3Client> => {
  const { lib } = await s3();
  const { publicEndpoint, forcePathStyle } = s3Options();
  return new lib.S3Client({
    region: config().region,
    forcePathStyle,
    ...(publicEndpoint ? { endpoint: publicEndpoint } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
});

const presigner = onFirstUse(() => import('@aws-sdk/s3-request-presigner'));

export async function getObjectBytes(bucket: string, key: string): Promise<Uint8Array> {
  const { lib, client } = await s3();
  const out = await client.send(new lib.GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!out.Body) throw new Error(`Object ${bucket}/${key} has no body`);
  return out.Body.transformToByteArray();
}

export async function putObject(
  bucket: string,
  key: string,
  body: Uint8Array,
  contentType: string,
  metadata: Record<string, string> = {},
): Promise<void> {
  const { lib, client } = await s3();
  await client.send(
    new lib.PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: body,
      ContentType: contentType,
      Metadata: metadata,
    }),
  );
}

/**
 * A presigned GET. With `fileName` it is a download, saved under that name; without, a link shown in the
 * page (a preview, a photo, a logo), typed by `shownAs` or else the key's own name. Either way the type
 * comes from a name: the type an upload declared is the uploader's word, and a page or a drawing
 * declared by one would run in the app's users' browsers.
 */
export async function presignGet(
  bucket: string,
  key: string,
  expiresIn = 900,
  fileName?: string,
  shownAs?: string,
): Promise<string> {
  const [{ lib }, client, { getSignedUrl }] = await Promise.all([s3(), presignClient(), presigner()]);
  return getSignedUrl(
    client,
    new lib.GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ...(fileName
        ? {
            ResponseContentDisposition: `attachment; filename="${fileName.replaceAll('"', '')}"`,
            ResponseContentType: downloadContentType(fileName),
          }
        : { ResponseContentType: downloadContentType(shownAs ?? key) }),
    }),
    { expiresIn },
  );
}

const reused = new Map<string, { url: string; until: number }>();
const REUSED_MAX = 5000;

/**
 * A download URL handed out again while at least half its life is left. Pictures listed with every page
 * of sites then keep one address, which the browser caches, and a list is not signed afresh each time.
 */
export async function presignGetReused(bucket: string, key: string, expiresIn: number): Promise<string> {
  const id = `${bucket}/${key}/${expiresIn}`;
  const now = Date.now();
  const hit = reused.get(id);
  if (hit && hit.until > now) return hit.url;
  const url = await presignGet(bucket, key, expiresIn);
  // Bounded: a long-lived process that has signed many objects starts the cache afresh.
  if (reused.size >= REUSED_MAX) reused.clear();
  reused.set(id, { url, until: now + (expiresIn * 1000) / 2 });
  return url;
}

/**
 * A presigned PUT. With `size`, the Content-Length is one of the signed headers, so S3 refuses a body of
 * any other size (SignatureDoesNotMatch): the size checked when the URL was asked for is the size stored.
 */
export async function presignPut(
  bucket: string,
  key: string,
  contentType: string,
  { expiresIn = 900, size }: { expiresIn?: number; size?: number } = {},
): Promise<string> {
  const [{ lib }, client, { getSignedUrl }] = await Promise.all([s3(), presignClient(), presigner()]);
  return getSignedUrl(
    client,
    new lib.PutObjectCommand({
      Bucket: bucket,
      Key: key,
      ContentType: contentType,
      ...(size !== undefined ? { ContentLength: size } : {}),
    }),
    { expiresIn, ...(size !== undefined ? { signableHeaders: new Set(['content-length']) } : {}) },
  );
}
