/**
 * | pattern                                 | key condition                                                       | index |
 * | --------------------------------------- | ------------------------------------------------------------------- | ----- |
 * | entries of a term prefix, in rank order | pk = C#{companyId}#search#{3 chars}, begins_with(sk, prefix)        | table |
 * | write / remove entries (batches of 25)  | pk = C#{companyId}#search#{3 chars}, sk = {tier}#{term}#{type}#{id} | table |
 * | the manifest of one item                | pk = C#{companyId}#search-manifest, sk = {type}#{id}                | table |
 * | every manifest of a company             | pk = C#{companyId}#search-manifest                                  | table |
 * | the index version of a company          | pk = C#{companyId}#search-state, sk = state                         | table |
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SearchType } from '../../../shared/schemas/register.ts';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { batchWrite, type WriteRequest } from '../data/batch-writes.ts';
import { queryMapped } from '../data/query-pages.ts';

/**
 * The global search index of a company, in the one table:
 * - entries: pk `C#{cid}#search#{first 3 characters of a term}`, sk `{tier}#{term}#{type}#{id}`, so a query
 *   is one key lookup with `begins_with` on the sort key, read in rank order (tier, then exact terms first);
 * - manifests: pk `C#{cid}#search-manifest`, sk `{type}#{id}`: the entry keys written for an item, so an
 *   update or delete removes exactly those;
 * - state: pk `C#{cid}#search-state`, sk `state`: which index version the company's entries were built with.
 */
export const searchKeys = {
  entries: (companyId: string, prefix: string) => `C#${companyId}#search#${prefix}`,
  manifests: (companyId: string) => `C#${companyId}#search-manifest`,
  state: (companyId: string) => ({ pk: `C#${companyId}#search-state`, sk: 'state' }),
} as const;

export interface EntryKey {
  pk: string;
  sk: string;
}

export interface IndexEntry extends EntryKey {
  type: SearchType;
  id: string;
  tier: number;
  term: string;
  doc: Record<string, unknown>;
}

export interface Manifest {
  type: string;
  id: string;
  keys: EntryKey[];
}

const writeBatches = (requests: readonly WriteRequest[]) =>
  batchWrite(requests, { what: 'search index writes' });

export async function putEntries(entries: readonly IndexEntry[]): Promise<void> {
  await writeBatches(entries.map((Item) => ({ PutRequest: { Item: { ...Item } } })));
}

export async function deleteEntries(keys: readonly EntryKey[]): Promise<void> {
  await writeBatches(keys.map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } })));
}

export async function getManifest(
  companyId: string,
  type: string,
  id: string,
): Promise<Manifest | undefined> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: config().tableName,
      Key: { pk: searchKeys.manifests(companyId), sk: `${type}#${id}` },
    }),
  );
  return out.Item ? { type, id, keys: (out.Item.keys as EntryKey[] | undefined) ?? [] } : undefined;
}

export async function putManifests(companyId: string, manifests: readonly Manifest[]): Promise<void> {
  await writeBatches(
    manifests.map((m) => ({
      PutRequest: {
        Item: {
          pk: searchKeys.manifests(companyId),
          sk: `${m.type}#${m.id}`,
          type: m.type,
          id: m.id,
          keys: m.keys,
        },
      },
    })),
  );
}

export async function deleteManifest(companyId: string, type: string, id: string): Promise<void> {
  await documentClient().send(
    new DeleteCommand({
      TableName: config().tableName,
      Key: { pk: searchKeys.manifests(companyId), sk: `${type}#${id}` },
    }),
  );
}

/** Every manifest of a company: what a rebuild must clear first. */
export async function listManifests(companyId: string): Promise<Manifest[]> {
  return queryMapped(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': searchKeys.manifests(companyId) },
    },
    (raw) => ({ type: String(raw.type), id: String(raw.id), keys: (raw.keys as EntryKey[]) ?? [] }),
  );
}

export interface EntryPage {
  entries: IndexEntry[];
  next?: Record<string, unknown>;
}

/** Entries of one partition whose sort key starts with `skPrefix`, in sort key order. */
export async function queryEntries(
  pk: string,
  skPrefix: string,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<EntryPage> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: config().tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { entries: (out.Items ?? []) as IndexEntry[], next: out.LastEvaluatedKey };
}

export async function getIndexVersion(companyId: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: searchKeys.state(companyId) }),
  );
  return typeof out.Item?.version === 'string' ? out.Item.version : undefined;
}

export async function putIndexVersion(companyId: string, version: string): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { ...searchKeys.state(companyId), version, builtAt: new Date().toISOString() },
    }),
  );
}

export async function clearIndexVersion(companyId: string): Promise<void> {
  await documentClient().send(
    new DeleteCommand({ TableName: config().tableName, Key: searchKeys.state(companyId) }),
  );
}
