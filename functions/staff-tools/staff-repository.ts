/**
 * | pattern                                      | key condition                                              | index |
 * | -------------------------------------------- | ---------------------------------------------------------- | ----- |
 * | every company (live ones kept)               | pk = G#companies                                           | table |
 * | a company's members                          | pk = C#{companyId}#users                                   | table |
 * | live items of a partition (count)            | pk = {partition}, optionally sk >= fromId, Select COUNT    | table |
 * | count a grid-data fetch (atomic ADD)         | pk = C#{companyId}#gridfetch-usage, sk = YYYY-MM           | table |
 * | a company's fetch counts for some months     | pk = C#{companyId}#gridfetch-usage, sk BETWEEN from AND to | table |
 * | write a letter of authority (must not exist) | pk = C#{companyId}#gridfetch-loas, sk = id                 | table |
 * | a company's letters of authority             | pk = C#{companyId}#gridfetch-loas                          | table |
 *
 * What the staff utilities read and keep: counts of a company's collections, grid-data fetch counters
 * and letters of authority. Everything stays under the company's own keys; staff reports visit the
 * companies one by one from the companies list, so nothing here ever scans the table.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GridfetchLoaView } from '../../shared/schemas/util-staff.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { queryAll } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { countQueried, queryMapped } from '../core/data/query-pages.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

/**
 * How many live items a partition holds, optionally only those whose id (and so creation time) is at or
 * after `fromId`: a COUNT query moves no item bodies.
 */
async function countLive(pk: string, fromId?: string): Promise<number> {
  return countQueried({
    KeyConditionExpression: fromId ? 'pk = :pk AND sk >= :from' : 'pk = :pk',
    FilterExpression: 'attribute_not_exists(#deleted) OR #deleted <> :true',
    ExpressionAttributeNames: { '#deleted': 'deleted' },
    ExpressionAttributeValues: { ':pk': pk, ':true': true, ...(fromId ? { ':from': fromId } : {}) },
  });
}

/** Every live company: its id, name and whether it is a demo company. */
export async function liveCompanies(): Promise<{ _id: string; name: string; isDemo: boolean }[]> {
  const companies = await queryAll(keys.collection({}, 'companies'));
  return companies
    .filter((c) => c.deleted !== true)
    .map((c) => ({
      _id: c._id,
      name: String(c.name ?? ''),
      isDemo:
        typeof c.settings === 'object' &&
        c.settings !== null &&
        'isDemo' in c.settings &&
        c.settings.isDemo === true,
    }));
}

/**
 * What the staff counts hold of one company: its live members' ids, and how many live entities, sites and
 * meters it has and bills created from `fromId` on (COUNT queries: no item bodies for those).
 */
export async function companyCounts(companyId: string, fromId: string) {
  const pk = (name: string) => keys.collection({ companyId }, name);
  const [members, entities, assets, accounts, invoicesThisMonth] = await Promise.all([
    queryAll(pk('users')),
    countLive(pk('entities')),
    countLive(pk('assets')),
    countLive(pk('accounts')),
    countLive(pk('invoices'), fromId),
  ]);
  const memberIds = members.filter((m) => m.deleted !== true).map((m) => m._id);
  return { memberIds, entities, assets, accounts, invoicesThisMonth };
}

const usagePk = (companyId: string) => keys.collection({ companyId }, 'gridfetch-usage');
const loasPk = (companyId: string) => keys.collection({ companyId }, 'gridfetch-loas');

/**
 * Counts one fetch of half-hourly data for a company in a month (YYYY-MM). ADD is atomic, so fetches
 * running at the same time never lose each other's counts. Called by whatever fetches grid data.
 */
export async function recordGridFetch(
  companyId: string,
  month: string,
  intervals: number,
  at = new Date().toISOString(),
): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: { pk: usagePk(companyId), sk: month },
      UpdateExpression:
        'ADD #fetches :one, #intervals :intervals SET #companyId = :companyId, #month = :month, #last = :at',
      ExpressionAttributeNames: {
        '#fetches': 'fetches',
        '#intervals': 'intervals',
        '#companyId': 'companyId',
        '#month': 'month',
        '#last': 'lastFetchAt',
      },
      ExpressionAttributeValues: {
        ':one': 1,
        ':intervals': intervals,
        ':companyId': companyId,
        ':month': month,
        ':at': at,
      },
    }),
  );
}

export interface UsageRow {
  month: string;
  fetches: number;
  intervals: number;
}

/** A company's fetch counters for months `from` to `to` (YYYY-MM), both included, oldest first. */
export async function listGridFetchUsage(companyId: string, from: string, to: string): Promise<UsageRow[]> {
  return queryMapped(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': usagePk(companyId), ':from': from, ':to': to },
    },
    (raw) => ({
      month: String(raw.sk),
      fetches: Number(raw.fetches ?? 0),
      intervals: Number(raw.intervals ?? 0),
    }),
  );
}

/** A letter of authority as stored: what staff see of it, and the key of the uploaded PDF. */
export type StoredLoa = Stored<Omit<GridfetchLoaView, '_id' | 'companyId' | 'downloadUrl'> & { key: string }>;

export async function putGridFetchLoa(companyId: string, loa: StoredLoa): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { ...loa, pk: loasPk(companyId), sk: loa._id },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** A company's letters of authority, oldest first. */
export async function listGridFetchLoas(companyId: string): Promise<StoredLoa[]> {
  return (await queryAll(loasPk(companyId)))
    .filter((l) => l.deleted !== true)
    .map((l) => storedRecord<StoredLoa>('letter of authority', l, []));
}
