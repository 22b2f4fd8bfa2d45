import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { compareOrderKeys } from '../../../shared/domain/order-key.ts';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { eachQueried } from './query-pages.ts';

/**
 * What a plain list (no filter, no text, live items only) needs besides its page, kept beside each
 * collection so a page never reads or counts the whole partition:
 *
 * - a counter item: `live` is moved with ADD by every write that makes an item live or not live,
 *   `offset` ties it to the items that were there before counting began (total = live + offset),
 *   `pending` is raised before such a write and lowered after it, `seq` moves with every change of the
 *   live set. A total is trusted only while nothing is pending; a write that died half-way leaves
 *   `pending` raised and lists count the partition instead, which is slow but never wrong.
 * - bookmarks: the key of every BOOKMARK_EVERY-th live item, in shards, each stamped with the `seq` it was
 *   read at. A shard whose stamp differs from the counter's `seq` is never used: a deep page then reads
 *   the partition once and writes the bookmarks anew.
 */
export const BOOKMARK_EVERY = 20;
const BOOKMARKS_PER_SHARD = 250;

const summaryKey = (collectionPk: string) => ({ pk: `${collectionPk}#list`, sk: 'summary' });
const shardKey = (collectionPk: string, kind: string, shard: number) => ({
  pk: `${collectionPk}#list`,
  sk: `${kind}#${shard}`,
});

export interface ListSummary {
  live: number;
  seq: number;
  pending: number;
  offset?: number;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

export async function readSummary(collectionPk: string): Promise<ListSummary> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: summaryKey(collectionPk), ConsistentRead: true }),
  );
  const item = out.Item ?? {};
  return {
    live: num(item.live),
    seq: num(item.seq),
    pending: num(item.pending),
    ...(typeof item.offset === 'number' ? { offset: item.offset } : {}),
  };
}

/** The trusted total, or undefined when the counter is not tied to the items or a write is under way. */
export const totalOf = (s: ListSummary): number | undefined =>
  s.offset !== undefined && s.pending === 0 ? s.live + s.offset : undefined;

/** Announces a write that may change the live set; `finishChange` must follow, whatever happens. */
export async function beginChange(collectionPk: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: summaryKey(collectionPk),
      UpdateExpression: 'ADD pending :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

/** Ends a change; `moved`: the write changed the ordered index without changing the live count. */
export async function finishChange(collectionPk: string, liveDelta: number, moved = false): Promise<void> {
  const shifts = liveDelta !== 0 || moved;
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: summaryKey(collectionPk),
      UpdateExpression: shifts ? 'ADD pending :minus, live :d, seq :one' : 'ADD pending :minus',
      ExpressionAttributeValues: shifts ? { ':minus': -1, ':d': liveDelta, ':one': 1 } : { ':minus': -1 },
    }),
  );
}

/** Runs a write between `beginChange` and `finishChange`; the write answers how it moved the live count. */
export async function withChange<T>(
  collectionPk: string,
  write: () => Promise<{ result: T; liveDelta: number; moved?: boolean }>,
): Promise<T> {
  await beginChange(collectionPk);
  let delta = 0;
  let moved = false;
  try {
    const out = await write();
    delta = out.liveDelta;
    moved = out.moved ?? false;
    return out.result;
  } finally {
    await finishChange(collectionPk, delta, moved);
  }
}

/**
 * Forgets what the counter knew of the items (hard deletes of keys that may or may not have been there):
 * the next plain list counts the partition and ties the counter to it again.
 */
export async function forgetCount(collectionPk: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: summaryKey(collectionPk),
      UpdateExpression: 'REMOVE #offset ADD seq :one',
      ExpressionAttributeNames: { '#offset': 'offset' },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

export type Key = Record<string, string>;

/** Where a collection keeps its ordered index, for the rebuild to check and mend. */
export interface OrderedIndex {
  field: string;
  /** Index attribute names, e.g. gsi3pk and gsi3sk. */
  pkAttr: string;
  skAttr: string;
  sortKey: (value: unknown, id: string) => string;
}

/** Puts one item where it belongs in the ordered index, unless it changed since it was read. */
async function mendPlace(
  collectionPk: string,
  raw: Record<string, unknown>,
  ordered: OrderedIndex,
  place: string | undefined,
): Promise<void> {
  const names: Record<string, string> = {
    '#opk': ordered.pkAttr,
    '#osk': ordered.skAttr,
    '#f': ordered.field,
  };
  const values: Record<string, unknown> = {};
  const value = raw[ordered.field];
  let condition = 'attribute_exists(pk)';
  if (value === undefined) condition += ' AND attribute_not_exists(#f)';
  else {
    values[':f'] = value;
    condition += ' AND #f = :f';
  }
  if (place) {
    values[':opk'] = collectionPk;
    values[':osk'] = place;
  }
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: collectionPk, sk: String(raw.sk) },
        UpdateExpression: place ? 'SET #opk = :opk, #osk = :osk' : 'REMOVE #opk, #osk',
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      }),
    );
  } catch (err) {
    // Changed meanwhile: that write placed it, and moved the counter's seq, so nothing is tied to this read.
    if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
  }
}

/**
 * Reads the partition's live keys once (consistently, in key order) and, when no write moved the live
 * set meanwhile, ties the counter to them and stores the bookmarks of both orders. Items written before
 * the ordered index existed are put in it on the way. Answers the live count either way.
 */
export async function rebuildSummary(
  collectionPk: string,
  ordered?: OrderedIndex,
): Promise<{ total: number }> {
  const before = await readSummary(collectionPk);
  const client = documentClient();
  const bookmarks: string[] = [];
  const places: string[] = [];
  let count = 0;
  const names: Record<string, string> = { '#pk': 'pk', '#sk': 'sk', '#deleted': 'deleted' };
  if (ordered) Object.assign(names, { '#osk': ordered.skAttr, '#f': ordered.field });
  await eachQueried(
    {
      KeyConditionExpression: '#pk = :pk',
      ProjectionExpression: ordered ? '#pk, #sk, #deleted, #osk, #f' : '#pk, #sk, #deleted',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':pk': collectionPk },
      ConsistentRead: true,
    },
    async (raw) => {
      const live = raw.deleted !== true;
      if (ordered) {
        const place = live ? ordered.sortKey(raw[ordered.field], String(raw.sk)) : undefined;
        if (raw[ordered.skAttr] !== place) await mendPlace(collectionPk, raw, ordered, place);
        if (place) places.push(place);
      }
      if (!live) return;
      count++;
      if (count % BOOKMARK_EVERY === 0) bookmarks.push(String(raw.sk));
    },
  );
  const after = await readSummary(collectionPk);
  const quiet = before.pending === 0 && after.pending === 0 && before.seq === after.seq;
  if (!quiet) return { total: count };
  const tie = async () => {
    try {
      await client.send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: summaryKey(collectionPk),
          UpdateExpression: 'SET #offset = :offset',
          ConditionExpression:
            '(attribute_not_exists(seq) OR seq = :seq) AND (attribute_not_exists(live) OR live = :live) AND (attribute_not_exists(pending) OR pending = :zero)',
          ExpressionAttributeNames: { '#offset': 'offset' },
          ExpressionAttributeValues: {
            ':offset': count - after.live,
            ':seq': after.seq,
            ':live': after.live,
            ':zero': 0,
          },
        }),
      );
      return true;
    } catch (err) {
      if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw err;
    }
  };
  if (!(await tie())) return { total: count };
  places.sort(compareOrderKeys);
  const orderedMarks = places.filter((_, i) => (i + 1) % BOOKMARK_EVERY === 0);
  await storeShards(collectionPk, 'bookmarks', bookmarks, after.seq);
  if (ordered) await storeShards(collectionPk, 'ordered', orderedMarks, after.seq);
  return { total: count };
}

async function storeShards(collectionPk: string, kind: Order, marks: string[], seq: number) {
  for (let shard = 0; shard * BOOKMARKS_PER_SHARD < Math.max(marks.length, 1); shard++) {
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: {
          ...shardKey(collectionPk, kind, shard),
          seq,
          keys: marks.slice(shard * BOOKMARKS_PER_SHARD, (shard + 1) * BOOKMARKS_PER_SHARD),
        },
      }),
    );
  }
}

export type Order = 'bookmarks' | 'ordered';

/**
 * The key to start after to reach the live item at `position` (0-based) in key order or in the ordered
 * index, how many live items are still to pass from there, and the `seq` of the live set the bookmark
 * was taken in (undefined from the very start, which needs no bookmark). The caller uses it only when
 * that `seq` is the counter's; undefined when no bookmark is stored for the place.
 */
export async function startNear(
  collectionPk: string,
  position: number,
  ordered?: OrderedIndex,
): Promise<{ startKey?: Key; pass: number; seq?: number } | undefined> {
  const mark = Math.floor(position / BOOKMARK_EVERY);
  if (mark === 0) return { pass: position };
  const index = mark - 1;
  const shard = Math.floor(index / BOOKMARKS_PER_SHARD);
  const out = await documentClient().send(
    new GetCommand({
      TableName: config().tableName,
      Key: shardKey(collectionPk, ordered ? 'ordered' : 'bookmarks', shard),
    }),
  );
  const seq = out.Item?.seq;
  const value = (out.Item?.keys as unknown[] | undefined)?.[index % BOOKMARKS_PER_SHARD];
  if (typeof seq !== 'number' || typeof value !== 'string') return undefined;
  const pass = position - mark * BOOKMARK_EVERY;
  if (!ordered) return { startKey: { pk: collectionPk, sk: value }, pass, seq };
  const sk = value.slice(value.lastIndexOf('\u0000') + 1);
  return {
    startKey: { pk: collectionPk, sk, [ordered.pkAttr]: collectionPk, [ordered.skAttr]: value },
    pass,
    seq,
  };
}
