import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let stateDir: string;
let local: LocalStackHandle | undefined;

afterAll(async () => {
  await local?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

const docs = (l: LocalStackHandle) => DynamoDBDocumentClient.from(l.stack.dynamo.client);

describe('the state directory', () => {
  it('keeps items, objects, queued messages and the seed across a restart', async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'voltfolio-restart-'));
    const first = await startLocalStack({ stateDir, seed: true, pollers: false });
    local = first;
    expect(first.stack.seed?.state).toBe('seeded');
    const table = first.env.TABLE_NAME;
    await docs(first).send(
      new PutCommand({ TableName: table, Item: { pk: 'TEST#restart', sk: 'item', n: 42 } }),
    );
    await first.stack.messaging.s3.send(
      new PutObjectCommand({ Bucket: first.env.BUCKET_DOCUMENTS, Key: 'kept.txt', Body: 'still here' }),
    );
    await first.stack.messaging.sqs.send(
      new SendMessageCommand({ QueueUrl: first.env.QUEUE_URL_EMAIL_INTAKE_DLQ, MessageBody: 'parked' }),
    );
    await first.stop();

    const second = await startLocalStack({ stateDir, seed: true, pollers: false });
    local = second;
    // The seed does not run again over data that may have changed since.
    expect(second.stack.seed?.state).toBe('existing');
    const item = await docs(second).send(
      new GetCommand({ TableName: table, Key: { pk: 'TEST#restart', sk: 'item' } }),
    );
    expect(item.Item?.n).toBe(42);
    const object = await second.stack.messaging.s3.send(
      new GetObjectCommand({ Bucket: second.env.BUCKET_DOCUMENTS, Key: 'kept.txt' }),
    );
    expect(await object.Body?.transformToString()).toBe('still here');
    const parked = await second.stack.messaging.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: second.env.QUEUE_URL_EMAIL_INTAKE_DLQ, WaitTimeSeconds: 1 }),
    );
    expect(parked.Messages?.map((m) => m.Body)).toEqual(['parked']);
    expect((await fetch(`${second.apiUrl}/health`)).status).toBe(200);
    // Two stack starts and a seed: about 15 s alone, longer while the suite's other files share the cores.
  }, 60_000);
});
