import { randomBytes } from 'node:crypto';
import type { S3Event } from 'aws-lambda';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './environment.ts';

export interface CreatedObject {
  bucket: string;
  key: string;
  size: number;
  /** With or without the quotes S3 puts around it in headers. */
  eTag: string;
  sourceIp?: string;
  configurationId: string;
  sequencer: string;
  time: Date;
}

/**
 * Object keys in event notifications are form-encoded, as Java's URLEncoder does it (spaces become '+'),
 * with '/' kept.
 */
export function encodeEventKey(key: string): string {
  return key
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment)
        .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
        .replaceAll('%20', '+'),
    )
    .join('/');
}

let lastSequence = 0n;
/** Sequencers grow for later events on the same key; S3 gives them as upper-case hex. */
export function nextSequencer(now = Date.now()): string {
  const candidate = BigInt(now) * 1_000_000n;
  lastSequence = candidate > lastSequence ? candidate : lastSequence + 1n;
  return lastSequence.toString(16).toUpperCase().padStart(18, '0');
}

const requestId = () => randomBytes(8).toString('hex').toUpperCase();

/** The notification S3 sends to a queue for a created object (event version 2.1). */
export function objectCreatedEvent(object: CreatedObject): S3Event {
  const eTag = object.eTag.replaceAll('"', '');
  const multipart = /-\d+$/.test(eTag);
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: LOCAL_REGION,
        eventTime: object.time.toISOString(),
        eventName: multipart ? 'ObjectCreated:CompleteMultipartUpload' : 'ObjectCreated:Put',
        userIdentity: { principalId: `AWS:${LOCAL_ACCOUNT}` },
        requestParameters: { sourceIPAddress: object.sourceIp ?? '127.0.0.1' },
        responseElements: {
          'x-amz-request-id': requestId(),
          'x-amz-id-2': randomBytes(48).toString('base64'),
        },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: object.configurationId,
          bucket: {
            name: object.bucket,
            ownerIdentity: { principalId: LOCAL_ACCOUNT },
            arn: `arn:aws:s3:::${object.bucket}`,
          },
          object: {
            key: encodeEventKey(object.key),
            size: object.size,
            eTag,
            sequencer: object.sequencer,
          },
        },
      },
    ],
  };
}
