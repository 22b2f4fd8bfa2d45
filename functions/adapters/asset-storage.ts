import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from './s3.ts';

export interface StoredObject {
  size: number;
  contentType?: string;
}

/** Size and type of a stored object, or undefined when there is none (an upload that never arrived). */
export async function headObject(bucket: string, key: string): Promise<StoredObject | undefined> {
  try {
    const out = await s3().send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return { size: out.ContentLength ?? 0, contentType: out.ContentType };
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404)
      return undefined;
    throw err;
  }
}

export async function deleteObject(bucket: string, key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
}
