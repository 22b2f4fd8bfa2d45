import {
  type AttributeValue,
  DeleteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTree } from '../../infra/local/dynalite-speedups.ts';
import { TABLE } from '../../shared/system/table.ts';
import { startTestTable, type TestTable } from '../support/dynamo.ts';

/** CRC-32 (IEEE), written out here so the emulator's checksum is compared with an independent one. */
function crc32(text: string): number {
  let crc = -1;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ -1) >>> 0;
}

let table: TestTable;
let client: DynamoDBClient;
const pk = TABLE.partitionKey;
const sk = TABLE.sortKey;

beforeAll(async () => {
  table = await startTestTable(`speedups-${process.pid}`);
  client = new DynamoDBClient({
    region: 'eu-west-2',
    endpoint: table.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  for (const [p, s, name] of [
    ['a', '1', 'Alpha'],
    ['a', '2', 'Beta'],
    ['b', '1', 'Gamma'],
  ] as const) {
    await client.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: { [pk]: { S: p }, [sk]: { S: s }, name: { S: name } },
      }),
    );
  }
});

afterAll(async () => {
  client.destroy();
  await table.stop();
});

const query = (partition: string, extra: Record<string, unknown> = {}) =>
  client.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: '#p = :p',
      ExpressionAttributeNames: { '#p': pk },
      ExpressionAttributeValues: { ':p': { S: partition } },
      ...extra,
    }),
  );

describe('the local DynamoDB emulator with remembered parses and table descriptions', () => {
  it('answers a repeated query the same, and the same text with another value by that value', async () => {
    const first = await query('a');
    const again = await query('a');
    const other = await query('b');
    expect(first.Items?.map((i) => i.name?.S)).toEqual(['Alpha', 'Beta']);
    expect(again.Items).toEqual(first.Items);
    expect(other.Items?.map((i) => i.name?.S)).toEqual(['Gamma']);
  });

  it('still refuses a value the expression does not use, every time it is sent', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(
        query('a', { ExpressionAttributeValues: { ':p': { S: 'a' }, ':x': { S: 'x' } } }),
      ).rejects.toThrow(/unused in expressions/);
    }
  });

  it('still refuses a broken expression every time, with the parser’s message', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(query('a', { KeyConditionExpression: '#p = = :p' })).rejects.toThrow(/Syntax error/);
    }
  });

  it('filters by a remembered filter expression on a fresh copy each time', async () => {
    const filtered = () =>
      query('a', {
        FilterExpression: 'begins_with(#n, :n)',
        ExpressionAttributeNames: { '#p': pk, '#n': 'name' },
        ExpressionAttributeValues: { ':p': { S: 'a' }, ':n': { S: 'Be' } },
      });
    expect((await filtered()).Items?.map((i) => i.name?.S)).toEqual(['Beta']);
    expect((await filtered()).Items?.map((i) => i.name?.S)).toEqual(['Beta']);
  });

  it('adds each call’s own figures when one update expression is sent with different values', async () => {
    const add = (values: Record<string, AttributeValue>) =>
      client.send(
        new UpdateItemCommand({
          TableName: table.tableName,
          Key: { [pk]: { S: 'sum' }, [sk]: { S: '1' } },
          UpdateExpression: 'ADD #total :n SET #label = :label',
          ConditionExpression: 'attribute_not_exists(#label) OR #label = :label',
          ExpressionAttributeNames: { '#total': 'total', '#label': 'label' },
          ExpressionAttributeValues: values,
        }),
      );
    for (const n of [5, 7, -2]) await add({ ':n': { N: String(n) }, ':label': { S: 'kWh' } });
    const item = await client.send(
      new GetItemCommand({ TableName: table.tableName, Key: { [pk]: { S: 'sum' }, [sk]: { S: '1' } } }),
    );
    expect(item.Item?.total?.N).toBe('10');
    // The same text with a value of another type is judged afresh: ADD takes no string.
    await expect(add({ ':n': { S: 'five' }, ':label': { S: 'kWh' } })).rejects.toThrow(/operand type/);
    // And the condition still compares this call's value.
    await expect(add({ ':n': { N: '1' }, ':label': { S: 'MWh' } })).rejects.toThrow(/conditional/i);
  });

  it('judges each conditional delete of one condition text by that call’s own figures', async () => {
    for (const [s, kwh] of [
      ['c1', '10'],
      ['c2', '20'],
    ] as const)
      await client.send(
        new PutItemCommand({
          TableName: table.tableName,
          Item: { [pk]: { S: 'cond' }, [sk]: { S: s }, kwh: { N: kwh }, source: { S: 'import' } },
        }),
      );
    const remove = (s: string, kwh: string) =>
      client.send(
        new DeleteItemCommand({
          TableName: table.tableName,
          Key: { [pk]: { S: 'cond' }, [sk]: { S: s } },
          ConditionExpression: '#f0 = :f0 AND #f1 = :f1',
          ExpressionAttributeNames: { '#f0': 'source', '#f1': 'kwh' },
          ExpressionAttributeValues: { ':f0': { S: 'import' }, ':f1': { N: kwh } },
        }),
      );
    await remove('c1', '10');
    // The same text with c1's figure again: c2 holds 20, so it stays.
    await expect(remove('c2', '10')).rejects.toThrow(/conditional/i);
    await remove('c2', '20');
    expect((await query('cond')).Items).toEqual([]);
  });

  it('judges one condition text by the attributes this call names', async () => {
    await client.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: { [pk]: { S: 'named' }, [sk]: { S: '1' }, kwh: { N: '5' }, cost: { N: '7' } },
      }),
    );
    const remove = (field: string, value: string) =>
      client.send(
        new DeleteItemCommand({
          TableName: table.tableName,
          Key: { [pk]: { S: 'named' }, [sk]: { S: '1' } },
          ConditionExpression: '#f = :v',
          ExpressionAttributeNames: { '#f': field },
          ExpressionAttributeValues: { ':v': { N: value } },
        }),
      );
    await expect(remove('kwh', '7')).rejects.toThrow(/conditional/i);
    // The same text and value, naming the other attribute: it holds 7.
    await remove('cost', '7');
    expect((await query('named')).Items).toEqual([]);
  });

  it('shows a changed table description at once', async () => {
    const before = await client.send(new DescribeTableCommand({ TableName: table.tableName }));
    expect(before.Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    await client.send(
      new UpdateTableCommand({
        TableName: table.tableName,
        BillingMode: 'PROVISIONED',
        ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
        GlobalSecondaryIndexUpdates: TABLE.indexes.map((i) => ({
          Update: {
            IndexName: i.name,
            ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
          },
        })),
      }),
    );
    const after = await client.send(new DescribeTableCommand({ TableName: table.tableName }));
    expect(after.Table?.ProvisionedThroughput?.ReadCapacityUnits).toBe(5);
    expect((await query('a')).Items).toHaveLength(2);
  });

  it('checksums each response with the standard CRC-32 of its body', async () => {
    const res = await fetch(table.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        authorization:
          'AWS4-HMAC-SHA256 Credential=test/20260101/eu-west-2/dynamodb/aws4_request, SignedHeaders=host, Signature=00',
        'x-amz-date': '20260101T000000Z',
      },
      body: '{}',
    });
    const body = await res.text();
    expect(body).toContain('TableNames');
    expect(Number(res.headers.get('x-amz-crc32'))).toBe(crc32(body));
  });
});

describe('the copies handed to dynalite', () => {
  it('are deep: changing a copy leaves the remembered tree as it was', () => {
    const tree = {
      expression: { type: 'or', args: [{ type: '<>', args: [['deleted'], { BOOL: true }] }, null] },
      pathHeads: { deleted: true },
      count: 2,
    };
    const copy = cloneTree(tree);
    expect(copy).toEqual(tree);
    (copy.expression.args[0] as { args: unknown[] }).args.push('changed');
    copy.pathHeads.deleted = false;
    expect(tree.expression.args[0]).toEqual({ type: '<>', args: [['deleted'], { BOOL: true }] });
    expect(tree.pathHeads.deleted).toBe(true);
    expect(Array.isArray(copy.expression.args)).toBe(true);
  });
});
