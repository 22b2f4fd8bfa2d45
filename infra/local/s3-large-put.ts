import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

/** The largest body the S3 emulator takes in one request (it refuses anything over 11 MiB). */
export const EMULATOR_BODY_LIMIT = 10 * 1024 * 1024;
/** S3 takes 5 GB in one PUT; on this machine the body is held in memory, so less. */
export const LOCAL_PUT_LIMIT = 512 * 1024 * 1024;
const PART_BYTES = 8 * 1024 * 1024;

export class EntityTooLarge extends Error {}

/** Size of the object a PUT carries, when the request says so. */
export function declaredSize(req: IncomingMessage): number | undefined {
  const raw = req.headers['x-amz-decoded-content-length'] ?? req.headers['content-length'];
  const n = Number(raw);
  return raw === undefined || !Number.isFinite(n) ? undefined : n;
}

/** A PutObject (not a part upload or a copy) that may be larger than the emulator takes in one request. */
export function needsLargePut(req: IncomingMessage, url: URL, key: string): boolean {
  if (req.method !== 'PUT' || key === '') return false;
  if (url.searchParams.has('uploadId') || url.searchParams.has('partNumber')) return false;
  if (req.headers['x-amz-copy-source'] !== undefined) return false;
  const size = declaredSize(req);
  return size === undefined || size > EMULATOR_BODY_LIMIT;
}

/** The payload of an `aws-chunked` body: `<hex size>[;chunk-signature=…]\r\n<data>\r\n` … `0\r\n<trailers>`. */
export function decodeAwsChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > LOCAL_PUT_LIMIT * 1.01) throw new EntityTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

/**
 * Stores a PUT's object through the emulator's API, in parts when it is larger than one request may be.
 * The object ends up as S3 would hold it, except that a large one has a multipart ETag.
 */
export async function largePut(
  s3: S3Client,
  req: IncomingMessage,
  bucket: string,
  key: string,
): Promise<string> {
  const encodings = (header(req, 'content-encoding') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const raw = await readAll(req);
  const body = encodings.includes('aws-chunked') ? decodeAwsChunked(raw) : raw;
  if (body.byteLength > LOCAL_PUT_LIMIT) throw new EntityTooLarge();
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith('x-amz-meta-') && value !== undefined) metadata[name.slice(11)] = String(value);
  }
  const contentEncoding = encodings.filter((e) => e !== 'aws-chunked').join(', ') || undefined;
  const attributes = {
    Bucket: bucket,
    Key: key,
    ContentType: header(req, 'content-type'),
    ContentDisposition: header(req, 'content-disposition'),
    ContentLanguage: header(req, 'content-language'),
    CacheControl: header(req, 'cache-control'),
    ContentEncoding: contentEncoding,
    Metadata: metadata,
  };
  if (body.byteLength <= EMULATOR_BODY_LIMIT) {
    const out = await s3.send(new PutObjectCommand({ ...attributes, Body: body }));
    return out.ETag ?? `"${createHash('md5').update(body).digest('hex')}"`;
  }
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand(attributes));
  try {
    const parts: { ETag?: string; PartNumber: number }[] = [];
    for (let offset = 0, n = 1; offset < body.byteLength; offset += PART_BYTES, n++) {
      const part = await s3.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          PartNumber: n,
          Body: body.subarray(offset, offset + PART_BYTES),
        }),
      );
      parts.push({ ETag: part.ETag, PartNumber: n });
    }
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    return done.ETag ?? '';
  } catch (err) {
    await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId })).catch(() => {});
    throw err;
  }
}
