import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BucketAlreadyOwnedByYou, CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueUrlCommand,
  QueueDoesNotExist,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { type FauxqsServer, startFauxqs } from 'fauxqs';
import { BUCKETS, type QueueDecl } from '../../shared/system/functions.ts';
import { QUEUE_DECLS } from '../../shared/system/pipeline.ts';
import {
  deadLetterQueueName,
  LOCAL_REGION,
  localBucketName,
  localQueueUrl,
  queueArn,
} from './environment.ts';

export interface MessagingEmulator {
  /** SQS and S3 on one endpoint, e.g. http://127.0.0.1:4566. */
  endpoint: string;
  port: number;
  server: FauxqsServer;
  sqs: SQSClient;
  s3: S3Client;
  stop(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** Dead-letter queues keep messages for the longest time SQS allows, to leave time to look at them. */
const DLQ_RETENTION_SECONDS = '1209600';

/**
 * SQS and S3 in-process (fauxqs). Queues, messages, buckets and objects persist in SQLite under `dir`;
 * S3 objects stay in SQLite rather than fauxqs's file storage, which would map keys with `..` segments
 * to paths outside its directory.
 */
export async function startMessaging(dir: string, port: number): Promise<MessagingEmulator> {
  await mkdir(dir, { recursive: true });
  releaseOrphanedMessages(dir);
  const server = await startFauxqs({
    port,
    dataDir: dir,
    messageSpies: { bufferSize: 1000 },
    logger: false,
    defaultRegion: LOCAL_REGION,
  });
  const endpoint = `http://127.0.0.1:${server.port}`;
  const sqs = new SQSClient({ region: LOCAL_REGION, endpoint, credentials: CREDENTIALS });
  const s3 = new S3Client({ region: LOCAL_REGION, endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  return {
    endpoint,
    port: server.port,
    server,
    sqs,
    s3,
    stop: async () => {
      sqs.destroy();
      s3.destroy();
      await server.stop();
    },
  };
}

/**
 * Makes every message that was being worked on when the stack last stopped visible again. Its workers ran
 * in the stack's own process, so whatever stopped the stack (even a kill -9) stopped them too: waiting for
 * the visibility timeout (15 minutes for an import) would only hold the work up. Returns how many.
 */
export function releaseOrphanedMessages(dir: string): number {
  const file = join(dir, 'fauxqs.db');
  if (!existsSync(file)) return 0;
  const db = new DatabaseSync(file);
  try {
    const known = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqs_messages'")
      .get();
    if (!known) return 0;
    const released = db
      .prepare(
        'UPDATE sqs_messages SET receipt_handle = NULL, visibility_deadline = NULL WHERE receipt_handle IS NOT NULL',
      )
      .run();
    return Number(released.changes);
  } finally {
    db.close();
  }
}

export async function ensureBuckets(s3: S3Client): Promise<string[]> {
  return Promise.all(
    BUCKETS.map(async (bucket) => {
      const name = localBucketName(bucket);
      try {
        await s3.send(new CreateBucketCommand({ Bucket: name }));
      } catch (err) {
        if (!(err instanceof BucketAlreadyOwnedByYou)) throw err;
      }
      return name;
    }),
  );
}

/** Creates the queue or, when it exists from an earlier run, brings its attributes up to date. */
async function ensureQueue(
  sqs: SQSClient,
  endpoint: string,
  name: string,
  attributes: Record<string, string>,
) {
  try {
    await sqs.send(new GetQueueUrlCommand({ QueueName: name }));
  } catch (err) {
    if (!(err instanceof QueueDoesNotExist)) throw err;
    await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    return;
  }
  await sqs.send(
    new SetQueueAttributesCommand({ QueueUrl: localQueueUrl(endpoint, name), Attributes: attributes }),
  );
}

export interface QueueSettings {
  /** Overrides every queue's visibility timeout, so tests can see retries in seconds rather than minutes. */
  visibilityTimeoutSeconds?: number;
}

export function visibilityTimeoutOf(decl: QueueDecl, settings: QueueSettings): number {
  return settings.visibilityTimeoutSeconds ?? decl.visibilityTimeoutSeconds;
}

/** Each declared queue with its dead-letter queue, as the CDK app creates them. */
export async function ensureQueues(
  sqs: SQSClient,
  endpoint: string,
  settings: QueueSettings = {},
): Promise<string[]> {
  const names: string[] = [];
  for (const decl of QUEUE_DECLS) {
    const dlq = deadLetterQueueName(decl.name);
    await ensureQueue(sqs, endpoint, dlq, { MessageRetentionPeriod: DLQ_RETENTION_SECONDS });
    await ensureQueue(sqs, endpoint, decl.name, {
      VisibilityTimeout: String(visibilityTimeoutOf(decl, settings)),
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: queueArn(dlq),
        maxReceiveCount: decl.maxReceiveCount,
      }),
    });
    names.push(decl.name, dlq);
  }
  return names;
}
