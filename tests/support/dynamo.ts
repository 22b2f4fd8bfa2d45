import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { speedUpDynalite } from '../../infra/local/dynalite-speedups.ts';
import { withTransactWrites } from '../../infra/local/dynalite-transactions.ts';
import { TABLE } from '../../shared/system/table.ts';

export interface TestTable {
  endpoint: string;
  tableName: string;
  stop(): Promise<void>;
}

/** A real DynamoDB wire endpoint (dynalite, in memory) with the product's table, for tests. */
export async function startTestTable(tableName = `voltfolio-test-${process.pid}`): Promise<TestTable> {
  // The same emulator as the local stack's, so the suite runs what `npm start` runs.
  speedUpDynalite();
  const server = withTransactWrites(() => dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    region: 'eu-west-2',
    endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const attrs = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const i of TABLE.indexes) {
    attrs.add(i.partitionKey);
    attrs.add(i.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attrs].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  client.destroy();
  return {
    endpoint,
    tableName,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
