import type { S3Event } from 'aws-lambda';

export interface S3ObjectRef {
  bucket: string;
  key: string;
  size?: number;
}

/**
 * The objects named by an S3 event notification carried in an SQS body. S3 encodes keys like a form
 * (spaces as '+'); the test event S3 sends when a notification is configured names no object.
 */
export function s3ObjectsOf(body: string): S3ObjectRef[] {
  const parsed = JSON.parse(body) as Partial<S3Event> & { Event?: string };
  if (parsed.Event === 's3:TestEvent') return [];
  if (!Array.isArray(parsed.Records)) throw new Error('Not an S3 event notification');
  return parsed.Records.filter((r) => r.eventName?.startsWith('ObjectCreated')).map((r) => ({
    bucket: r.s3.bucket.name,
    key: decodeURIComponent(r.s3.object.key.replace(/\+/g, ' ')),
    size: r.s3.object.size,
  }));
}
