import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  CreateQueueCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { startFauxqs } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../shared/system/functions.ts';
import { QUEUE_DECLS } from '../../shared/system/pipeline.ts';

/** Seconds: short, so a test sees a redelivery; the heartbeat extends it every third of that. */
const VISIBILITY = 2;

let fauxqs: Awaited<ReturnType<typeof startFauxqs>>;
let sqs: SQSClient;
let queueUrl: string;
const env: Record<string, string> = {};

const captureMessage = {
  Records: [
    {
      eventName: 'ObjectCreated:Put',
      s3: {
        bucket: { name: 'voltfolio-uploads' },
        object: { key: 'invoices/c1/0123456789ab/a.pdf', size: 10 },
      },
    },
  ],
};

async function receive(waitSeconds = 0): Promise<Message[]> {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: waitSeconds,
      MessageSystemAttributeNames: ['All'],
    }),
  );
  return out.Messages ?? [];
}

/** A sent message, received as Lambda's event source receives it. */
async function receivedRecord(): Promise<SQSRecord> {
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(captureMessage) }));
  const [message] = await receive(1);
  if (!message?.ReceiptHandle) throw new Error('nothing received');
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(Date.now()),
      SenderId: 's3',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-2:000000000000:capture',
    awsRegion: 'eu-west-2',
  };
}

/** Receives until the message comes back or the time is up; the seconds it took, or undefined. */
async function secondsUntilRedelivered(
  messageId: string,
  withinSeconds: number,
): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start < withinSeconds * 1000) {
    if ((await receive()).some((m) => m.MessageId === messageId)) return (Date.now() - start) / 1000;
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}

beforeAll(async () => {
  fauxqs = await startFauxqs({ port: 0, logger: false });
  sqs = new SQSClient({
    region: 'eu-west-2',
    endpoint: fauxqs.address,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
  });
  const created = await sqs.send(
    new CreateQueueCommand({ QueueName: 'capture', Attributes: { VisibilityTimeout: String(VISIBILITY) } }),
  );
  // As the local stack names it: the emulator's own address, which the functions' SQS client reaches.
  queueUrl = `${fauxqs.address}/000000000000/${created.QueueUrl?.split('/').pop()}`;
  Object.assign(env, {
    AWS_REGION: 'eu-west-2',
    AWS_ACCESS_KEY_ID: 't',
    AWS_SECRET_ACCESS_KEY: 't',
    AWS_ENDPOINT_URL_SQS: fauxqs.address,
    AUTH_PROVIDER: 'cognito',
    COGNITO_USER_POOL_ID: 'pool',
    AUTH_CLIENT_ID: 'client',
    TABLE_NAME: 'voltfolio',
    LOG_LEVEL: 'error',
    QUEUE_URL_CAPTURE: queueUrl,
  });
  Object.assign(process.env, env);
});

afterAll(async () => {
  await fauxqs?.stop();
});

describe('queue visibility', () => {
  it('retries a capture whose worker crashed within minutes, not half an hour', () => {
    const capture = QUEUE_DECLS.find((q) => q.name === 'capture');
    const worker = FUNCTIONS.find((f) => f.name === 'capture');
    expect(capture?.visibilityTimeoutSeconds).toBeLessThanOrEqual(300);
    // An SQS event source refuses a queue whose visibility is shorter than its function's timeout.
    expect(capture?.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(worker?.timeoutSeconds ?? Infinity);
  });

  it('does not hand a message to another worker while its worker is still on it', async () => {
    const { queueFunction } = await import('../../functions/core/middleware/queue-function.ts');
    const { createLogger } = await import('../../functions/core/lib/logger.ts');
    const record = await receivedRecord();
    const workSeconds = VISIBILITY * 3;
    let redelivered: number | undefined;
    const handler = queueFunction(
      'capture',
      createLogger({ service: 'test', fn: 'capture' }),
      'failed',
      async () => {
        redelivered = await secondsUntilRedelivered(record.messageId, workSeconds);
      },
    );
    expect(await handler({ Records: [record] })).toEqual({ batchItemFailures: [] });
    expect(redelivered).toBeUndefined();
  }, 20_000);

  it('hands the message of a worker that died to the next one within the visibility timeout', async () => {
    const record = await receivedRecord();
    const child: ChildProcess = spawn(
      process.execPath,
      [join(import.meta.dirname, '../support/queue-worker-process.ts'), JSON.stringify(record)],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('working')) resolve();
        });
        child.once('exit', () => reject(new Error('the worker ended before working')));
      });
      // Alive and beating, the worker keeps the message hidden past its visibility timeout.
      expect(await secondsUntilRedelivered(record.messageId, VISIBILITY * 2)).toBeUndefined();
      child.kill('SIGKILL');
      const after = await secondsUntilRedelivered(record.messageId, VISIBILITY * 3);
      expect(after).toBeDefined();
      expect(after).toBeLessThanOrEqual(VISIBILITY + 1);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
