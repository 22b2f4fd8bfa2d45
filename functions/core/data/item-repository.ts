/**
 * | pattern                                    | key condition                                             | index      |
 * | ------------------------------------------ | --------------------------------------------------------- | ---------- |
 * | one item by id                             | pk = {collection}, sk = id                                | table      |
 * | items of a collection by id, batched       | pk = {collection}, sk = each id (BatchGet)                | table      |
 * | a sub-resource's items (site documents)    | pk = {collection}#{parentId}#{sub}, sk = id               | table      |
 * | write / update / delete an item            | pk = {collection}, sk = id (conditional as asked)         | table      |
 * | every item of a partition                  | pk = {partition}                                          | table      |
 * | a filtered or searched page, and its count | pk = {collection}, filter fields, contains(searchText)    | table      |
 * | a page filtered on an indexed field        | gsi1pk or gsi2pk = {collection}#{field}#{value}, sk = id  | gsi1, gsi2 |
 * | a plain page by id                         | pk = {collection}, from a bookmark                        | table      |
 * | a plain page in declared order             | gsi3pk = {collection}, gsi3sk = {order key}\0{id}         | gsi3       |
 * | a collection's live count                  | pk = {collection}#list, sk = summary                      | table      |
 * | bookmarks of a plain list                  | pk = {collection}#list, sk = bookmarks#{n} or ordered#{n} | table      |
 * | the company's access version and site mark | pk = C#{companyId}#access, sk = version                   | table      |
 * | the company's change marks (site writes)   | pk = C#{companyId}#changes, sk = marks                    | table      |
 *
 * {collection} is `C#{companyId}#{resource}`, or `G#{resource}` for a global one; the counter and
 * bookmarks are kept by list-summary.ts, the access version by access-version.ts, the marks by change-marks.ts.
 */

import { randomBytes } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  type PutCommandInput,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { orderKey } from '../../../shared/domain/order-key.ts';
import { findResource } from '../../../shared/system/resources.ts';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { changesAccess, moveAccessStamp, watchedOf } from './access-version.ts';
import { sitesCompanyOf, writingSites } from './change-marks.ts';
import { INDEX_NAMES, keys, ORDERED_INDEX, type Scope } from './keys.ts';
import {
  BOOKMARK_EVERY,
  type OrderedIndex,
  readSummary,
  rebuildSummary,
  startNear,
  totalOf,
  withChange,
} from './list-summary.ts';
import { countQueried, eachQueried, queryMapped, type TableQuery } from './query-pages.ts';

export type StoredItem = Record<string, unknown> & { _id: string };

/** Attributes that exist only for the table's keys and indexes: never returned to callers. */
const KEY_ATTRIBUTES = [
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'searchText',
  '_rev',
] as const;

/**
 * Every write of an item gives it a new revision, a random token nobody else will draw: a writer that read
 * revision r and writes on condition `_rev = r` fails if anything (another request, a worker) wrote in
 * between, whatever it wrote, so read-change-write cycles can retry instead of losing the other change.
 */
export const REVISION_ATTRIBUTE = '_rev';
export const newRevision = (): string => randomBytes(12).toString('hex');

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
  return collectionRef(scope, decl);
}

/** The collection of a resource as the caller holds its declaration (name, indexes, search fields). */
export function collectionRef(
  scope: Scope,
  resource: { name: string; indexes?: readonly string[]; searchFields: readonly string[] },
): CollectionRef {
  return {
    pk: keys.collection(scope, resource.name),
    indexes: resource.indexes ?? [],
    searchFields: resource.searchFields,
  };
}

/** Items that belong to one item (a site's documents, a project's files): no indexes, no search. */
export function subCollectionRef(
  scope: Scope,
  resource: string,
  parentId: string,
  sub: string,
): CollectionRef {
  return { pk: keys.subCollection(scope, resource, parentId, sub), indexes: [], searchFields: [] };
}

export interface ListQuery {
  /** Equality filters on item fields; a value list matches any of its values. */
  filters: Record<string, string | number | boolean | readonly (string | number | boolean)[]>;
  limit: number;
  skip: number;
  includeDeleted?: boolean;
  /** Lower-cased text that the item's search text must contain. */
  text?: string;
  /** Newest first (ids sort by creation time); with `ordered`, the declared order reversed. */
  descending?: boolean;
  /** In the resource's declared order (ResourceDecl.orderBy) rather than by id; only for plain lists. */
  ordered?: boolean;
  /**
   * A plain list's total as the caller already knows it for the live set as it stands (kept under a mark
   * that moves with every write to the collection): a first page then reads no counter.
   */
  knownTotal?: number;
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
  const ordered = orderedFieldOf(ref.pk);
  // Only live items are in the ordered index, so a page of it needs no filter and its count is the total.
  if (ordered && item.deleted !== true) {
    attrs[`${ORDERED_INDEX}pk`] = ref.pk;
    attrs[`${ORDERED_INDEX}sk`] = orderedSortKey(item[ordered], item._id);
  }
  return attrs;
}

/** The ordered index's sort key: the field's order key, then the id for items of the same name. */
export const orderedSortKey = (value: unknown, id: string): string => `${orderKey(value)}\u0000${id}`;

/**
 * The field a collection is kept in order by, from its partition key alone (a company's or the global
 * collection of a resource that declares `orderBy`), so every writer of the collection keeps the index.
 */
export function orderedFieldOf(pk: string): string | undefined {
  const match = /^(?:C#[^#]+|G)#([a-z-]+)$/.exec(pk);
  return match ? findResource(match[1] as string)?.orderBy : undefined;
}

/**
 * The database refuses a sort key that is empty or longer than 1024 bytes, so no item has one: an id like
 * that (from a path or a body) names nothing, and reading it answers "absent" rather than failing.
 */
export const isPossibleKey = (sk: string): boolean => sk.length > 0 && Buffer.byteLength(sk, 'utf8') <= 1024;

/** One item by key; `consistent` reads it as the last write left it (twice the read capacity). */
export async function getItem(
  pk: string,
  sk: string,
  opts: { consistent?: boolean } = {},
): Promise<StoredItem | undefined> {
  if (!isPossibleKey(sk)) return undefined;
  const out = await documentClient().send(
    new GetCommand({
      TableName: config().tableName,
      Key: { pk, sk },
      ...(opts.consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return out.Item ? stripKeys(out.Item) : undefined;
}

/** One item of a resource's collection in a scope, by id. */
export const getCollectionItem = (
  scope: Scope,
  resource: string,
  id: string,
  opts: { consistent?: boolean } = {},
): Promise<StoredItem | undefined> => getItem(keys.collection(scope, resource), id, opts);

/** The field a resource's collection in a scope is kept in order by (its declared `orderBy`), if any. */
export const collectionOrderField = (scope: Scope, resource: string): string | undefined =>
  orderedFieldOf(keys.collection(scope, resource));

export async function getRaw(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
  if (!isPossibleKey(sk)) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: config().tableName, Key: { pk, sk } }));
  return out.Item;
}

/** Partitions whose live items are counted for plain lists: a company's or the global collections. */
const isCounted = (pk: string): boolean => /^(C#[^#]+|G)#/.test(pk) && !/#(list|access)$/.test(pk);

const isLive = (item: Record<string, unknown> | undefined): boolean =>
  item !== undefined && item.deleted !== true;

type Condition = Pick<
  PutCommandInput,
  'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
>;

/**
 * Holds when the stored item exists, is live (or not) as `item` will be, and keeps its place in the
 * ordered index: the write moves no count and no page boundary.
 */
function sameLiveness(item: Record<string, unknown>): Condition {
  const names: Record<string, string> = { '#lvDeleted': 'deleted' };
  const values: Record<string, unknown> = { ':lvTrue': true };
  let expression = isLive(item)
    ? 'attribute_exists(pk) AND (attribute_not_exists(#lvDeleted) OR #lvDeleted <> :lvTrue)'
    : '#lvDeleted = :lvTrue';
  if (orderedFieldOf(String(item.pk))) {
    names['#lvOrder'] = `${ORDERED_INDEX}sk`;
    const place = item[`${ORDERED_INDEX}sk`];
    if (typeof place === 'string') {
      values[':lvOrder'] = place;
      expression += ' AND #lvOrder = :lvOrder';
    } else expression += ' AND attribute_not_exists(#lvOrder)';
  }
  return {
    ConditionExpression: expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Whether a write moved an item in the ordered index (in, out, or to another place). */
const movedInOrder = (
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
) => before?.[`${ORDERED_INDEX}sk`] !== after?.[`${ORDERED_INDEX}sk`];

function both(a: Condition, b: Condition): Condition {
  if (!a.ConditionExpression) return b;
  return {
    ConditionExpression: `(${a.ConditionExpression}) AND (${b.ConditionExpression})`,
    ExpressionAttributeNames: { ...a.ExpressionAttributeNames, ...b.ExpressionAttributeNames },
    ExpressionAttributeValues: { ...a.ExpressionAttributeValues, ...b.ExpressionAttributeValues },
  };
}

async function afterAccessWrite(
  pk: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): Promise<void> {
  const watched = watchedOf(pk);
  const version = watched !== undefined && changesAccess(watched, before, after);
  const sitesOf = sitesCompanyOf(pk);
  // One write moves both when a site write also changes access (a new site, a rename, a move).
  if (watched && (version || sitesOf))
    await moveAccessStamp(watched.companyId, { version, sites: !!sitesOf, siteId: siteIdOf(before, after) });
}

const siteIdOf = (...items: (Record<string, unknown> | undefined)[]): string | undefined => {
  const sk = items.find((i) => typeof i?.sk === 'string')?.sk;
  return typeof sk === 'string' ? sk : undefined;
};

/** A write to a site moves the company's site list mark (lists show whole sites). */
async function afterSiteWrite(
  pk: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): Promise<void> {
  const companyId = sitesCompanyOf(pk);
  if (companyId) await moveAccessStamp(companyId, { sites: true, siteId: siteIdOf(before, after) });
}

/**
 * Runs a write to a company's site under its site marks, moved before and after it with the site named
 * in the marks' journals (change-marks.ts): a site table or list kept from before the write is not
 * trusted after it, even when the writer dies between the write and the second move.
 */
function underSitesMark<T>(pk: string, sk: string, write: () => Promise<T>): Promise<T> {
  const companyId = sitesCompanyOf(pk);
  return companyId ? writingSites(companyId, [sk], write) : write();
}

/**
 * Puts a whole item and keeps its collection's live count and the company's access version in step.
 * A write that leaves the item as live as it was (most updates) is one conditional put; one that may change
 * that (a create, a delete, a restore) is announced on the counter first and counted from the old item.
 */
async function putCounted(item: Record<string, unknown>, condition: Condition): Promise<void> {
  await underSitesMark(String(item.pk), String(item.sk), () => putCountedUnmarked(item, condition));
}

async function putCountedUnmarked(item: Record<string, unknown>, condition: Condition): Promise<void> {
  const stored: Record<string, unknown> = { ...item, [REVISION_ATTRIBUTE]: newRevision() };
  const pk = String(stored.pk);
  const client = documentClient();
  const put = (c: Condition) =>
    client.send(
      new PutCommand({ TableName: config().tableName, Item: stored, ...c, ReturnValues: 'ALL_OLD' }),
    );
  if (!isCounted(pk)) {
    await put(condition);
    return;
  }
  const creates = condition.ConditionExpression?.includes('attribute_not_exists(pk)') ?? false;
  if (!creates) {
    try {
      const out = await put(both(condition, sameLiveness(stored)));
      await afterAccessWrite(pk, out.Attributes, stored);
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
  let before: Record<string, unknown> | undefined;
  await withChange(pk, async () => {
    const out = await put(condition);
    before = out.Attributes;
    return {
      result: undefined,
      liveDelta: Number(isLive(stored)) - Number(isLive(before)),
      moved: movedInOrder(before, stored),
    };
  });
  await afterAccessWrite(pk, before, stored);
}

/** Writes an item with its keys. `mustNotExist` makes a create idempotent-safe: a second create of the same id fails. */
export async function putItem(
  ref: CollectionRef,
  item: StoredItem,
  opts: { mustNotExist?: boolean; mustExist?: boolean } = {},
): Promise<void> {
  await putCounted(
    { ...item, ...keyAttributes(ref, item) },
    opts.mustNotExist
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : opts.mustExist
        ? { ConditionExpression: 'attribute_exists(pk)' }
        : {},
  );
}

/** A write refused because its condition did not hold. */
export const isConditionFailure = (err: unknown): boolean =>
  (err as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

/** Writes an item with its keys when the condition holds; answers whether it was written. */
export async function putItemIf(
  ref: CollectionRef,
  item: StoredItem,
  condition: Condition,
): Promise<boolean> {
  try {
    await putCounted({ ...item, ...keyAttributes(ref, item) }, condition);
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function putRaw(item: Record<string, unknown>): Promise<void> {
  await putCounted(item, {});
}

/** Writes an item that carries its own keys when the condition holds; answers whether it was written. */
export async function putRawIf(item: Record<string, unknown>, condition: Condition): Promise<boolean> {
  try {
    await putCounted(item, condition);
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

const LIVENESS_FIELDS = new Set(['deleted', 'parentEntityId', 'entityId', 'assetId']);

export async function updateRaw(
  pk: string,
  sk: string,
  set: Record<string, unknown>,
  remove: string[] = [],
): Promise<void> {
  await underSitesMark(pk, sk, () => updateRawUnmarked(pk, sk, set, remove));
}

async function updateRawUnmarked(
  pk: string,
  sk: string,
  set: Record<string, unknown>,
  remove: string[],
): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries({ ...set, [REVISION_ATTRIBUTE]: newRevision() }).map(([k, v], i) => {
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
  const update = async () => {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk, sk },
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_OLD',
      }),
    );
    const before = out.Attributes;
    const after = before ? { ...before, ...set } : undefined;
    for (const k of remove) if (after) delete after[k];
    return { before, after };
  };
  const ordered = orderedFieldOf(pk);
  const touches = [...Object.keys(set), ...remove].some((k) => LIVENESS_FIELDS.has(k) || k === ordered);
  if (!touches || !isCounted(pk)) {
    const { before, after } = await update();
    if (watchedOf(pk) && !watchedOf(pk)?.links) await afterAccessWrite(pk, before, after);
    else await afterSiteWrite(pk, before, after);
    return;
  }
  let change: { before?: Record<string, unknown>; after?: Record<string, unknown> } = {};
  await withChange(pk, async () => {
    change = await update();
    if (ordered && change.after) await placeInOrder(pk, sk, ordered, change.after);
    return {
      result: undefined,
      liveDelta: Number(isLive(change.after)) - Number(isLive(change.before)),
      moved: ordered !== undefined,
    };
  });
  await afterAccessWrite(pk, change.before, change.after);
}

/** Puts an item changed field by field where its live state and ordered field now place it. */
async function placeInOrder(pk: string, sk: string, field: string, after: Record<string, unknown>) {
  const live = isLive(after);
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: { pk, sk },
      UpdateExpression: live ? 'SET #opk = :opk, #osk = :osk' : 'REMOVE #opk, #osk',
      ExpressionAttributeNames: { '#opk': `${ORDERED_INDEX}pk`, '#osk': `${ORDERED_INDEX}sk` },
      ...(live
        ? { ExpressionAttributeValues: { ':opk': pk, ':osk': orderedSortKey(after[field], sk) } }
        : {}),
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

/** Reads `count` items that the query matches after passing `pass` of them, from `startKey` on. */
async function readRun(
  base: BuiltQuery['base'],
  startKey: Record<string, unknown> | undefined,
  pass: number,
  count: number,
  paged = true,
): Promise<{ data: StoredItem[]; seen: number; next?: Record<string, unknown> }> {
  const data: StoredItem[] = [];
  let seen = 0;
  if (count <= 0) return { data, seen, next: startKey };
  const { TableName: _table, ...query } = base;
  const next = await eachQueried(
    query,
    (raw) => {
      if (seen >= pass && data.length < count) data.push(stripKeys(raw));
      seen++;
    },
    () => data.length >= count,
    // A page's worth at a time: only deleted items (filtered out) make the read go round again.
    { from: startKey, ...(paged ? { pageLimit: () => Math.min(1000, pass + count - seen) } : {}) },
  );
  return next ? { data, seen, next } : { data, seen };
}

/** The ordered index of a collection, when its resource declares an order. */
function orderedIndexOf(pk: string): OrderedIndex | undefined {
  const field = orderedFieldOf(pk);
  return field
    ? { field, pkAttr: `${ORDERED_INDEX}pk`, skAttr: `${ORDERED_INDEX}sk`, sortKey: orderedSortKey }
    : undefined;
}

/**
 * A page of the live items of a whole collection, with no filter or text, by id or in the collection's
 * declared order: the total is the collection's counter and a deep page starts from the nearest bookmark,
 * so neither reads the partition. When the counter is not trusted (never tied, or a write under way) or
 * the bookmarks are of another live set, the partition is read once to tie and mark it again; while a
 * write is under way, a deep page passes its items one by one rather than trust a bookmark.
 */
async function listPlain(
  ref: CollectionRef,
  q: ListQuery,
  keyOrder: BuiltQuery['base'],
): Promise<ListResult> {
  const ordered = q.ordered ? orderedIndexOf(ref.pk) : undefined;
  if (q.ordered && !ordered) throw new Error(`${ref.pk} has no declared order`);
  const base: BuiltQuery['base'] = ordered
    ? {
        TableName: config().tableName,
        IndexName: ORDERED_INDEX,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': ordered.pkAttr },
        ExpressionAttributeValues: { ':pk': ref.pk },
        ScanIndexForward: !q.descending,
      }
    : keyOrder;
  // What does not hang on the total is asked for at once: the first pages themselves, or the bookmark of a
  // deep page counted from the start. Either is used only once the counter says it fits.
  const shallow = q.skip < BOOKMARK_EVERY;
  const early = shallow && q.limit > 0 ? readRun(base, undefined, q.skip, q.limit) : undefined;
  const earlyMark = !shallow && !q.descending ? startNear(ref.pk, q.skip, ordered) : undefined;
  early?.catch(() => undefined);
  earlyMark?.catch(() => undefined);
  if (early && q.knownTotal !== undefined) {
    const count = Math.max(0, Math.min(q.limit, q.knownTotal - q.skip));
    return { data: count === 0 ? [] : (await early).data.slice(0, count), total: q.knownTotal };
  }
  let summary = await readSummary(ref.pk);
  let total = totalOf(summary);
  if (total === undefined) {
    total = (await rebuildSummary(ref.pk, orderedIndexOf(ref.pk))).total;
    summary = await readSummary(ref.pk);
  }
  const count = Math.max(0, Math.min(q.limit, total - q.skip));
  if (count === 0) return { data: [], total };
  if (early) return { data: (await early).data.slice(0, count), total };
  const forward = { ...base, ScanIndexForward: true };
  const position = q.descending ? total - q.skip - count : q.skip;
  const trusted = totalOf(summary) === total;
  const fits = (mark: Awaited<ReturnType<typeof startNear>>, seq: number) =>
    mark && (mark.seq === undefined || mark.seq === seq) ? mark : undefined;
  let start = trusted
    ? fits(await (earlyMark ?? startNear(ref.pk, position, ordered)), summary.seq)
    : undefined;
  if (!start && trusted) {
    await rebuildSummary(ref.pk, orderedIndexOf(ref.pk));
    const again = await readSummary(ref.pk);
    if (totalOf(again) === total) start = fits(await startNear(ref.pk, position, ordered), again.seq);
  }
  const { data } = await readRun(forward, start?.startKey, start ? start.pass : position, count);
  return { data: q.descending ? data.reverse() : data, total };
}

/**
 * A page of a collection with its total, as `{ data, total }`. Reads only the collection's partition
 * (or one index partition when a filter names an indexed field): never a Scan.
 */
export async function listItems(ref: CollectionRef, q: ListQuery): Promise<ListResult> {
  const { base } = buildQuery(ref, q);
  const plain = Object.keys(q.filters).length === 0 && !q.text && !q.includeDeleted;
  if (plain) return listPlain(ref, q, base);
  // No page wanted (a count alone): nothing is read but the count.
  const { data, seen, next } =
    q.limit === 0
      ? { data: [], seen: 0, next: undefined }
      : await readRun(base, undefined, q.skip, q.limit, false);
  if (!next && q.limit > 0) return { data, total: seen };
  // The rest is counted from where the page stopped: a COUNT query moves no item bodies, only the number.
  const { TableName: _table, ...query } = base;
  return { data, total: seen + (await countQueried(query, next)) };
}

/** Every item a query matches, page after page, without the key attributes. */
export async function queryEvery(input: TableQuery): Promise<StoredItem[]> {
  return queryMapped(input, stripKeys);
}

/**
 * Every item of a partition, for internal use on bounded collections (a user's grants, a company's roles).
 * `consistent` reads them as the last writes left them (twice the read capacity).
 */
export async function queryAll(pk: string, opts: { consistent?: boolean } = {}): Promise<StoredItem[]> {
  return queryEvery({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ...(opts.consistent ? { ConsistentRead: true } : {}),
  });
}

/** Every item of a resource's collection in a scope, deleted ones included (bounded collections only). */
export const allCollectionItems = (
  scope: Scope,
  resource: string,
  opts: { consistent?: boolean } = {},
): Promise<StoredItem[]> => queryAll(keys.collection(scope, resource), opts);

export async function deleteRaw(pk: string, sk: string): Promise<void> {
  await underSitesMark(pk, sk, () => deleteRawUnmarked(pk, sk));
}

async function deleteRawUnmarked(pk: string, sk: string): Promise<void> {
  const remove = async () => {
    const out = await documentClient().send(
      new DeleteCommand({ TableName: config().tableName, Key: { pk, sk }, ReturnValues: 'ALL_OLD' }),
    );
    return out.Attributes;
  };
  if (!isCounted(pk)) {
    await remove();
    return;
  }
  let before: Record<string, unknown> | undefined;
  await withChange(pk, async () => {
    before = await remove();
    return { result: undefined, liveDelta: -Number(isLive(before)) };
  });
  await afterAccessWrite(pk, before, undefined);
}
