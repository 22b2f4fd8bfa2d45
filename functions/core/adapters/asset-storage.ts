import { s3 } from './s3.ts';

export interface StoredObject {
  size: number;
  contentType?: string;
}

/** Size and type of a stored object, or undefined when there is none (an upload that never arrived). */
export async function headObject(bucket: string, key: string): Promise<StoredObject | undefined> {
  const { lib, client } = await s3();
  try {
    const out = await client.send(new lib.HeadObjectCommand({ Bucket: bucket, Key: key }));
    return { size: out.ContentLength ?? 0, contentType: out.ContentType };
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404)
      return undefined;
    throw err;
  }
}

export async function deleteObject(bucket: string, key: string): Promise<void> {
  const { lib, client } = await s3();
  await client.send(new lib.DeleteObjectCommand({ Bucket: bucket, Key: key }));
}
