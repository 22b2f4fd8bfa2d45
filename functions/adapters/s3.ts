import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config, s3Options } from '../config.ts';

let client: S3Client | undefined;
let publicClient: S3Client | undefined;

export function s3(): S3Client {
  client ??= new S3Client({ region: config().region, forcePathStyle: s3Options().forcePathStyle });
  return client;
}

/** Presigned URLs must name a host the browser can reach, which locally differs from the SDK's endpoint. */
function presignClient(): S3Client {
  const { publicEndpoint, forcePathStyle } = s3Options();
  if (!publicEndpoint) return s3();
  publicClient ??= new S3Client({ region: config().region, forcePathStyle, endpoint: publicEndpoint });
  return publicClient;
}

export async function getObjectBytes(bucket: string, key: string): Promise<Uint8Array> {
  const out = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
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
  await s3().send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: body,
      ContentType: contentType,
      Metadata: metadata,
    }),
  );
}

export async function presignGet(
  bucket: string,
  key: string,
  expiresIn = 900,
  fileName?: string,
): Promise<string> {
  return getSignedUrl(
    presignClient(),
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ...(fileName
        ? { ResponseContentDisposition: `attachment; filename="${fileName.replaceAll('"', '')}"` }
        : {}),
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

export async function presignPut(
  bucket: string,
  key: string,
  contentType: string,
  expiresIn = 900,
): Promise<string> {
  return getSignedUrl(
    presignClient(),
    new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
    {
      expiresIn,
    },
  );
}
