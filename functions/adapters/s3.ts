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
