import { headObject } from './asset-storage.ts';
import { s3 } from './s3.ts';

/**
 * The first bytes of a stored object (a file's header is enough to tell its type and size), or undefined
 * when there is no such object. A ranged read, so a large upload is never read whole.
 */
export async function objectStart(
  bucket: string,
  key: string,
  bytes: number,
): Promise<Uint8Array | undefined> {
  const { lib, client } = await s3();
  try {
    const out = await client.send(
      new lib.GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${bytes - 1}` }),
    );
    return out.Body ? await out.Body.transformToByteArray() : undefined;
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404)
      return undefined;
    throw err;
  }
}

/**
 * An upload as stored: its first bytes (to tell its type) and its whole size (to hold it to the limit its
 * upload URL was asked with), or undefined when nothing was uploaded.
 */
export async function storedUpload(
  bucket: string,
  key: string,
  bytes: number,
): Promise<{ start: Uint8Array; size: number } | undefined> {
  const [start, head] = await Promise.all([objectStart(bucket, key, bytes), headObject(bucket, key)]);
  if (!start || start.length === 0 || !head) return undefined;
  return { start, size: head.size };
}
