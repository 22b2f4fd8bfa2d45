/**
 * | pattern                                   | key condition                                                  | index |
 * | ----------------------------------------- | -------------------------------------------------------------- | ----- |
 * | a meter's interval days in a range        | pk = C#{companyId}#interval#{accountId}, sk BETWEEN dates      | table |
 * | write / replace meter-days (batches of 25) | pk = C#{companyId}#interval#{accountId}, sk = YYYY-MM-DD      | table |
 * | meters' daily totals of some years        | BatchGet pk = C#{companyId}#interval-days#{accountId}, sk = YYYY | table |
 * | set days' totals in their year (versioned) | pk = C#{companyId}#interval-days#{accountId}, sk = YYYY       | table |
 * | a company's meters with interval data     | pk = C#{companyId}#interval-meters                             | table |
 * | record a meter with interval data         | pk = C#{companyId}#interval-meters, sk = accountId             | table |
 * | mark a meter-year's totals being written   | pk = C#{companyId}#interval-meters, sk = accountId             | table |
 * | company's summed day totals of some years | BatchGet pk = C#{companyId}#interval-days-summed, sk = YYYY#utility#unit | table |
 * | keep a summed year of day totals           | TransactWrite pk = C#{companyId}#interval-days-summed, sk = YYYY#utility#unit(#versions) | table |
 * | a summed year and its versions, consistently | pk = C#{companyId}#interval-days-summed, sk = YYYY#utility#unit(#versions) | table |
 * | replace a summed year on its stamp and versions | TransactWrite pk = C#{companyId}#interval-days-summed, sk = YYYY#utility#unit(#versions) | table |
 * | a meter-year's settled version, then its totals' item version (after overlapping writes) | Get pk = C#{companyId}#interval-meters, sk = accountId; Get pk = C#{companyId}#interval-days#{accountId}, sk = YYYY | table |
 */
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { eachBatchGot } from '../core/data/batch-reads.ts';
import { batchWrite } from '../core/data/batch-writes.ts';

/**
 * Interval (half-hourly) data: one item per meter and local day holding the day's 46, 48 or 50 values,
 * so a month of a meter is a Query of about 30 small items. Beside it, one item per meter and year holds
 * each day's total (packed in one string), so daily figures for hundreds of meters over a year are a few BatchGets
 * rather than a Query of every day of every meter. A company's meters with interval data are listed in
 * one partition, which is how a scope finds the meters it has interval data for.
 */
const intervalKeys = {
  days: (companyId: string, accountId: string) => `C#${companyId}#interval#${accountId}`,
  yearTotals: (companyId: string, accountId: string) => `C#${companyId}#interval-days#${accountId}`,
  meters: (companyId: string) => `C#${companyId}#interval-meters`,
  summed: (companyId: string) => `C#${companyId}#interval-days-summed`,
} as const;

export interface IntervalDay {
  accountId: string;
  /** YYYY-MM-DD, the local day */
  date: string;
  /** In settlement-period order; null for a missing reading. */
  values: (number | null)[];
  /** The day's sum, in `unit` */
  total: number;
  missing: number;
  unit: string;
}

export interface IntervalMeter {
  accountId: string;
  /** The site it counts in; absent for a sub-meter, whose parent's figures already hold it. */
  assetId?: string;
  utilityType: UtilityType;
  unit: string;
  /**
   * By year (YYYY), the version of the meter's day totals, or null while a write of them is under way (or
   * died under way). A year not named has not been written since versions were kept: version 0.
   */
  totalsVersions?: Readonly<Record<string, number | null>>;
}

/** Batch reads of day totals in flight at once. */
const BATCH_GET_CONCURRENCY = 4;

/**
 * The values are kept as one string, `1.5,2,,3.25` (an empty place for a missing reading): a third of the
 * size of a list of numbers, and one attribute rather than 48 for the table to encode and decode.
 */
const packValues = (values: readonly (number | null)[]) =>
  values.map((v) => (v === null ? '' : String(v))).join(',');
const unpackValues = (packed: unknown): (number | null)[] =>
  typeof packed === 'string' && packed.length > 0
    ? packed.split(',').map((v) => (v === '' ? null : Number(v)))
    : [];

function itemOf(companyId: string, day: IntervalDay, now: string): Record<string, unknown> {
  const { values, ...rest } = day;
  return {
    pk: intervalKeys.days(companyId, day.accountId),
    sk: day.date,
    ...rest,
    values: packValues(values),
    updatedAt: now,
  };
}

/** Writes meter-days whole (BatchWrite, 25 at a time), each replacing the day's earlier values. */
export async function putIntervalDays(companyId: string, days: readonly IntervalDay[]): Promise<void> {
  const now = new Date().toISOString();
  await batchWrite(days.map((day) => ({ PutRequest: { Item: itemOf(companyId, day, now) } })));
}

const DAY_MS = 86_400_000;
const dayOfYear = (date: string, year: string) =>
  Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${year}-01-01T00:00:00Z`)) / DAY_MS);
const MAX_VERSION_ATTEMPTS = 8;

/**
 * What one write of a meter's day totals of a year did, so sums over many meters can take its change
 * rather than be made again: the versions it moved the meter's totals from and to, whether no other write
 * of them overlapped it (`alone`: started right after the last settled write and settled first time), and
 * the year's totals before (null: none kept) and after.
 */
export interface TotalsWrite {
  accountId: string;
  year: string;
  from: number;
  to: number;
  alone: boolean;
  /**
   * The versions of the year's item of totals the write's put replaced and made: puts of one meter-year
   * follow one another on it, so writes that overlapped still chain by these.
   */
  itemFrom: number;
  itemTo: number;
  before: Float64Array | null;
  after: Float64Array;
}

/**
 * Sets days' totals (YYYY-MM-DD to total, all of one year) in the meter's item of daily totals. The year
 * is packed in one string, a place per day of the year (`days`), which the daily reads decode far faster
 * than 365 attributes; so a write reads the item, merges, and puts it back on condition of the version it
 * read, and two writers of one meter never lose each other's days.
 */
export async function setDayTotals(
  companyId: string,
  accountId: string,
  year: string,
  totals: ReadonlyMap<string, number>,
): Promise<TotalsWrite | undefined> {
  for (const date of totals.keys())
    if (date.slice(0, 4) !== year) throw new Error(`${date} is not in ${year}`);
  if (totals.size === 0) return undefined;
  const started = await startTotalsWrite(companyId, accountId, year);
  const put = await putDayTotals(companyId, accountId, year, totals);
  const settled = await settleTotalsWrite(companyId, accountId, year, started.version);
  return {
    accountId,
    year,
    from: started.from,
    to: settled ?? started.version,
    alone: started.alone && settled === started.version,
    itemFrom: put.version,
    itemTo: put.version + 1,
    before: put.before === null ? null : unpackTotals(year, put.before),
    after: unpackTotals(year, put.after),
  };
}

/**
 * The meter's record counts writes of a year's totals as a sequence lock: `totals#YYYY` goes up before
 * the write and `totalsDone#YYYY` takes its value after it, only if no other write started meanwhile
 * (else the count goes up again, so a reader that saw the two equal before that write can tell). Sums
 * over many meters are kept only under the versions they were made from, so they are known current from
 * the list of meters alone.
 */
async function startTotalsWrite(
  companyId: string,
  accountId: string,
  year: string,
): Promise<{ version: number; from: number; alone: boolean }> {
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: { pk: intervalKeys.meters(companyId), sk: accountId },
      UpdateExpression: 'ADD #started :one',
      ExpressionAttributeNames: { '#started': `totals#${year}` },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'ALL_OLD',
    }),
  );
  // The record as it was: how far writes of the year had started and settled.
  const old = out.Attributes ?? {};
  const startedBefore = Number(old[`totals#${year}`] ?? 0);
  const done = Number(old[`totalsDone#${year}`] ?? 0);
  return {
    version: startedBefore + 1,
    from: done,
    // No write of the year under way or dead: the totals as read hold exactly version `from`.
    alone: startedBefore === done,
  };
}

/** Answers the version the write settled at, or undefined if it could not settle. */
async function settleTotalsWrite(
  companyId: string,
  accountId: string,
  year: string,
  started: number,
): Promise<number | undefined> {
  let version = started;
  for (let attempt = 0; attempt < MAX_VERSION_ATTEMPTS; attempt++) {
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: { pk: intervalKeys.meters(companyId), sk: accountId },
          UpdateExpression: 'SET #done = :version',
          ConditionExpression: '#started = :version',
          ExpressionAttributeNames: { '#started': `totals#${year}`, '#done': `totalsDone#${year}` },
          ExpressionAttributeValues: { ':version': version },
        }),
      );
      return version;
    } catch (err) {
      if (!(err instanceof Error && err.name === 'ConditionalCheckFailedException')) throw err;
    }
    // Another write started meanwhile: this one's days may have landed after it; count them again.
    version = (await startTotalsWrite(companyId, accountId, year)).version;
  }
  // Left unsettled, the year's sums are made from the meters' own totals until the next write settles it.
  return undefined;
}

/** Answers the year's packed totals as read (null: no item) and as written, and the version read (0: none). */
async function putDayTotals(
  companyId: string,
  accountId: string,
  year: string,
  totals: ReadonlyMap<string, number>,
): Promise<{ before: string | null; after: string; version: number }> {
  const key = { pk: intervalKeys.yearTotals(companyId, accountId), sk: year };
  for (let attempt = 0; attempt < MAX_VERSION_ATTEMPTS; attempt++) {
    const current = await documentClient().send(
      new GetCommand({ TableName: config().tableName, Key: key, ConsistentRead: true }),
    );
    const version = current.Item?.version;
    const before = typeof current.Item?.days === 'string' ? current.Item.days : null;
    const days = before !== null ? before.split(',') : [];
    for (const [date, total] of totals) days[dayOfYear(date, year)] = String(total);
    const packed = Array.from({ length: days.length }, (_, d) => days[d] ?? '').join(',');
    try {
      await documentClient().send(
        new PutCommand({
          TableName: config().tableName,
          Item: { ...key, days: packed, version: (typeof version === 'number' ? version : 0) + 1 },
          ConditionExpression:
            typeof version === 'number' ? '#version = :version' : 'attribute_not_exists(pk)',
          ExpressionAttributeNames: typeof version === 'number' ? { '#version': 'version' } : undefined,
          ExpressionAttributeValues: typeof version === 'number' ? { ':version': version } : undefined,
        }),
      );
      return { before, after: packed, version: typeof version === 'number' ? version : 0 };
    } catch (err) {
      if (err instanceof Error && err.name === 'ConditionalCheckFailedException') continue;
      throw err;
    }
  }
  throw new Error(`The daily totals of ${accountId} for ${year} kept changing under the write`);
}

/**
 * The version a meter's totals of a year are settled at (undefined while a write of them is under way)
 * and the version of its item of totals then (0: none), read in that order: a write's put comes before
 * it settles, so a version settled when read holds the item as it stood at that read, unless the item
 * has moved on since (the second read then names a later version).
 */
export async function readTotalsState(
  companyId: string,
  accountId: string,
  year: string,
): Promise<{ settled: number | undefined; item: number }> {
  const record = await documentClient().send(
    new GetCommand({
      TableName: config().tableName,
      Key: { pk: intervalKeys.meters(companyId), sk: accountId },
      ConsistentRead: true,
    }),
  );
  const started = Number(record.Item?.[`totals#${year}`] ?? 0);
  const done = Number(record.Item?.[`totalsDone#${year}`] ?? 0);
  const item = await documentClient().send(
    new GetCommand({
      TableName: config().tableName,
      Key: { pk: intervalKeys.yearTotals(companyId, accountId), sk: year },
      ConsistentRead: true,
      ProjectionExpression: '#version',
      ExpressionAttributeNames: { '#version': 'version' },
    }),
  );
  const version = item.Item?.version;
  return { settled: started === done ? done : undefined, item: typeof version === 'number' ? version : 0 };
}

/** Records a meter with interval data (again, harmlessly, on every write). */
export async function recordIntervalMeter(companyId: string, meter: IntervalMeter): Promise<void> {
  const names: Record<string, string> = {
    '#utilityType': 'utilityType',
    '#unit': 'unit',
    '#assetId': 'assetId',
  };
  const values: Record<string, unknown> = { ':utilityType': meter.utilityType, ':unit': meter.unit };
  let update = 'SET #utilityType = :utilityType, #unit = :unit';
  if (meter.assetId) {
    update += ', #assetId = :assetId';
    values[':assetId'] = meter.assetId;
  } else update += ' REMOVE #assetId';
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: { pk: intervalKeys.meters(companyId), sk: meter.accountId },
      UpdateExpression: update,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

async function queryAll(
  pk: string,
  range?: { from: string; to: string },
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: config().tableName,
        KeyConditionExpression: range ? 'pk = :pk AND sk BETWEEN :from AND :to' : 'pk = :pk',
        ExpressionAttributeValues: range
          ? { ':pk': pk, ':from': range.from, ':to': range.to }
          : { ':pk': pk },
        ExclusiveStartKey: startKey,
      }),
    );
    out.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}

const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** Every meter of a company with interval data. */
export async function listIntervalMeters(companyId: string): Promise<IntervalMeter[]> {
  // A record holding only a write's count is of a meter whose first write has not finished.
  return (await queryAll(intervalKeys.meters(companyId)))
    .filter((raw) => text(raw.utilityType) !== undefined)
    .map((raw) => {
      const assetId = text(raw.assetId);
      const totalsVersions: Record<string, number | null> = {};
      for (const [name, started] of Object.entries(raw)) {
        if (!name.startsWith('totals#')) continue;
        const year = name.slice(7);
        totalsVersions[year] = raw[`totalsDone#${year}`] === started ? Number(started) : null;
      }
      return {
        accountId: String(raw.sk),
        ...(assetId ? { assetId } : {}),
        utilityType: String(raw.utilityType) as UtilityType,
        unit: String(raw.unit),
        totalsVersions,
      };
    });
}

/** A meter's interval days from `from` to `to` inclusive (YYYY-MM-DD), oldest first. */
export async function listIntervalDays(
  companyId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<IntervalDay[]> {
  return (await queryAll(intervalKeys.days(companyId, accountId), { from, to })).map((raw) => ({
    accountId,
    date: String(raw.sk),
    values: unpackValues(raw.values),
    total: Number(raw.total) || 0,
    missing: Number(raw.missing) || 0,
    unit: String(raw.unit),
  }));
}

/** A meter's daily totals of one year, by day of the year (0 is 1 January); NaN where a day has none. */
export interface YearDayTotals {
  /** YYYY */
  year: string;
  totals: Float64Array;
  /** The version of the item they were read from. */
  version: number;
}

/** The days of a year (365 or 366). */
export const daysInYear = (year: string) =>
  (Date.parse(`${Number(year) + 1}-01-01T00:00:00Z`) - Date.parse(`${year}-01-01T00:00:00Z`)) / DAY_MS;

/** A year's day totals as stored (comma-separated, empty for a day without data), by day of the year. */
function unpackTotals(year: string, days: string): Float64Array {
  const totals = new Float64Array(daysInYear(year)).fill(Number.NaN);
  const packed = days.split(',');
  const count = Math.min(packed.length, totals.length);
  for (let d = 0; d < count; d++) {
    const v = packed[d] as string;
    if (v !== '') totals[d] = Number(v);
  }
  return totals;
}

/**
 * Daily totals of meters over some years: by meter, its years that hold data, oldest first. The days are
 * numbers by day of the year rather than a map by date: 500 meters' year is 182,500 days, and naming
 * each one cost more than reading them.
 */
export async function readDayTotals(
  companyId: string,
  accountIds: readonly string[],
  years: readonly string[],
): Promise<Map<string, YearDayTotals[]>> {
  const wanted = accountIds.flatMap((id) =>
    years.map((year) => ({ pk: intervalKeys.yearTotals(companyId, id), sk: year, id })),
  );
  const ownerOf = new Map(wanted.map((k) => [k.pk, k.id]));
  const found = new Map<string, YearDayTotals[]>();
  // Batches go out a few at a time: one after another, their round trips added up to most of the answer.
  await eachBatchGot(
    wanted,
    (raw) => {
      const id = ownerOf.get(String(raw.pk));
      if (!id || typeof raw.days !== 'string') return;
      const year = String(raw.sk);
      const totals = unpackTotals(year, raw.days);
      const version = typeof raw.version === 'number' ? raw.version : 0;
      const list = found.get(id);
      if (list) list.push({ year, totals, version });
      else found.set(id, [{ year, totals, version }]);
    },
    BATCH_GET_CONCURRENCY,
  );
  for (const list of found.values()) list.sort((a, b) => a.year.localeCompare(b.year));
  return found;
}

/** One year of one utility and unit's day totals summed over a company's main meters, with its stamp. */
export interface SummedYear {
  year: string;
  utilityType: UtilityType;
  unit: string;
  /** Names the meters and the versions of their totals the sums were made from. */
  stamp: string;
  /** By day of the year; NaN where no meter has the day. */
  totals: Float64Array;
}

const summedSk = (y: { year: string; utilityType: string; unit: string }) =>
  `${y.year}#${y.utilityType}#${y.unit}`;
const packTotals = (totals: Float64Array) =>
  Array.from(totals, (v) => (Number.isNaN(v) ? '' : String(v))).join(',');

/** The company's summed years asked for, those kept: keyed `YYYY#utility#unit`. */
export async function readSummedYears(
  companyId: string,
  wanted: readonly { year: string; utilityType: UtilityType; unit: string }[],
): Promise<Map<string, SummedYear>> {
  const found = new Map<string, SummedYear>();
  await eachBatchGot(
    wanted.map((w) => ({ pk: intervalKeys.summed(companyId), sk: summedSk(w) })),
    (raw) => {
      if (typeof raw.days !== 'string' || typeof raw.stamp !== 'string') return;
      const year = String(raw.year);
      const y = {
        year,
        utilityType: String(raw.utilityType) as UtilityType,
        unit: String(raw.unit),
        stamp: raw.stamp,
        totals: unpackTotals(year, raw.days),
      };
      found.set(summedSk(y), y);
    },
  );
  return found;
}

/**
 * The meters a kept summed year holds and the version of each one's totals, kept beside it (its stamp is
 * their hash) in an item of its own, so the reads of the sums do not pay for it: a write of some meters'
 * totals moves the year by their change only while it holds them at the versions they were written from.
 */
export type SummedVersions = ReadonlyMap<string, number>;

/**
 * Beside each meter's version, the version of its item of totals the sums hold, where known (sums kept
 * before these were named have none): writes that overlapped are chained by it.
 */
export type SummedItems = ReadonlyMap<string, number>;

const versionsSk = (y: { year: string; utilityType: string; unit: string }) => `${summedSk(y)}#versions`;
const packVersions = (versions: SummedVersions, items: SummedItems) =>
  [...versions].map(([id, v]) => (items.has(id) ? `${id}:${v}:${items.get(id)}` : `${id}:${v}`)).join(',');

/** One kept summed year with the versions it holds, read consistently (undefined: none kept whole). */
export async function readSummedYearWithVersions(
  companyId: string,
  wanted: { year: string; utilityType: UtilityType; unit: string },
): Promise<
  { year: SummedYear; versions: Map<string, number>; items: Map<string, number>; packed: string } | undefined
> {
  const get = (sk: string) =>
    documentClient().send(
      new GetCommand({
        TableName: config().tableName,
        Key: { pk: intervalKeys.summed(companyId), sk },
        ConsistentRead: true,
      }),
    );
  const [sums, held] = await Promise.all([get(summedSk(wanted)), get(versionsSk(wanted))]);
  const raw = sums.Item;
  if (typeof raw?.days !== 'string' || typeof raw.stamp !== 'string') return undefined;
  // Kept by an older build without its versions, or the two caught between writes: not to be moved.
  if (held.Item?.stamp !== raw.stamp || typeof held.Item.versions !== 'string') return undefined;
  const versions = new Map<string, number>();
  const items = new Map<string, number>();
  for (const part of held.Item.versions.split(',')) {
    if (part === '') continue;
    const [id = '', version, item] = part.split(':');
    versions.set(id, Number(version));
    if (item !== undefined) items.set(id, Number(item));
  }
  return {
    year: { ...wanted, stamp: raw.stamp, totals: unpackTotals(wanted.year, raw.days) },
    versions,
    items,
    packed: held.Item.versions,
  };
}

/** The summed year's item and its versions' item, written together. */
function summedItems(y: SummedYear, versions: SummedVersions, items: SummedItems) {
  const now = new Date().toISOString();
  return [
    {
      pk: '',
      sk: summedSk(y),
      year: y.year,
      utilityType: y.utilityType,
      unit: y.unit,
      stamp: y.stamp,
      days: packTotals(y.totals),
      updatedAt: now,
    },
    { pk: '', sk: versionsSk(y), stamp: y.stamp, versions: packVersions(versions, items), updatedAt: now },
  ];
}

/**
 * Replaces a kept summed year only while it still has the stamp and the versions it was read with
 * (`packed`, items included: two moves may leave the stamp as it was); answers whether it did (another
 * writer moved it first, or it is gone).
 */
export async function replaceSummedYear(
  companyId: string,
  y: SummedYear,
  versions: SummedVersions,
  items: SummedItems,
  was: { stamp: string; packed: string },
): Promise<boolean> {
  const [sums, held] = summedItems(y, versions, items);
  const pk = intervalKeys.summed(companyId);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: config().tableName,
              Item: { ...sums, pk },
              ConditionExpression: '#stamp = :was',
              ExpressionAttributeNames: { '#stamp': 'stamp' },
              ExpressionAttributeValues: { ':was': was.stamp },
            },
          },
          {
            Put: {
              TableName: config().tableName,
              Item: { ...held, pk },
              ConditionExpression: '#versions = :was',
              ExpressionAttributeNames: { '#versions': 'versions' },
              ExpressionAttributeValues: { ':was': was.packed },
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof Error && err.name === 'TransactionCanceledException') return false;
    throw err;
  }
}

/** Keeps a summed year (replacing the one kept), with the meters and versions it holds. */
export async function putSummedYear(
  companyId: string,
  y: SummedYear,
  versions: SummedVersions,
  items: SummedItems,
): Promise<void> {
  const [sums, held] = summedItems(y, versions, items);
  const pk = intervalKeys.summed(companyId);
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: config().tableName, Item: { ...sums, pk } } },
        { Put: { TableName: config().tableName, Item: { ...held, pk } } },
      ],
    }),
  );
}
