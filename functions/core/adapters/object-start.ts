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
