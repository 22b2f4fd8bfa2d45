import { mkdir } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { TABLE } from '../../shared/system/table.ts';
import { LOCAL_REGION, LOCAL_TABLE_NAME } from './environment.ts';

export interface DynamoEmulator {
  endpoint: string;
  port: number;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

/** DynamoDB on its own thread: dynalite on LevelDB files under `dir`, so items survive restarts. */
export async function startDynamo(dir: string, port: number, host = '127.0.0.1'): Promise<DynamoEmulator> {
  await mkdir(dir, { recursive: true });
  const worker = new Worker(new URL('./dynamodb-worker.ts', import.meta.url), {
    workerData: { dir, port, host },
  });
  const actual = await new Promise<number>((resolve, reject) => {
    const onMessage = (message: { type: string; port?: number; message?: string }) => {
      if (message.type === 'ready' && message.port !== undefined) resolve(message.port);
      else if (message.type === 'error') reject(new Error(message.message));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The DynamoDB emulator stopped (exit ${code})`)));
  });
  const endpoint = `http://${host}:${actual}`;
  const client = new DynamoDBClient({
    region: LOCAL_REGION,
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return {
    endpoint,
    port: actual,
    client,
    stop: async () => {
      client.destroy();
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ type: 'stop' });
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await worker.terminate();
    },
  };
}

/** The table as shared/system/table.ts declares it, created over the wire when it does not exist yet. */
export async function ensureTable(
  client: DynamoDBClient,
  tableName = LOCAL_TABLE_NAME,
): Promise<'created' | 'existed'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existed';
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const keyAttributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const index of TABLE.indexes) {
    keyAttributes.add(index.partitionKey);
    keyAttributes.add(index.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...keyAttributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  // The emulator makes a table active at once, but its thread may still be opening a fresh store on a busy
  // machine: wait by the clock, not by a count of tries, before calling the start a failure.
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (out.Table?.TableStatus === 'ACTIVE') return 'created';
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`Table ${tableName} did not become active within 15 s`);
}
