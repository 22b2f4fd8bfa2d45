import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { inPool } from '../lib/in-pool.ts';
import { type StoredItem, stripKeys } from './item-repository.ts';
import { keys, type Scope } from './keys.ts';
import { eachQueried } from './query-pages.ts';

const BATCH_GET_SIZE = 100;
const MAX_ATTEMPTS = 8;

/**
 * Reads items by key, a hundred to a request and `concurrency` requests at once, asking again (with a
 * growing wait) for what the table left unprocessed. Each item found goes to `onItem` as stored;
 * `consistent` reads them as the last write left them.
 */
export async function eachBatchGot(
  keys: readonly { pk: string; sk: string }[],
  onItem: (raw: Record<string, unknown>) => void,
  concurrency = 1,
  consistent = false,
): Promise<void> {
  const tableName = config().tableName;
  const batches: { pk: string; sk: string }[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_SIZE) batches.push(keys.slice(i, i + BATCH_GET_SIZE));
  await inPool(batches, concurrency, async (batch) => {
    let pending: Record<string, unknown>[] = batch.map(({ pk, sk }) => ({ pk, sk }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new Error('The table kept refusing a batch of reads');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await documentClient().send(
        new BatchGetCommand({
          RequestItems: { [tableName]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } },
        }),
      );
      for (const raw of out.Responses?.[tableName] ?? []) onItem(raw);
      pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  });
}

/**
 * Items of one collection by id, in as few round trips as the table allows; absent ids are left out.
 * `consistent` reads them as the last write left them (twice the read capacity).
 */
export async function getItems(
  pk: string,
  ids: readonly string[],
  opts: { consistent?: boolean } = {},
): Promise<Map<string, StoredItem>> {
  const found = new Map<string, StoredItem>();
  await eachBatchGot(
    [...new Set(ids)].map((sk) => ({ pk, sk })),
    (raw) => {
      const item = stripKeys(raw);
      found.set(item._id, item);
    },
    1,
    opts.consistent === true,
  );
  return found;
}

/** Items of a resource's collection in a scope by id, as `getItems` reads them. */
export const getCollectionItems = (
  scope: Scope,
  resource: string,
  ids: readonly string[],
  opts: { consistent?: boolean } = {},
): Promise<Map<string, StoredItem>> => getItems(keys.collection(scope, resource), ids, opts);

/**
 * A few fields of every live item of a partition: for summaries over large collections (assets per
 * entity) without moving whole items.
 */
export async function projectAll(
  pk: string,
  fields: readonly string[],
  opts: { consistent?: boolean } = {},
): Promise<StoredItem[]> {
  const names: Record<string, string> = { '#id': '_id', '#deleted': 'deleted' };
  fields.forEach((f, i) => {
    names[`#p${i}`] = f;
  });
  const projection = ['#id', '#deleted', ...fields.map((_, i) => `#p${i}`)].join(', ');
  const out: StoredItem[] = [];
  await eachQueried(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ExpressionAttributeNames: names,
      ProjectionExpression: projection,
      ...(opts.consistent ? { ConsistentRead: true } : {}),
    },
    (raw) => {
      if (raw.deleted !== true) out.push(raw as StoredItem);
    },
  );
  return out;
}
