import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactionCanceledException,
  type TransactWriteItem,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE } from '../../shared/system/table.ts';
import { startTestTable, type TestTable } from '../support/dynamo.ts';

let table: TestTable;
let client: DynamoDBClient;
const pk = TABLE.partitionKey;
const sk = TABLE.sortKey;

beforeAll(async () => {
  table = await startTestTable(`transactions-${process.pid}`);
  client = new DynamoDBClient({
    region: 'eu-west-2',
    endpoint: table.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await client.send(
    new PutItemCommand({
      TableName: table.tableName,
      Item: { [pk]: { S: 'site' }, [sk]: { S: '2024-01' }, unit: { S: 'kWh' }, consumption: { N: '10' } },
    }),
  );
});

afterAll(async () => {
  client.destroy();
  await table.stop();
});

const add = (month: string, amount: number, unit = 'kWh'): TransactWriteItem => ({
  Update: {
    TableName: table.tableName,
    Key: { [pk]: { S: 'site' }, [sk]: { S: month } },
    UpdateExpression: 'ADD consumption :c SET #unit = :unit',
    ConditionExpression: 'attribute_not_exists(#unit) OR #unit = :unit',
    ExpressionAttributeNames: { '#unit': 'unit' },
    ExpressionAttributeValues: { ':c': { N: String(amount) }, ':unit': { S: unit } },
  },
});

const consumptionOf = async (month: string) =>
  (
    await client.send(
      new GetItemCommand({ TableName: table.tableName, Key: { [pk]: { S: 'site' }, [sk]: { S: month } } }),
    )
  ).Item?.consumption?.N;

describe('TransactWriteItems in the local table', () => {
  it('adds to existing and new items in one request, and concurrent transactions all add up', async () => {
    await client.send(
      new TransactWriteItemsCommand({ TransactItems: [add('2024-01', 5), add('2024-02', 7)] }),
    );
    expect(await consumptionOf('2024-01')).toBe('15');
    expect(await consumptionOf('2024-02')).toBe('7');
    await Promise.all(
      Array.from({ length: 10 }, () =>
        client.send(new TransactWriteItemsCommand({ TransactItems: [add('2024-01', 1), add('2024-03', 2)] })),
      ),
    );
    expect(await consumptionOf('2024-01')).toBe('25');
    expect(await consumptionOf('2024-03')).toBe('20');
  });

  it('writes nothing when one condition fails, and says which', async () => {
    const before = await consumptionOf('2024-01');
    const refused = await client
      .send(new TransactWriteItemsCommand({ TransactItems: [add('2024-04', 3), add('2024-01', 1, 'm3')] }))
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TransactionCanceledException);
    expect((refused as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'None',
      'ConditionalCheckFailed',
    ]);
    expect(await consumptionOf('2024-04')).toBeUndefined();
    expect(await consumptionOf('2024-01')).toBe(before);
  });

  it('puts and deletes items on their conditions, or writes none of them', async () => {
    const key = (month: string) => ({ [pk]: { S: 'site' }, [sk]: { S: month } });
    const holding = (consumption: string) => ({
      ConditionExpression: 'consumption = :c',
      ExpressionAttributeValues: { ':c': { N: consumption } },
    });
    const put = (month: string, consumption: string, was: string): TransactWriteItem => ({
      Put: {
        TableName: table.tableName,
        Item: { ...key(month), unit: { S: 'kWh' }, consumption: { N: consumption } },
        ...holding(was),
      },
    });
    const remove = (month: string, was: string): TransactWriteItem => ({
      Delete: { TableName: table.tableName, Key: key(month), ...holding(was) },
    });
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [add('2024-06', 4), add('2024-07', 9)],
      }),
    );
    const refused = await client
      .send(
        new TransactWriteItemsCommand({ TransactItems: [put('2024-06', '40', '4'), remove('2024-07', '8')] }),
      )
      .catch((err: unknown) => err);
    expect((refused as TransactionCanceledException).CancellationReasons?.map((r) => r.Code)).toEqual([
      'None',
      'ConditionalCheckFailed',
    ]);
    expect([await consumptionOf('2024-06'), await consumptionOf('2024-07')]).toEqual(['4', '9']);
    await client.send(
      new TransactWriteItemsCommand({ TransactItems: [put('2024-06', '40', '4'), remove('2024-07', '9')] }),
    );
    expect([await consumptionOf('2024-06'), await consumptionOf('2024-07')]).toEqual(['40', undefined]);
  });

  it('refuses two actions on one item', async () => {
    await expect(
      client.send(new TransactWriteItemsCommand({ TransactItems: [add('2024-05', 1), add('2024-05', 1)] })),
    ).rejects.toThrow(/multiple operations on one item/);
    expect(await consumptionOf('2024-05')).toBeUndefined();
  });

  it('writes nothing when an update cannot be applied, though every condition holds', async () => {
    await client.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: { [pk]: { S: 'site' }, [sk]: { S: '2024-08' }, unit: { S: 'kWh' }, consumption: { S: 'ten' } },
      }),
    );
    // The first action could be written on its own; the second adds a number to text.
    const refused = await client
      .send(new TransactWriteItemsCommand({ TransactItems: [add('2024-09', 3), add('2024-08', 1)] }))
      .catch((err: unknown) => err);
    expect((refused as Error).message).toMatch(/incorrect data type/);
    expect(await consumptionOf('2024-09')).toBeUndefined();
  });

  it('keeps an index in step with the items a transaction puts, moves and deletes', async () => {
    const byIndex = async (partition: string) =>
      (
        await client.send(
          new QueryCommand({
            TableName: table.tableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :p',
            ExpressionAttributeValues: { ':p': { S: partition } },
          }),
        )
      ).Items?.map((i) => i[sk]?.S);
    const put = (s: string, partition: string): TransactWriteItem => ({
      Put: {
        TableName: table.tableName,
        Item: { [pk]: { S: 'indexed' }, [sk]: { S: s }, gsi1pk: { S: partition }, gsi1sk: { S: s } },
      },
    });
    await client.send(
      new TransactWriteItemsCommand({ TransactItems: [put('1', 'north'), put('2', 'north')] }),
    );
    expect(await byIndex('north')).toEqual(['1', '2']);
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          put('1', 'south'),
          { Delete: { TableName: table.tableName, Key: { [pk]: { S: 'indexed' }, [sk]: { S: '2' } } } },
        ],
      }),
    );
    expect(await byIndex('north')).toEqual([]);
    expect(await byIndex('south')).toEqual(['1']);
  });
});
