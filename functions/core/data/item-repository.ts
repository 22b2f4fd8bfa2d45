import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { findResource } from '../../../shared/system/resources.ts';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { INDEX_NAMES, keys, type Scope } from './keys.ts';

export type StoredItem = Record<string, unknown> & { _id: string };

/** Attributes that exist only for the table's keys and indexes: never returned to callers. */
const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'searchText'] as const;

const KEY_ATTRIBUTE_SET: ReadonlySet<string> = new Set(KEY_ATTRIBUTES);

/**
 * Built by copying the other attributes rather than deleting the keys from a copy: `delete` turns an object
 * into a slow dictionary, and every list answer then sorts, spreads and serialises such objects (about twice
 * the time for a page of sites).
 */
export function stripKeys(item: Record<string, unknown>): StoredItem {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(item)) if (!KEY_ATTRIBUTE_SET.has(k)) out[k] = item[k];
  return out as StoredItem;
}

export interface CollectionRef {
  pk: string;
  /** Fields with a generic index, in index order. */
  indexes: readonly string[];
  searchFields: readonly string[];
}

/** A declared resource's collection in a scope (a company's, or the global one), with its indexes. */
export function declaredRef(name: string, scope: Scope): CollectionRef {
  const decl = findResource(name);
  if (!decl) throw new Error(`The ${name} resource is not declared`);
  return { pk: keys.collection(scope, name), indexes: decl.indexes ?? [], searchFields: decl.searchFields };
}

export interface ListQuery {
  /** Equality filters on item fields; a value list matches any of its values. */
  filters: Record<string, string | number | boolean | readonly (string | number | boolean)[]>;
  limit: number;
  skip: number;
  includeDeleted?: boolean;
  /** Lower-cased text that the item's search text must contain. */
  text?: string;
  /** Newest first (ids sort by creation time). */
  descending?: boolean;
}

export interface ListResult {
  data: StoredItem[];
  total: number;
}

function getPath(item: Record<string, unknown>, path: string): unknown {
  let current: unknown = item;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Lower-cased text of the searchable fields, stored on the item so search is one filtered Query. */
export function searchTextOf(item: Record<string, unknown>, fields: readonly string[]): string | undefined {
  const parts = fields
    .map((f) => getPath(item, f))
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map((v) => String(v).toLowerCase());
  return parts.length > 0 ? parts.join(' \u0001 ') : undefined;
}

/** Key and index attributes for an item of a collection. */
export function keyAttributes(ref: CollectionRef, item: StoredItem): Record<string, string> {
  const attrs: Record<string, string> = { pk: ref.pk, sk: item._id };
  ref.indexes.forEach((field, i) => {
    const value = getPath(item, field);
    const index = INDEX_NAMES[i];
    if (index && value !== undefined && value !== null && value !== '') {
      attrs[`${index}pk`] = keys.indexed(ref.pk, field, String(value));
      attrs[`${index}sk`] = item._id;
    }
  });
  const text = searchTextOf(item, ref.searchFields);
  if (text) attrs.searchText = text;
  return attrs;
}

/**
 * The database refuses a sort key that is empty or longer than 1024 bytes, so no item has one: an id like
 * that (from a path or a body) names nothing, and reading it answers "absent" rather than failing.
 */
export const isPossibleKey = (sk: string): boolean => sk.length > 0 && Buffer.byteLength(sk, 'utf8') <= 1024;

export async function getItem(pk: string, sk: string): Promise<StoredItem | undefined> {
  if (!isPossibleKey(sk)) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: config().tableName, Key: { pk, sk } }));
  return out.Item ? stripKeys(out.Item) : undefined;
}

export async function getRaw(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
  if (!isPossibleKey(sk)) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: config().tableName, Key: { pk, sk } }));
  return out.Item;
}

/** Writes an item with its keys. `mustNotExist` makes a create idempotent-safe: a second create of the same id fails. */
export async function putItem(
  ref: CollectionRef,
  item: StoredItem,
  opts: { mustNotExist?: boolean; mustExist?: boolean } = {},
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { ...item, ...keyAttributes(ref, item) },
      ...(opts.mustNotExist ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
      ...(opts.mustExist ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
    }),
  );
}

/** A write refused because its condition did not hold. */
export const isConditionFailure = (err: unknown): boolean =>
  (err as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

/** Writes an item with its keys when the condition holds; answers whether it was written. */
export async function putItemIf(
  ref: CollectionRef,
  item: StoredItem,
  condition: Pick<
    PutCommandInput,
    'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: { ...item, ...keyAttributes(ref, item) },
        ...condition,
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function putRaw(item: Record<string, unknown>): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: config().tableName, Item: item }));
}

export async function updateRaw(
  pk: string,
  sk: string,
  set: Record<string, unknown>,
  remove: string[] = [],
): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(set).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((k, i) => {
    names[`#r${i}`] = k;
    return `#r${i}`;
  });
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: { pk, sk },
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    }),
  );
}

interface BuiltQuery {
  base: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey' | 'Select'>;
}

function buildQuery(ref: CollectionRef, q: ListQuery): BuiltQuery {
  const names: Record<string, string> = { '#pk': 'pk' };
  const values: Record<string, unknown> = { ':pk': ref.pk };
  let indexName: string | undefined;
  let keyCondition = '#pk = :pk';
  const conditions: string[] = [];
  let n = 0;

  // One equality filter on an indexed field turns the list into a Query of that index.
  const indexedFilter = Object.entries(q.filters).find(
    ([field, value]) => ref.indexes.includes(field) && !Array.isArray(value),
  );
  if (indexedFilter) {
    const [field, value] = indexedFilter;
    const i = ref.indexes.indexOf(field);
    const index = INDEX_NAMES[i] as string;
    indexName = index;
    names['#pk'] = `${index}pk`;
    values[':pk'] = keys.indexed(ref.pk, field, String(value));
    keyCondition = '#pk = :pk';
  }

  for (const [field, value] of Object.entries(q.filters)) {
    if (indexedFilter && field === indexedFilter[0]) continue;
    const path = field.split('.').map((part) => {
      const name = `#f${n++}`;
      names[name] = part;
      return name;
    });
    const attr = path.join('.');
    const list = Array.isArray(value) ? value : [value];
    const placeholders = list.map((v) => {
      const p = `:v${n++}`;
      values[p] = v;
      return p;
    });
    conditions.push(
      placeholders.length === 1 ? `${attr} = ${placeholders[0]}` : `${attr} IN (${placeholders.join(', ')})`,
    );
  }
  if (!q.includeDeleted) {
    names['#deleted'] = 'deleted';
    values[':true'] = true;
    conditions.push('(attribute_not_exists(#deleted) OR #deleted <> :true)');
  }
  if (q.text) {
    names['#searchText'] = 'searchText';
    values[':text'] = q.text.toLowerCase();
    conditions.push('contains(#searchText, :text)');
  }
  return {
    base: {
      TableName: config().tableName,
      IndexName: indexName,
      KeyConditionExpression: keyCondition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ...(conditions.length ? { FilterExpression: conditions.join(' AND ') } : {}),
      ScanIndexForward: !q.descending,
    },
  };
}

/**
 * A page of a collection with its total, as `{ data, total }`. Reads only the collection's partition
 * (or one index partition when a filter names an indexed field): never a Scan.
 */
export async function listItems(ref: CollectionRef, q: ListQuery): Promise<ListResult> {
  const { base } = buildQuery(ref, q);
  const client = documentClient();
  const wanted = q.skip + q.limit;
  const data: StoredItem[] = [];
  let seen = 0;
  let startKey: Record<string, unknown> | undefined;
  // The page: stop reading as soon as skip + limit matching items have gone by.
  while (seen < wanted) {
    const out = await client.send(new QueryCommand({ ...base, ExclusiveStartKey: startKey }));
    for (const raw of out.Items ?? []) {
      if (seen >= q.skip && data.length < q.limit) data.push(stripKeys(raw));
      seen++;
    }
    startKey = out.LastEvaluatedKey;
    if (!startKey) return { data, total: seen };
  }
  // The total: a COUNT query moves no item bodies, only the number.
  let total = 0;
  let countKey: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new QueryCommand({ ...base, Select: 'COUNT', ExclusiveStartKey: countKey }),
    );
    total += out.Count ?? 0;
    countKey = out.LastEvaluatedKey;
  } while (countKey);
  return { data, total };
}

/** Every item a query matches, page after page, without the key attributes. */
export async function queryEvery(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
  const out: StoredItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({ ...input, TableName: config().tableName, ExclusiveStartKey: startKey }),
    );
    for (const raw of page.Items ?? []) out.push(stripKeys(raw));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}

/** Every item of a partition, for internal use on bounded collections (a user's grants, a company's roles). */
export async function queryAll(pk: string): Promise<StoredItem[]> {
  return queryEvery({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
}

export async function deleteRaw(pk: string, sk: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: config().tableName, Key: { pk, sk } }));
}
