import { type S3EventMessage, s3EventMessage } from '../../../shared/system/queue-messages.ts';

export interface S3ObjectRef {
  bucket: string;
  key: string;
  size?: number;
}

/**
 * The objects an S3 event notification names as created. S3 encodes keys like a form (spaces as '+'); the
 * test event S3 sends when a notification is configured names no object.
 */
export function s3ObjectsIn(message: S3EventMessage): S3ObjectRef[] {
  if (!('Records' in message)) return [];
  return message.Records.filter((r) => r.eventName?.startsWith('ObjectCreated')).map((r) => ({
    bucket: r.s3.bucket.name,
    key: decodeURIComponent(r.s3.object.key.replace(/\+/g, ' ')),
    ...(r.s3.object.size !== undefined ? { size: r.s3.object.size } : {}),
  }));
}

/** The objects named by an S3 event notification carried in an SQS body. */
export function s3ObjectsOf(body: string): S3ObjectRef[] {
  const parsed = s3EventMessage.safeParse(JSON.parse(body));
  if (!parsed.success) throw new Error('Not an S3 event notification');
  return s3ObjectsIn(parsed.data);
}
