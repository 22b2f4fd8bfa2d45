/**
 * | pattern                                     | key condition                                                        | index |
 * | ------------------------------------------- | -------------------------------------------------------------------- | ----- |
 * | an account's months in a range              | pk = C#{companyId}#consumption#{accountId}, sk BETWEEN months        | table |
 * | an asset's monthly roll-ups in a range      | pk = C#{companyId}#rollup#asset#{assetId}, sk BETWEEN month#         | table |
 * | a portfolio's monthly roll-ups in a range   | pk = C#{companyId}#rollup#portfolio#{groupId}, sk BETWEEN month#     | table |
 * | a company's monthly roll-ups in a range     | pk = C#{companyId}#rollup#company, sk BETWEEN month#                 | table |
 * | add to one month (atomic ADD, once/invoice) | pk as above, sk = month or month#utility                             | table |
 * | add to many months at once (an import's)    | TransactWrite of ≤ 100 atomic ADDs, pk and sk as above               | table |
 * | the portfolios a site's deltas also reach   | pk = C#{companyId}#rollup#asset#{assetId}, sk BEGINS_WITH portfolio# | table |
 * | the sites a portfolio's roll-up counts      | pk = C#{companyId}#rollup#portfolio#{groupId}, sk BEGINS_WITH site#  | table |
 * | a site joins or leaves a portfolio (once)   | both memberships above, sk = portfolio#{groupId} / site#{assetId}    | table |
 * | roll-ups as they stand before a replacement  | pk = C#{companyId}#rollup#asset#{assetId}, sk = month#utility (batch) | table |
 * | one account month (consistent read)         | pk = C#{companyId}#consumption#{accountId}, sk = month               | table |
 * | many meters' months (an import's)           | pk = C#{companyId}#consumption#{accountId}, sk BETWEEN months, each  | table |
 * | write many meters' months                   | BatchWrite pk = C#{companyId}#consumption#{accountId}, sk = month    | table |
 * | replace / remove months if as read (rollback) | TransactWrite of ≤ 100 conditional puts and deletes, pk, sk as above | table |
 * | replace interval days of a month (CAS)      | pk = C#{companyId}#consumption#{accountId}, sk = month               | table |
 * | replace interval days of many months (CAS)  | consistent Query of sk BETWEEN months, TransactWrite of ≤ 100 months | table |
 * | restate a month's emissions (if as read)    | pk = C#{companyId}#consumption#{accountId}, sk = month               | table |
 * | whether a marked write of many roll-ups landed a chunk | pk = C#{companyId}#rollup-marks#{mark}, sk = chunk#{part}#{round}#{n} (conditional, in the chunk's transaction) | table |
 * | forget a marked write's chunks | pk = C#{companyId}#rollup-marks#{mark} (query, then batch deletes) | table |
 * | add a restatement job's change (once a row) | pk = C#{companyId}#rollup#asset#{assetId} (or portfolio, company), sk = month#utility | table |
 * | whether any chunk of a marked write landed | pk = C#{companyId}#rollup-marks#{mark} (query, limit 1) | table |
 * | records of restatements on months taken away | pk = C#{companyId}#restated-gone, sk = {accountId}#{month}#{id} (put in the month's delete transaction; query all at a restatement's start and once per site after its meters are listed, batch deletes once taken up) | table |
 */
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { MeterUser } from '../../shared/schemas/account.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { batchWrite } from '../core/data/batch-writes.ts';
import { eachQueried, queryMapped } from '../core/data/query-pages.ts';
import {
  backOff,
  cancellationCodes,
  type ItemUpdate,
  MAX_TRANSACTION_ACTIONS,
  MAX_TRANSACTION_ATTEMPTS,
} from '../core/data/transactions.ts';
import { newId } from '../core/lib/ids.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { objectOf, utilityTypeOf } from '../core/lib/stored-values.ts';
import { findStoredAccount } from './account-repository.ts';
import {
  ALL_ROLLUP_PARTS,
  meterUserOf,
  partAdds,
  ROLLUP_PARTS,
  type RollupParts,
  rollupSourceOf,
  splitOf,
} from './rollup-parts.ts';
import {
  addManyToSiteYears,
  addMonthsToSiteYear,
  addToSiteYear,
  replaceSiteYears,
  type SiteMonthFigures,
} from './site-year-repository.ts';

/** A month's figures with a change added: what a site's year gains in that month. */
const addMonthFigures = (sum: SiteMonthFigures | undefined, f: SiteMonthFigures): SiteMonthFigures => ({
  consumption: (sum?.consumption ?? 0) + f.consumption,
  cost: (sum?.cost ?? 0) + f.cost,
  emissionsKg: (sum?.emissionsKg ?? 0) + f.emissionsKg,
});

/**
 * Consumption as time series: one item per account and month (not one per reading), and monthly roll-ups
 * per asset, per portfolio and per company (each by utility), so an analytics range is a single Query of one
 * partition. Keys stay under `C#{companyId}` like every company item.
 */
export const consumptionKeys = {
  accountMonths: (companyId: string, accountId: string) => `C#${companyId}#consumption#${accountId}`,
  assetRollups: (companyId: string, assetId: string) => `C#${companyId}#rollup#asset#${assetId}`,
  companyRollups: (companyId: string) => `C#${companyId}#rollup#company`,
  portfolioRollups: (companyId: string, groupId: string) => `C#${companyId}#rollup#portfolio#${groupId}`,
  /** In the site's roll-up partition, after every month: the portfolios its deltas also go to. */
  siteInPortfolioSk: (groupId: string) => `portfolio#${groupId}`,
  /** In the portfolio's roll-up partition: the sites it counts, so a rebuild knows what to drop. */
  portfolioSiteSk: (assetId: string) => `site#${assetId}`,
  rollupSk: (month: string, utilityType: UtilityType) => `${month}#${utilityType}`,
  /** One partition per marked write of many roll-ups (an import's): an item per chunk that landed. */
  rollupMarks: (companyId: string, mark: string) => `C#${companyId}#rollup-marks#${mark}`,
  rollupChunkSk: (chunk: string) => `chunk#${chunk}`,
  /**
   * Restatement jobs' records of account months taken away since (a rollback of the import that made
   * them), one item per month taken away: a job that has yet to put its change on the roll-ups finds it here.
   */
  goneMonthRestatements: (companyId: string) => `C#${companyId}#restated-gone`,
  goneMonthSk: (accountId: string, month: string, id: string) => `${accountId}#${month}#${id}`,
} as const;

export type ConsumptionSource = 'invoice' | 'import' | 'estimate' | 'interval';

export interface AccountMonth {
  /** YYYY-MM */
  month: string;
  consumption: number;
  unit: string;
  /** Net cost (before VAT), pounds */
  cost: number;
  currency: 'GBP';
  emissionsKg: number;
  /** The emission factor set that produced emissionsKg. */
  factorVersion: string;
  source: ConsumptionSource;
  invoiceId?: string;
  regoKwh?: number;
  vat?: number;
  ccl?: number;
  standingCharge?: number;
  /**
   * The import that wrote the month last, if one did: a delivery of that import after its worker died
   * knows by it which months the dead run wrote, however they changed since.
   */
  importId?: string;
  /**
   * What the month held before that import wrote it (null: it made the month), kept with the write itself:
   * a delivery after the import's worker died moves the roll-ups from it even if the import's journal of
   * the month was not saved again after the month changed under the write.
   */
  importedOver?: { consumption: number; cost: number; emissionsKg?: number; factorVersion?: string } | null;
}

export interface StoredAccountMonth extends AccountMonth {
  companyId: string;
  accountId: string;
  updatedAt: string;
  /** The bills whose share the month holds: a string set, read with care (a list in older records). */
  invoiceIds?: unknown;
}

export interface RollupDelta extends RollupParts {
  consumption: number;
  unit: string;
  cost: number;
  emissionsKg: number;
}

export interface Rollup extends RollupDelta {
  month: string;
  utilityType: UtilityType;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function assertMonth(month: string): void {
  if (!MONTH.test(month)) throw new Error(`A month must be YYYY-MM, not ${month}`);
}

const KEY_ATTRIBUTES = new Set(['pk', 'sk']);
const withoutKeys = <T>(raw: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(raw).filter(([k]) => !KEY_ATTRIBUTES.has(k))) as T;

function accountMonthItem(companyId: string, accountId: string, data: AccountMonth, now: string) {
  assertMonth(data.month);
  return {
    pk: consumptionKeys.accountMonths(companyId, accountId),
    sk: data.month,
    companyId,
    accountId,
    ...data,
    updatedAt: now,
  };
}

/** Writes (or replaces) one account's figures for one month. */
export async function putAccountMonth(
  companyId: string,
  accountId: string,
  data: AccountMonth,
): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: accountMonthItem(companyId, accountId, data, new Date().toISOString()),
    }),
  );
}

const MAX_BATCH_ATTEMPTS = 8;

const batchPut = (items: readonly Record<string, unknown>[], inFlight = 1) =>
  batchWrite(
    items.map((Item) => ({ PutRequest: { Item } })),
    { inFlight },
  );

/** One meter's month, as writes of many meters at once name it. */
export interface MeterMonth extends AccountMonth {
  accountId: string;
  /**
   * What restatement jobs recorded on the month, kept when an import or a rollback rewrites it: a job that
   * has yet to put its change on the roll-ups (still running, or failed) still finds it there.
   */
  restatements?: Record<string, MonthRestated>;
}

/** Writes months of many meters in batches of 25 across meters, several batches at a time (imports). */
export async function putMeterMonths(companyId: string, months: readonly MeterMonth[]): Promise<void> {
  const now = new Date().toISOString();
  await batchPut(
    months.map(({ accountId, ...m }) => accountMonthItem(companyId, accountId, m, now)),
    8,
  );
}

/** The figures a replacement is conditional on: all a roll-up's difference is worked out from. */
const AS_READ = ['source', 'consumption', 'cost', 'emissionsKg', 'factorVersion'] as const;

/** A meter's month as read: which it is, and the figures a replacement of it is conditional on (absent: none). */
export type MonthAsRead = Pick<StoredAccountMonth, 'accountId' | 'month'> &
  Partial<Pick<StoredAccountMonth, (typeof AS_READ)[number]>>;

/**
 * A meter's month as read, and what it is to become: taken away (`to` null) or replaced; or a month read
 * as absent (`read` null), to be made only while it still is. A month taken away that holds records of
 * restatement jobs (`gone`) leaves them behind in the same transaction: the roll-ups move by what the
 * month holds, a job's change included, which a job yet to put it on the roll-ups must still find.
 */
export type MonthReplacement =
  | { read: MonthAsRead; to: MeterMonth | null; gone?: GoneMonth }
  | { read: null; to: MeterMonth; gone?: undefined };

/** What a restatement job finds of a month taken away: its unit and the jobs' records. */
export interface GoneMonth {
  unit: string;
  restatements: Record<string, MonthRestated>;
}

/** Restatement records of a company's months taken away since, by account. */
export async function listGoneMonths(
  companyId: string,
): Promise<Map<string, (GoneMonth & { month: string; sk: string })[]>> {
  const byAccount = new Map<string, (GoneMonth & { month: string; sk: string })[]>();
  await eachQueried(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': consumptionKeys.goneMonthRestatements(companyId) },
    },
    (raw) => {
      const accountId = String(raw.accountId);
      const gone = {
        sk: String(raw.sk),
        month: String(raw.month),
        unit: String(raw.unit),
        restatements: restatementsOf(raw as unknown as StoredAccountMonth),
      };
      byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), gone]);
    },
  );
  return byAccount;
}

/** Drops records of months taken away (by their `sk` as listed) once every job's change is on the roll-ups. */
export async function forgetGoneMonths(companyId: string, sks: readonly string[]): Promise<void> {
  const pk = consumptionKeys.goneMonthRestatements(companyId);
  if (sks.length > 0)
    await batchWrite(
      sks.map((sk) => ({ DeleteRequest: { Key: { pk, sk } } })),
      { what: 'deletes' },
    );
}

function asReadCondition(read: MonthAsRead) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms = AS_READ.map((field, i) => {
    names[`#f${i}`] = field;
    if (read[field] === undefined) return `attribute_not_exists(#f${i})`;
    values[`:f${i}`] = read[field];
    return `#f${i} = :f${i}`;
  });
  return {
    ConditionExpression: terms.join(' AND '),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}

/**
 * Makes, replaces or takes away months of many meters (an import's or a rollback's), each only while it
 * still holds the figures it was read with (or is still absent): the caller moves the roll-ups by the difference from those figures, so a restatement
 * or a bill that rewrote the month since must not be written over unseen. A hundred go to a transaction,
 * so a file's rollback makes a quarter of the calls batches of 25 would; one refused on its condition is
 * read again, and the rest of its transaction sent again without it. Answers the months that had changed, by `accountId|month`, as
 * they stand now (undefined: gone), for the caller to judge again; every other replacement was made.
 */
export async function replaceMeterMonths(
  companyId: string,
  replacements: readonly MonthReplacement[],
): Promise<Map<string, StoredAccountMonth | undefined>> {
  const moved = new Map<string, StoredAccountMonth | undefined>();
  const now = new Date().toISOString();
  const TableName = config().tableName;
  const actions = replacements.map((r) => {
    const { read, to } = r;
    const { accountId, month } = r.read === null ? r.to : r.read;
    const Key = { pk: consumptionKeys.accountMonths(companyId, accountId), sk: month };
    const condition = read ? asReadCondition(read) : { ConditionExpression: 'attribute_not_exists(pk)' };
    const items: Record<string, unknown>[] = [
      to
        ? {
            Put: {
              TableName,
              Item: accountMonthItem(companyId, accountId, withoutAccount(to), now),
              ...condition,
            },
          }
        : { Delete: { TableName, Key, ...condition } },
    ];
    if (!to && r.gone && Object.keys(r.gone.restatements).length > 0)
      items.push({
        Put: {
          TableName,
          Item: {
            pk: consumptionKeys.goneMonthRestatements(companyId),
            sk: consumptionKeys.goneMonthSk(accountId, month, newId()),
            companyId,
            accountId,
            month,
            unit: r.gone.unit,
            restatements: r.gone.restatements,
            updatedAt: now,
          },
        },
      });
    return { id: `${accountId}|${month}`, Key, items };
  });
  // Up to a hundred actions to a transaction, a month's and its records' together.
  const groups: (typeof actions)[] = [];
  let size = MAX_TRANSACTION_ACTIONS;
  for (const a of actions) {
    if (size + a.items.length > MAX_TRANSACTION_ACTIONS) {
      groups.push([]);
      size = 0;
    }
    groups.at(-1)?.push(a);
    size += a.items.length;
  }
  await inPool(groups, 4, async (group) => {
    let pending = group;
    for (let attempt = 1; pending.length > 0; attempt++) {
      try {
        await documentClient().send(
          new TransactWriteCommand({ TransactItems: pending.flatMap((a) => a.items) }),
        );
        return;
      } catch (err) {
        const codes = cancellationCodes(err);
        if (!codes) throw err;
        let at = 0;
        const refused = pending.filter((a) => {
          const hit = a.items.some((_, j) => codes[at + j] === 'ConditionalCheckFailed');
          at += a.items.length;
          return hit;
        });
        if (refused.length === 0) {
          // Another transaction or throttling in the way: the same again after a pause.
          if (attempt >= MAX_TRANSACTION_ATTEMPTS) throw err;
          await backOff(attempt);
          continue;
        }
        for (const a of refused) {
          const current = await documentClient().send(
            new GetCommand({ TableName, Key: a.Key, ConsistentRead: true }),
          );
          moved.set(a.id, current.Item ? withoutKeys<StoredAccountMonth>(current.Item) : undefined);
        }
        pending = pending.filter((a) => !refused.includes(a));
      }
    }
  });
  return moved;
}

const withoutAccount = ({ accountId: _, ...month }: MeterMonth): AccountMonth => month;

/**
 * The stored months of many meters, answered by `accountId|month` (absent months are not): one range query
 * per meter, many meters at a time. Measured against BatchGet of every wanted key, this is the cheaper read
 * for an import, since a query reads only the months that exist and most of a file's months do not yet.
 */
export async function getMeterMonths(
  companyId: string,
  wanted: readonly { accountId: string; month: string }[],
): Promise<Map<string, StoredAccountMonth>> {
  const spans = new Map<string, { from: string; to: string; months: Set<string> }>();
  for (const w of wanted) {
    assertMonth(w.month);
    const span = spans.get(w.accountId);
    if (!span) spans.set(w.accountId, { from: w.month, to: w.month, months: new Set([w.month]) });
    else {
      if (w.month < span.from) span.from = w.month;
      if (w.month > span.to) span.to = w.month;
      span.months.add(w.month);
    }
  }
  const found = new Map<string, StoredAccountMonth>();
  await inPool([...spans], 16, async ([accountId, span]) => {
    for (const m of await listAccountMonths(companyId, accountId, span.from, span.to))
      if (span.months.has(m.month)) found.set(`${accountId}|${m.month}`, m);
  });
  return found;
}

/** Writes many months of one account at once (imports, seeding). */
export async function putAccountMonths(
  companyId: string,
  accountId: string,
  months: readonly AccountMonth[],
): Promise<void> {
  const now = new Date().toISOString();
  await batchPut(months.map((m) => accountMonthItem(companyId, accountId, m, now)));
}

/** Removes months of one account that an import made (the rollback of that import), 25 to a request. */
export async function deleteAccountMonths(
  companyId: string,
  accountId: string,
  months: readonly string[],
): Promise<void> {
  const pk = consumptionKeys.accountMonths(companyId, accountId);
  await batchWrite(
    months.map((sk) => ({ DeleteRequest: { Key: { pk, sk } } })),
    { what: 'deletes' },
  );
}

/** An account's months from `from` to `to` inclusive (both YYYY-MM), oldest first. */
export async function listAccountMonths(
  companyId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<StoredAccountMonth[]> {
  assertMonth(from);
  assertMonth(to);
  return queryRange(consumptionKeys.accountMonths(companyId, accountId), from, to);
}

async function queryRange<T>(pk: string, from: string, to: string): Promise<T[]> {
  return queryMapped(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
    },
    withoutKeys<T>,
  );
}

const rollupUpdate = (fields: Record<string, string>, delta: RollupDelta) =>
  figuresUpdate({
    adds: { consumption: delta.consumption, cost: delta.cost, emissionsKg: delta.emissionsKg },
    sets: fields,
    unit: delta.unit,
    parts: delta,
    which: ALL_ROLLUP_PARTS,
  });

async function addTo(pk: string, sk: string, fields: Record<string, string>, delta: RollupDelta) {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(
        new UpdateCommand({ TableName: config().tableName, Key: { pk, sk }, ...rollupUpdate(fields, delta) }),
      );
      return;
    } catch (err) {
      // The item was in an import's transaction at that moment; nothing was added, so adding again is safe.
      if (!(err instanceof Error && err.name === 'TransactionConflictException')) throw err;
      if (attempt >= MAX_TRANSACTION_ATTEMPTS) throw err;
      await backOff(attempt);
    }
  }
}

/** One roll-up item's change among many written together. */
interface RollupWrite {
  pk: string;
  sk: string;
  fields: Record<string, string>;
  delta: RollupDelta;
}

/**
 * Where a marked write of many roll-ups records its chunks: a write sent again (an import's message
 * delivered again after its worker died) skips every chunk that already landed, whole, because each chunk's
 * transaction also creates its marker item only if there is none.
 */
interface ChunkMarks {
  companyId: string;
  mark: string;
  /** Which of the write's calls (site, portfolio or company roll-ups) the chunks belong to. */
  part: string;
}

/**
 * The same atomic ADDs as `addTo` for many different items, up to a hundred in one transaction: a file's
 * thousands of site-months cost tens of requests rather than thousands, and still add to whatever
 * concurrent writers add. A transaction is all or nothing, so one that collides with another writer is sent
 * again whole; one whose unit condition fails is written item by item, so the failing item alone refuses
 * exactly as a single write would (and its siblings land as they would have). With `marks`, the chunks are
 * numbered in the order of `writes`, so the same writes sent again make the same chunks.
 */
async function addToMany(writes: readonly RollupWrite[], limit: number, marks?: ChunkMarks): Promise<void> {
  // A transaction may name an item once: writes to one item in one unit (two sites' months reaching one
  // portfolio month) are summed first; writes to it in another unit go in a later round, where the unit
  // condition refuses them as it refuses a single write.
  const merged = new Map<string, RollupWrite>();
  for (const w of writes) {
    const key = `${w.pk}\u0000${w.sk}\u0000${w.delta.unit}`;
    const sum = merged.get(key);
    if (!sum) merged.set(key, { ...w, delta: { ...w.delta } });
    else sum.delta = sumDeltas(sum.delta, w.delta);
  }
  const rounds: { keys: Set<string>; writes: RollupWrite[] }[] = [];
  for (const w of merged.values()) {
    const key = `${w.pk}\u0000${w.sk}`;
    let round = rounds.find((r) => !r.keys.has(key));
    if (!round) {
      round = { keys: new Set(), writes: [] };
      rounds.push(round);
    }
    round.keys.add(key);
    round.writes.push(w);
  }
  for (const [i, round] of rounds.entries())
    await addInTransactions(round.writes, limit, marks && { ...marks, part: `${marks.part}#${i}` });
}

function sumDeltas(a: RollupDelta, b: RollupDelta): RollupDelta {
  const out: RollupDelta = {
    unit: a.unit,
    consumption: round3(a.consumption + b.consumption),
    cost: Math.round((a.cost + b.cost) * 100) / 100,
    emissionsKg: round3(a.emissionsKg + b.emissionsKg),
  };
  for (const part of ALL_ROLLUP_PARTS)
    if (a[part] !== undefined || b[part] !== undefined) out[part] = round3((a[part] ?? 0) + (b[part] ?? 0));
  return out;
}

/** Writes different items' changes, a hundred to a transaction, several transactions at once. */
async function addInTransactions(
  writes: readonly RollupWrite[],
  limit: number,
  marks?: ChunkMarks,
): Promise<void> {
  // A marked chunk gives one of its hundred actions to its marker.
  const size = marks ? MAX_TRANSACTION_ACTIONS - 1 : MAX_TRANSACTION_ACTIONS;
  const groups: { chunk: string; writes: RollupWrite[] }[] = [];
  for (let i = 0; i < writes.length; i += size)
    groups.push({ chunk: `${marks?.part}#${i / size}`, writes: writes.slice(i, i + size) });
  await inPool(groups, limit, async ({ chunk, writes: group }) => {
    if (group.length === 1 && !marks) {
      const [w] = group as [RollupWrite];
      await addTo(w.pk, w.sk, w.fields, w.delta);
      return;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const marker = marks && markerUpdate(marks, chunk);
        await documentClient().send(
          new TransactWriteCommand({
            TransactItems: [
              ...(marker ? [{ Update: marker }] : []),
              ...group.map((w) => ({ Update: rollupItemUpdate(w) })),
            ],
          }),
        );
        return;
      } catch (err) {
        const codes = cancellationCodes(err);
        if (!codes) throw err;
        // The chunk landed whole before (its marker is there): a run sent again adds nothing twice.
        if (marks && codes[0] === 'ConditionalCheckFailed') return;
        if (codes.includes('ConditionalCheckFailed') || attempt >= MAX_TRANSACTION_ATTEMPTS) {
          let refused: unknown;
          for (const [i, w] of group.entries())
            await (marks ? addMarked(marks, `${chunk}#${i}`, w) : addTo(w.pk, w.sk, w.fields, w.delta)).catch(
              (e: unknown) => (refused ??= e),
            );
          if (refused) throw refused;
          return;
        }
        await backOff(attempt);
      }
    }
  });
}

const rollupItemUpdate = (w: RollupWrite) => ({
  TableName: config().tableName,
  Key: { pk: w.pk, sk: w.sk },
  ...rollupUpdate(w.fields, w.delta),
});

/** Creates a chunk's marker, only if there is none: in the chunk's transaction, it makes the chunk once. */
const markerUpdate = (marks: ChunkMarks, chunk: string) => ({
  TableName: config().tableName,
  Key: {
    pk: consumptionKeys.rollupMarks(marks.companyId, marks.mark),
    sk: consumptionKeys.rollupChunkSk(chunk),
  },
  UpdateExpression: 'SET #companyId = :companyId, #markedAt = :now',
  ConditionExpression: 'attribute_not_exists(#pk)',
  ExpressionAttributeNames: { '#pk': 'pk', '#companyId': 'companyId', '#markedAt': 'markedAt' },
  ExpressionAttributeValues: { ':companyId': marks.companyId, ':now': new Date().toISOString() },
});

/** One item of a marked chunk on its own, with its own marker: it lands once, or is refused by its unit. */
async function addMarked(marks: ChunkMarks, chunk: string, w: RollupWrite): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(
        new TransactWriteCommand({
          TransactItems: [{ Update: markerUpdate(marks, chunk) }, { Update: rollupItemUpdate(w) }],
        }),
      );
      return;
    } catch (err) {
      const codes = cancellationCodes(err);
      // Its marker is there: the item landed before, whatever its unit says now.
      if (codes?.[0] === 'ConditionalCheckFailed') return;
      if (!codes || codes[1] === 'ConditionalCheckFailed' || attempt >= MAX_TRANSACTION_ATTEMPTS) throw err;
      await backOff(attempt);
    }
  }
}

/**
 * Forgets a marked write's chunks once nothing will send it again (an import's roll-ups all added and
 * recorded so): the markers are needed only to take a redelivered write once.
 */
export async function dropRollupMarks(companyId: string, mark: string): Promise<void> {
  const pk = consumptionKeys.rollupMarks(companyId, mark);
  const sks = await queryMapped(
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'sk',
    },
    (raw) => String(raw.sk),
  );
  if (sks.length > 0)
    await batchWrite(
      sks.map((sk) => ({ DeleteRequest: { Key: { pk, sk } } })),
      { what: 'deletes' },
    );
}

/** Whether any chunk of a marked write of many roll-ups landed (and its markers are not yet dropped). */
export async function hasRollupMarks(companyId: string, mark: string): Promise<boolean> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: config().tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': consumptionKeys.rollupMarks(companyId, mark) },
      ProjectionExpression: 'sk',
      Limit: 1,
    }),
  );
  return (out.Items ?? []).length > 0;
}

/** What one write adds to an item of figures (an account month or a roll-up). */
interface FiguresChange {
  /** Figures added by attribute name: ADD is atomic on the table, so concurrent writers never lose any. */
  adds: Record<string, number>;
  /** Fields set by attribute name; the unit and the time of the write always are. */
  sets: Record<string, unknown>;
  /** Fields set only on an item that has none yet. */
  keeps?: Record<string, unknown>;
  unit: string;
  /** The parts of a bill (VAT, levies, standing charges) added beside the figures. */
  parts: RollupParts;
  /** Which parts: a bill's only (a meter's month), or the splits by source and meter user too (a roll-up). */
  which?: readonly (keyof RollupParts)[];
  /**
   * The invoice the figures are a share of, added (sign 1) or taken back (sign -1, the figures then
   * subtracted): the item records the ids of the invoices it holds, and the write happens once for each.
   */
  invoice?: { id: string; sign: 1 | -1 };
}

/**
 * The update expression, condition, names and values of a change of figures. Figures in different units
 * are never summed into one item, so adding requires the item's unit to be the change's (or none yet).
 */
function figuresUpdate(change: FiguresChange): Omit<ItemUpdate, 'Key'> {
  const sign = change.invoice?.sign ?? 1;
  const names: Record<string, string> = { '#unit': 'unit', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':unit': change.unit, ':now': new Date().toISOString() };
  const adds: string[] = [];
  Object.entries(change.adds).forEach(([field, value], i) => {
    names[`#a${i}`] = field;
    values[`:a${i}`] = sign * value;
    adds.push(`#a${i} :a${i}`);
  });
  const parts = partAdds(change.parts, sign, change.which);
  Object.assign(names, parts.names);
  Object.assign(values, parts.values);
  adds.push(...parts.adds);
  const sets = ['#unit = :unit', '#updatedAt = :now'];
  Object.entries(change.sets).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  Object.entries(change.keeps ?? {}).forEach(([field, value], i) => {
    names[`#k${i}`] = field;
    values[`:k${i}`] = value;
    sets.push(`#k${i} = if_not_exists(#k${i}, :k${i})`);
  });
  const sameUnit = 'attribute_not_exists(#unit) OR #unit = :unit';
  const set = `SET ${sets.join(', ')}`;
  if (!change.invoice)
    return {
      UpdateExpression: `ADD ${adds.join(', ')} ${set}`,
      ConditionExpression: sameUnit,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
  names['#invoices'] = 'invoiceIds';
  values[':ids'] = new Set([change.invoice.id]);
  values[':id'] = change.invoice.id;
  return sign === 1
    ? {
        UpdateExpression: `ADD ${[...adds, '#invoices :ids'].join(', ')} ${set}`,
        ConditionExpression: `(attribute_not_exists(#invoices) OR NOT contains(#invoices, :id)) AND (${sameUnit})`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }
    : {
        UpdateExpression: `ADD ${adds.join(', ')} DELETE #invoices :ids ${set}`,
        ConditionExpression: 'contains(#invoices, :id)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      };
}

/**
 * Adds an account month's figures (negative to take them away) to its asset's and its company's roll-up
 * for that month and utility. Sub-meters must not be added: their parent meter already counts them.
 */
export async function addToRollups(
  companyId: string,
  assetId: string,
  month: string,
  utilityType: UtilityType,
  delta: RollupDelta,
): Promise<void> {
  assertMonth(month);
  const sk = consumptionKeys.rollupSk(month, utilityType);
  const base = { companyId, month, utilityType };
  await addTo(consumptionKeys.assetRollups(companyId, assetId), sk, { ...base, assetId }, delta);
  await addToSiteYear(companyId, assetId, month, utilityType, delta);
  await addTo(consumptionKeys.companyRollups(companyId), sk, base, delta);
  // Read after the site's write: a portfolio the site joins later copies that write with the site's rows.
  for (const groupId of await portfoliosHoldingSite(companyId, assetId))
    await addTo(
      consumptionKeys.portfolioRollups(companyId, groupId),
      sk,
      { ...base, portfolioId: groupId },
      delta,
    );
}

/** One site's change in one month and utility, as many meters' writes add up to it. */
export interface SiteMonthDelta extends RollupDelta {
  assetId: string;
  month: string;
  utilityType: UtilityType;
}

/**
 * Adds many sites' monthly changes at once (an import's): each site's roll-up and its portfolios' once
 * per month, the company's once per month and utility for all of them, so a file of many meters costs a
 * write per site-month rather than three. The same atomic ADDs as `addToRollups`.
 *
 * With `mark` (naming the write, as `import#{id}`), the same deltas sent again, in the same order, add
 * only what the earlier call did not: each chunk of roll-ups lands once with its marker, and each site's
 * year keeps the mark as it keeps an invoice's. A worker that dies midway is then simply run again.
 */
export async function addManyToRollups(
  companyId: string,
  deltas: readonly SiteMonthDelta[],
  limit = 8,
  mark?: string,
): Promise<void> {
  const marks = (part: string) => (mark ? { companyId, mark, part } : undefined);
  const company = new Map<string, SiteMonthDelta>();
  for (const d of deltas) {
    assertMonth(d.month);
    const key = `${d.month}#${d.utilityType}#${d.unit}`;
    const sum = company.get(key);
    if (!sum) company.set(key, { ...d });
    else {
      sum.consumption += d.consumption;
      sum.cost += d.cost;
      sum.emissionsKg += d.emissionsKg;
      for (const part of ALL_ROLLUP_PARTS)
        if (d[part] !== undefined) sum[part] = round3((sum[part] ?? 0) + d[part]);
    }
  }
  const siteWrites = deltas.map(({ assetId, month, utilityType, ...delta }) => ({
    pk: consumptionKeys.assetRollups(companyId, assetId),
    sk: consumptionKeys.rollupSk(month, utilityType),
    fields: { companyId, month, utilityType, assetId },
    delta,
  }));
  await addToMany(siteWrites, limit, marks('site'));
  // Read after the sites' writes: a portfolio a site joins later copies those writes with the site's rows.
  const sites = [...new Set(deltas.map((d) => d.assetId))];
  const holding = new Map(
    await inPool(
      sites,
      limit,
      async (assetId) => [assetId, await portfoliosHoldingSite(companyId, assetId)] as const,
    ),
  );
  await addToMany(
    deltas.flatMap(({ assetId, month, utilityType, ...delta }) =>
      (holding.get(assetId) ?? []).map((groupId) => ({
        pk: consumptionKeys.portfolioRollups(companyId, groupId),
        sk: consumptionKeys.rollupSk(month, utilityType),
        fields: { companyId, month, utilityType, portfolioId: groupId },
        delta,
      })),
    ),
    limit,
    marks('portfolio'),
  );
  // A site's year gains all its months of the file in one write, not one write per month.
  const years = new Map<
    string,
    {
      assetId: string;
      year: string;
      utilityType: UtilityType;
      delta: RollupDelta;
      months: Map<string, SiteMonthFigures>;
    }
  >();
  for (const d of deltas) {
    const year = d.month.slice(0, 4);
    const key = `${d.assetId}|${year}|${d.utilityType}|${d.unit}`;
    let y = years.get(key);
    if (!y) {
      y = {
        assetId: d.assetId,
        year,
        utilityType: d.utilityType,
        delta: { unit: d.unit, consumption: 0, cost: 0, emissionsKg: 0 },
        months: new Map(),
      };
      years.set(key, y);
    }
    y.delta.consumption += d.consumption;
    y.delta.cost += d.cost;
    y.delta.emissionsKg += d.emissionsKg;
    for (const part of ROLLUP_PARTS) {
      const v = d[part];
      if (v !== undefined) y.delta[part] = (y.delta[part] ?? 0) + v;
    }
    y.months.set(d.month, addMonthFigures(y.months.get(d.month), d));
  }
  await addManyToSiteYears(
    companyId,
    [...years.values()].map((y) => ({
      ...y,
      delta: {
        ...y.delta,
        consumption: Math.round(y.delta.consumption * 1000) / 1000,
        cost: Math.round(y.delta.cost * 100) / 100,
        emissionsKg: Math.round(y.delta.emissionsKg * 1000) / 1000,
      },
      ...(mark ? { once: { key: mark } } : {}),
    })),
    limit,
  );
  await addToMany(
    [...company.values()].map(({ assetId: _a, month, utilityType, ...delta }) => ({
      pk: consumptionKeys.companyRollups(companyId),
      sk: consumptionKeys.rollupSk(month, utilityType),
      fields: { companyId, month, utilityType },
      delta: {
        ...delta,
        consumption: Math.round(delta.consumption * 1000) / 1000,
        cost: Math.round(delta.cost * 100) / 100,
        emissionsKg: Math.round(delta.emissionsKg * 1000) / 1000,
      },
    })),
    limit,
    marks('company'),
  );
}

/**
 * Writes roll-ups whole, replacing what was there: for rebuilding them from account months. The sites'
 * years gain the difference from the rows replaced, so batches of different sites' rows may run at once.
 */
export async function putRollups(
  companyId: string,
  rows: readonly (Rollup & { assetId?: string })[],
): Promise<void> {
  const now = new Date().toISOString();
  const siteRows = rows.filter((r): r is Rollup & { assetId: string } => r.assetId !== undefined);
  const keyOf = (r: Rollup & { assetId: string }) => ({
    pk: consumptionKeys.assetRollups(companyId, r.assetId),
    sk: consumptionKeys.rollupSk(r.month, r.utilityType),
  });
  const before = await getRollups([
    ...new Map(siteRows.map((r) => [`${keyOf(r).pk}|${keyOf(r).sk}`, keyOf(r)])).values(),
  ]);
  await batchPut(
    rows.map((r) => {
      assertMonth(r.month);
      const pk = r.assetId
        ? consumptionKeys.assetRollups(companyId, r.assetId)
        : consumptionKeys.companyRollups(companyId);
      return { pk, sk: consumptionKeys.rollupSk(r.month, r.utilityType), companyId, ...r, updatedAt: now };
    }),
  );
  const years = new Map<
    string,
    { row: Rollup & { assetId: string }; delta: RollupDelta; months: Map<string, SiteMonthFigures> }
  >();
  for (const r of siteRows) {
    const old = before.get(
      `${consumptionKeys.assetRollups(companyId, r.assetId)}|${consumptionKeys.rollupSk(r.month, r.utilityType)}`,
    );
    const key = `${r.assetId}#${r.month.slice(0, 4)}#${r.utilityType}`;
    const year = years.get(key) ?? {
      row: r,
      delta: { consumption: 0, cost: 0, emissionsKg: 0, unit: r.unit },
      months: new Map<string, SiteMonthFigures>(),
    };
    const change: SiteMonthFigures = {
      consumption: r.consumption - (Number(old?.consumption) || 0),
      cost: r.cost - (Number(old?.cost) || 0),
      emissionsKg: r.emissionsKg - (Number(old?.emissionsKg) || 0),
    };
    year.delta.consumption += change.consumption;
    year.delta.cost += change.cost;
    year.delta.emissionsKg += change.emissionsKg;
    for (const part of ROLLUP_PARTS) {
      const d = (r[part] ?? 0) - (Number(old?.[part]) || 0);
      if (d !== 0) year.delta[part] = (year.delta[part] ?? 0) + d;
    }
    year.months.set(r.month, addMonthFigures(year.months.get(r.month), change));
    years.set(key, year);
  }
  await addManyToSiteYears(
    companyId,
    [...years.values()].map(({ row, delta, months }) => ({
      assetId: row.assetId,
      year: row.month.slice(0, 4),
      utilityType: row.utilityType,
      delta,
      months,
    })),
  );
}

/** Roll-up rows by key (`pk|sk`), as they stand before a replacement. */
async function getRollups(
  keys: readonly { pk: string; sk: string }[],
): Promise<Map<string, Record<string, unknown>>> {
  const tableName = config().tableName;
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < keys.length; i += 100) {
    let batch: Record<string, unknown>[] = keys.slice(i, i + 100).map((k) => ({ pk: k.pk, sk: k.sk }));
    for (let attempt = 0; batch.length > 0; attempt++) {
      if (attempt >= MAX_BATCH_ATTEMPTS) throw new Error('The table kept refusing a batch of reads');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: batch } } }),
      );
      for (const raw of out.Responses?.[tableName] ?? []) found.set(`${raw.pk}|${raw.sk}`, raw);
      batch = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return found;
}

/**
 * Writes each site's years whole from its monthly roll-ups: fills the store for roll-ups written before
 * it kept them.
 */
export async function rebuildSiteYears(companyId: string, assetIds: readonly string[]): Promise<void> {
  await inPool([...assetIds], 16, async (assetId) =>
    replaceSiteYears(companyId, assetId, await rollupRows(consumptionKeys.assetRollups(companyId, assetId))),
  );
}

/** An asset's monthly roll-ups from `from` to `to` inclusive (YYYY-MM), optionally of one utility. */
export async function listAssetRollups(
  companyId: string,
  assetId: string,
  from: string,
  to: string,
  utilityType?: UtilityType,
): Promise<Rollup[]> {
  return listRollups(consumptionKeys.assetRollups(companyId, assetId), from, to, utilityType);
}

/** A portfolio's monthly roll-ups: the sum of its sites', kept by the same deltas. */
export async function listPortfolioRollups(
  companyId: string,
  groupId: string,
  from: string,
  to: string,
  utilityType?: UtilityType,
): Promise<Rollup[]> {
  return listRollups(consumptionKeys.portfolioRollups(companyId, groupId), from, to, utilityType);
}

export async function listCompanyRollups(
  companyId: string,
  from: string,
  to: string,
  utilityType?: UtilityType,
): Promise<Rollup[]> {
  return listRollups(consumptionKeys.companyRollups(companyId), from, to, utilityType);
}

async function listRollups(pk: string, from: string, to: string, utilityType?: UtilityType) {
  assertMonth(from);
  assertMonth(to);
  // '#~' sorts after every '#utility' suffix, so the last month is included whole.
  const rows = await queryRange<Rollup>(pk, `${from}#`, `${to}#~`);
  return utilityType ? rows.filter((r) => r.utilityType === utilityType) : rows;
}

/** What one confirmed invoice adds to one month of its account (its period is shared out by days). */
export interface InvoiceContribution extends RollupDelta {
  month: string;
  utilityType: UtilityType;
  factorVersion: string;
}

/**
 * The contributions a confirmed invoice keeps, to take them back (deleted) or add them again (restored):
 * those naming the month and utility whose items they change. Only these two fields are checked, so a
 * contribution written before a figure was added to them is still taken back.
 */
export function storedContributions(invoice: Record<string, unknown>): InvoiceContribution[] {
  const isContribution = (v: unknown): v is InvoiceContribution => {
    const f = objectOf(v);
    return typeof f.month === 'string' && MONTH.test(f.month) && utilityTypeOf(f.utilityType) !== undefined;
  };
  return Array.isArray(invoice.contributions) ? invoice.contributions.filter(isContribution) : [];
}

/**
 * Adds (sign 1) or takes back (sign -1) an invoice's share of a month in the account's months and, unless
 * the account is a sub-meter (no assetId given), in its asset's and company's roll-ups. Each item records
 * the ids of the invoices it holds, and the condition on that set makes every write happen once: a retried
 * confirmation or a repeated deletion changes nothing twice, without needing a transaction.
 *
 * A month of a meter with interval data takes its consumption and emissions from that data alone: a bill
 * for it adds its cost and charges, and its consumption only to the month's record of what bills said
 * (`billConsumption`), never to the figures, so the same energy is not counted twice.
 */
export async function applyInvoiceContribution(
  companyId: string,
  accountId: string,
  assetId: string | undefined,
  invoiceId: string,
  c: InvoiceContribution,
  sign: 1 | -1,
): Promise<void> {
  assertMonth(c.month);
  const sk = consumptionKeys.rollupSk(c.month, c.utilityType);
  const monthKey = { pk: consumptionKeys.accountMonths(companyId, accountId), sk: c.month };
  const counted = await writeBillToMonth(monthKey, invoiceId, c, sign, {
    companyId,
    accountId,
    month: c.month,
  });
  // What the roll-ups take: the bill's figures, or only its money when interval data leads the month.
  const share: InvoiceContribution = counted ? c : { ...c, consumption: 0, emissionsKg: 0 };
  // Split as a bill's, and by the meter's user as it stands now (changing the user rebuilds the site).
  const split = assetId
    ? splitOf(share, 'bills', meterUserOf(await findStoredAccount(companyId, accountId)))
    : {};
  const targets: { pk: string; sk: string; fields: Record<string, string> }[] = [];
  if (assetId) {
    const base = { companyId, month: c.month, utilityType: c.utilityType };
    targets.push({ pk: consumptionKeys.assetRollups(companyId, assetId), sk, fields: { ...base, assetId } });
    targets.push({ pk: consumptionKeys.companyRollups(companyId), sk, fields: base });
  }
  // Each portfolio item holds the invoice ids too, so the write to it happens once like the others.
  const portfolioTargets = async () =>
    assetId
      ? (await portfoliosHoldingSite(companyId, assetId)).map((groupId) => ({
          pk: consumptionKeys.portfolioRollups(companyId, groupId),
          sk,
          fields: { companyId, month: c.month, utilityType: c.utilityType, portfolioId: groupId } as Record<
            string,
            string
          >,
        }))
      : [];
  const write = async (t: (typeof targets)[number]) => {
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: { pk: t.pk, sk: t.sk },
          ...figuresUpdate({
            adds: { consumption: share.consumption, cost: share.cost, emissionsKg: share.emissionsKg },
            sets: { factorVersion: c.factorVersion, ...t.fields },
            unit: c.unit,
            parts: { ...c, ...split },
            which: ALL_ROLLUP_PARTS,
            invoice: { id: invoiceId, sign },
          }),
        }),
      );
    } catch (err) {
      // Already applied (or already taken back): that is the point of the condition.
      if (!(err instanceof Error && err.name === 'ConditionalCheckFailedException')) throw err;
    }
  };
  for (const t of targets) await write(t);
  if (assetId) await addToSiteYear(companyId, assetId, c.month, c.utilityType, share, { invoiceId, sign });
  // Looked up after the site's own write (see addToRollups).
  for (const t of await portfolioTargets()) await write(t);
}

/**
 * Writes a bill's share of a month to the account's month, once per invoice, and answers whether the
 * month's figures count its consumption and emissions: they do unless interval data leads the month
 * (`intervalVersion` set), in which case only its cost and charges are added. The choice is made under a
 * condition on that attribute, so interval data arriving at the same moment cannot make both count.
 */
async function writeBillToMonth(
  key: { pk: string; sk: string },
  invoiceId: string,
  c: InvoiceContribution,
  sign: 1 | -1,
  fields: Record<string, string>,
): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await documentClient().send(
      new GetCommand({
        TableName: config().tableName,
        Key: key,
        ConsistentRead: true,
        ProjectionExpression: '#invoices, #interval, #unit',
        ExpressionAttributeNames: {
          '#invoices': 'invoiceIds',
          '#interval': 'intervalVersion',
          '#unit': 'unit',
        },
      }),
    );
    const led = current.Item?.intervalVersion !== undefined;
    const held = current.Item?.invoiceIds instanceof Set && current.Item.invoiceIds.has(invoiceId);
    // Already written (a retry): the roll-ups still take the share as the month stands. A month in another
    // unit is never summed with this one.
    if (sign === 1 ? held : !held) return !led;
    if (sign === 1 && current.Item?.unit !== undefined && current.Item.unit !== c.unit) return !led;
    const bill = { cost: c.cost, billConsumption: c.consumption, billEmissionsKg: c.emissionsKg };
    const update = figuresUpdate({
      // Interval data leading the month keeps its consumption, emissions and factor set, and stays its source.
      adds: led ? bill : { ...bill, consumption: c.consumption, emissionsKg: c.emissionsKg },
      sets: led ? fields : { factorVersion: c.factorVersion, ...fields, source: 'invoice' },
      keeps: led ? { source: 'invoice' } : {},
      unit: c.unit,
      parts: c,
      invoice: { id: invoiceId, sign },
    });
    try {
      await documentClient().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: key,
          ...update,
          ConditionExpression: `(${update.ConditionExpression}) AND ${led ? 'attribute_exists(#interval)' : 'attribute_not_exists(#interval)'}`,
          ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#interval': 'intervalVersion' },
        }),
      );
      return !led;
    } catch (err) {
      // Written meanwhile, or interval data arrived: read again and decide from there.
      if (err instanceof Error && err.name === 'ConditionalCheckFailedException') continue;
      throw err;
    }
  }
  throw new Error(`The month ${key.sk} kept changing under the bill ${invoiceId}`);
}

/** One account month's emissions as read, and as a restatement in another factor set gives them. */
export interface MonthRestatement {
  month: string;
  utilityType: UtilityType;
  unit: string;
  from: { emissionsKg: number; factorVersion: string };
  to: { emissionsKg: number; factorVersion: string };
}

/** What a restatement job changed in an account month, kept on the month under the job's id. */
export interface MonthRestated {
  fromKg: number;
  toKg: number;
  factorVersion: string;
  /**
   * The run of the job (one delivery of it) that recorded the change: a run that finds a month taken away
   * since it listed the month's meter tells by it whether the record is the one it listed.
   */
  run?: string;
}

/** The restatements an account month records, by job id. */
export function restatementsOf(month: StoredAccountMonth): Record<string, MonthRestated> {
  const raw = (month as StoredAccountMonth & { restatements?: unknown }).restatements;
  if (!raw || typeof raw !== 'object') return {};
  const out: Record<string, MonthRestated> = {};
  for (const [jobId, v] of Object.entries(raw)) {
    if (!v || typeof v !== 'object') continue;
    const r = v as Record<string, unknown>;
    if (typeof r.fromKg === 'number' && typeof r.toKg === 'number' && typeof r.factorVersion === 'string')
      out[jobId] = {
        fromKg: r.fromKg,
        toKg: r.toKg,
        factorVersion: r.factorVersion,
        ...(typeof r.run === 'string' ? { run: r.run } : {}),
      };
  }
  return out;
}

/**
 * Restates one account month's emissions for a restatement job, and records on the month, in the same
 * write, what the job changed: the roll-ups take the difference later from that record
 * (`applyRestatementToSite`, `applyRestatementToGroups`), so a worker dying in between leaves nothing the
 * next delivery cannot finish. The month is changed only if it still holds the figure read, so a month a
 * bill changed meanwhile is left for the next restatement: answers whether the month was restated.
 */
export async function restateAccountMonth(
  companyId: string,
  accountId: string,
  jobId: string,
  r: MonthRestatement,
  recorded: Readonly<Record<string, MonthRestated>> = {},
  run?: string,
): Promise<boolean> {
  assertMonth(r.month);
  const record: MonthRestated = {
    fromKg: r.from.emissionsKg,
    toKg: r.to.emissionsKg,
    factorVersion: r.to.factorVersion,
    ...(run === undefined ? {} : { run }),
  };
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk: consumptionKeys.accountMonths(companyId, accountId), sk: r.month },
        UpdateExpression:
          'SET #emissions = :to, #factor = :toFactor, #updatedAt = :now, #restatements = :restatements',
        ConditionExpression: '#emissions = :from AND #factor = :fromFactor',
        ExpressionAttributeNames: {
          '#emissions': 'emissionsKg',
          '#factor': 'factorVersion',
          '#updatedAt': 'updatedAt',
          '#restatements': 'restatements',
        },
        ExpressionAttributeValues: {
          ':to': r.to.emissionsKg,
          ':toFactor': r.to.factorVersion,
          ':from': r.from.emissionsKg,
          ':fromFactor': r.from.factorVersion,
          ':now': new Date().toISOString(),
          ':restatements': { ...recorded, [jobId]: record },
        },
      }),
    );
  } catch (err) {
    if (err instanceof Error && err.name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
  return true;
}

/** A restatement job's change to one site's month and utility: the sum of its meters' recorded changes. */
export interface RestatedSiteMonth {
  month: string;
  utilityType: UtilityType;
  unit: string;
  emissionsKg: number;
  factorVersion: string;
  /** The change split by the months' sources and meters' users (see rollup-parts). */
  parts?: RollupParts;
}

/** The mark a roll-up row keeps of a restatement job it has taken: each row takes a job's change once. */
const restatementMark = (jobId: string) => `restatement#${jobId}`;

/** Sums changes by month and utility (and unit: figures in different units are never summed). */
export function sumRestatedMonths(rows: readonly RestatedSiteMonth[]): RestatedSiteMonth[] {
  const sums = new Map<string, RestatedSiteMonth>();
  for (const r of rows) {
    const key = `${r.month}#${r.utilityType}#${r.unit}`;
    const sum = sums.get(key);
    if (!sum) sums.set(key, { ...r, ...(r.parts ? { parts: { ...r.parts } } : {}) });
    else {
      sum.emissionsKg = round3(sum.emissionsKg + r.emissionsKg);
      if (r.factorVersion > sum.factorVersion) sum.factorVersion = r.factorVersion;
      for (const [part, v] of Object.entries(r.parts ?? {}) as [keyof RollupParts, number][]) {
        sum.parts ??= {};
        sum.parts[part] = round3((sum.parts[part] ?? 0) + v);
      }
    }
  }
  return [...sums.values()];
}

/** Adds a job's change to one roll-up row unless the row holds the job's mark already. */
async function addRestatementTo(
  pk: string,
  jobId: string,
  row: RestatedSiteMonth,
  fields: Record<string, string>,
): Promise<void> {
  if (row.emissionsKg === 0) return;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: { pk, sk: consumptionKeys.rollupSk(row.month, row.utilityType) },
        ...figuresUpdate({
          adds: { emissionsKg: row.emissionsKg },
          sets: {
            factorVersion: row.factorVersion,
            month: row.month,
            utilityType: row.utilityType,
            ...fields,
          },
          unit: row.unit,
          parts: row.parts ?? {},
          which: ALL_ROLLUP_PARTS,
          invoice: { id: restatementMark(jobId), sign: 1 },
        }),
      }),
    );
  } catch (err) {
    // Taken by an earlier delivery of the job: that is the point of the mark.
    if (!(err instanceof Error && err.name === 'ConditionalCheckFailedException')) throw err;
  }
}

/**
 * Adds a restatement job's change of one site's months (each month and utility summed over its meters)
 * to the site's monthly roll-ups and its years, each row once for the job however often this runs.
 * Answers the portfolios holding the site, whose roll-ups `applyRestatementToGroups` moves.
 */
export async function applyRestatementToSite(
  companyId: string,
  jobId: string,
  assetId: string,
  months: readonly RestatedSiteMonth[],
): Promise<string[]> {
  const rows = sumRestatedMonths(months);
  const base = { companyId, assetId };
  for (const row of rows)
    await addRestatementTo(consumptionKeys.assetRollups(companyId, assetId), jobId, row, base);
  const years = new Map<
    string,
    { year: string; utilityType: UtilityType; delta: RollupDelta; months: Map<string, SiteMonthFigures> }
  >();
  for (const row of rows) {
    const year = row.month.slice(0, 4);
    const key = `${year}#${row.utilityType}#${row.unit}`;
    const y = years.get(key) ?? {
      year,
      utilityType: row.utilityType,
      delta: { consumption: 0, cost: 0, emissionsKg: 0, unit: row.unit },
      months: new Map<string, SiteMonthFigures>(),
    };
    y.delta.emissionsKg = round3(y.delta.emissionsKg + row.emissionsKg);
    y.months.set(
      row.month,
      addMonthFigures(y.months.get(row.month), { consumption: 0, cost: 0, emissionsKg: row.emissionsKg }),
    );
    years.set(key, y);
  }
  for (const y of years.values())
    if (y.delta.emissionsKg !== 0)
      await addMonthsToSiteYear(companyId, assetId, y.year, y.utilityType, y.delta, y.months, {
        key: restatementMark(jobId),
      });
  return portfoliosHoldingSite(companyId, assetId);
}

/**
 * Adds a restatement job's change to the company's monthly roll-ups and to the portfolios' (each given
 * summed over its sites), each row once for the job however often this runs.
 */
export async function applyRestatementToGroups(
  companyId: string,
  jobId: string,
  company: readonly RestatedSiteMonth[],
  portfolios: ReadonlyMap<string, readonly RestatedSiteMonth[]>,
): Promise<void> {
  for (const row of sumRestatedMonths(company))
    await addRestatementTo(consumptionKeys.companyRollups(companyId), jobId, row, { companyId });
  for (const [groupId, rows] of portfolios)
    for (const row of sumRestatedMonths(rows))
      await addRestatementTo(consumptionKeys.portfolioRollups(companyId, groupId), jobId, row, {
        companyId,
        portfolioId: groupId,
      });
}

/** Days of interval data of one meter and month, as they count in the meter's month: in the account's unit. */
export interface IntervalMonthFigures {
  /** YYYY-MM */
  month: string;
  utilityType: UtilityType;
  unit: string;
  factorVersion: string;
  days: readonly { date: string; consumption: number; emissionsKg: number }[];
}

const MAX_CAS_ATTEMPTS = 8;
const round3 = (v: number) => Math.round(v * 1000) / 1000;

const numberMap = (v: unknown): Record<string, number> =>
  v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v).filter(([, n]) => typeof n === 'number'))
    : {};

/**
 * Puts days of interval data into their account's month, each replacing what that day held before, and
 * adds the difference to the asset's and company's roll-ups (unless the account is a sub-meter: no
 * assetId). The month keeps each day's figures (`intervalDays`, `intervalEmissions`, by day of the month)
 * under a version, and the swap is conditional on the version read, so a day written twice, or by two
 * writers at once, counts once: each writer adds exactly the change it made. The account month is
 * therefore always exact; should a crash fall between it and the roll-ups, rebuilding the asset's roll-ups
 * from its months (invalidate-cache) mends them. Answers the change made (zero when the days already held
 * these figures).
 */
export async function applyIntervalMonth(
  companyId: string,
  accountId: string,
  assetId: string | undefined,
  figures: IntervalMonthFigures,
): Promise<RollupDelta> {
  checkIntervalMonth(figures);
  const key = { pk: consumptionKeys.accountMonths(companyId, accountId), sk: figures.month };
  const user = meterUserOf(await findStoredAccount(companyId, accountId));
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await documentClient().send(
      new GetCommand({
        TableName: config().tableName,
        Key: key,
        ConsistentRead: true,
        ...INTERVAL_MONTH_READ,
      }),
    );
    const write = intervalMonthWrite(companyId, accountId, figures, current.Item, user);
    if (!write.update) return write.delta;
    try {
      await documentClient().send(new UpdateCommand({ TableName: config().tableName, ...write.update }));
    } catch (err) {
      // Another writer changed the month since it was read: read again and apply the change from there.
      if (err instanceof Error && err.name === 'ConditionalCheckFailedException') continue;
      throw err;
    }
    const { delta } = write;
    if (assetId && (delta.consumption !== 0 || delta.emissionsKg !== 0)) {
      await addToRollups(companyId, assetId, figures.month, figures.utilityType, delta);
    }
    return delta;
  }
  throw new Error(`The month ${figures.month} of ${accountId} kept changing under the write`);
}

/**
 * `applyIntervalMonth` for many months of one account, without roll-ups (the caller adds many meters'
 * changes together): the months are read in one query and written in one transaction rather than a read
 * and a write each. A transaction that another writer's change to one of its months cancels is written
 * month by month, each read again. Answers each month's change, in the order given.
 */
export async function applyIntervalMonths(
  companyId: string,
  accountId: string,
  months: readonly IntervalMonthFigures[],
): Promise<RollupDelta[]> {
  if (months.length === 0) return [];
  for (const figures of months) checkIntervalMonth(figures);
  const pk = consumptionKeys.accountMonths(companyId, accountId);
  const sorted = months.map((m) => m.month).sort();
  const read = new Map<string, Record<string, unknown>>();
  await eachQueried(
    {
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ConsistentRead: true,
      ProjectionExpression: `#sk, ${INTERVAL_MONTH_READ.ProjectionExpression}`,
      ExpressionAttributeNames: { ...INTERVAL_MONTH_READ.ExpressionAttributeNames, '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': pk, ':from': sorted[0], ':to': sorted.at(-1) },
    },
    (raw) => {
      read.set(String(raw.sk), raw);
    },
  );
  const user = meterUserOf(await findStoredAccount(companyId, accountId));
  const writes = months.map((figures) =>
    intervalMonthWrite(companyId, accountId, figures, read.get(figures.month), user),
  );
  const deltas = writes.map((w) => w.delta);
  const changed = writes.flatMap((w, i) => (w.update ? [{ i, update: w.update }] : []));
  for (let at = 0; at < changed.length; at += MAX_TRANSACTION_ACTIONS) {
    const group = changed.slice(at, at + MAX_TRANSACTION_ACTIONS);
    try {
      if (group.length === 1)
        await documentClient().send(
          new UpdateCommand({ TableName: config().tableName, ...(group[0]?.update as ItemUpdate) }),
        );
      else
        await documentClient().send(
          new TransactWriteCommand({
            TransactItems: group.map((g) => ({ Update: { TableName: config().tableName, ...g.update } })),
          }),
        );
    } catch (err) {
      const lost =
        err instanceof Error &&
        (err.name === 'ConditionalCheckFailedException' || cancellationCodes(err) !== undefined);
      if (!lost) throw err;
      // Nothing of the group was written: each month is read and written again on its own.
      for (const g of group)
        deltas[g.i] = await applyIntervalMonth(
          companyId,
          accountId,
          undefined,
          months[g.i] as IntervalMonthFigures,
        );
    }
  }
  return deltas;
}

function checkIntervalMonth(figures: IntervalMonthFigures): void {
  assertMonth(figures.month);
  for (const d of figures.days)
    if (d.date.slice(0, 7) !== figures.month) throw new Error(`${d.date} is not in ${figures.month}`);
}

/** What a write of interval days reads of their month. */
const INTERVAL_MONTH_READ = {
  ProjectionExpression: '#days, #emissions, #version, #consumption, #monthEmissions, #source',
  ExpressionAttributeNames: {
    '#source': 'source',
    '#days': 'intervalDays',
    '#emissions': 'intervalEmissions',
    '#version': 'intervalVersion',
    '#consumption': 'consumption',
    '#monthEmissions': 'emissionsKg',
  },
};

/**
 * The change days make to their month as it was read, and the write that makes it only if the month still
 * holds what was read (none when the days change nothing).
 */
function intervalMonthWrite(
  companyId: string,
  accountId: string,
  figures: IntervalMonthFigures,
  item: Record<string, unknown> | undefined,
  user: MeterUser | undefined,
): { delta: RollupDelta; update?: ItemUpdate } {
  const { month } = figures;
  const days = numberMap(item?.intervalDays);
  const emissions = numberMap(item?.intervalEmissions);
  const version = item?.intervalVersion;
  const readConsumption = typeof item?.consumption === 'number' ? item.consumption : undefined;
  const readEmissions = typeof item?.emissionsKg === 'number' ? item.emissionsKg : 0;
  // The first interval days take the month over from its bills: their consumption leaves the figures.
  let changed = typeof version !== 'number' && (readConsumption ?? 0) !== 0;
  for (const d of figures.days) {
    const dd = d.date.slice(8, 10);
    if (days[dd] !== d.consumption || (emissions[dd] ?? 0) !== d.emissionsKg) changed = true;
    days[dd] = d.consumption;
    emissions[dd] = d.emissionsKg;
  }
  const total = round3(Object.values(days).reduce((n, v) => n + v, 0));
  const totalEmissions = round3(Object.values(emissions).reduce((n, v) => n + v, 0));
  const delta: RollupDelta = {
    consumption: round3(total - (readConsumption ?? 0)),
    cost: 0,
    emissionsKg: round3(totalEmissions - readEmissions),
    unit: figures.unit,
  };
  if (!changed) return { delta: { ...delta, consumption: 0, emissionsKg: 0 } };
  // The first days take the month over: what its bills or imports said leaves their part for the readings'.
  if (typeof version !== 'number' && readConsumption !== undefined) {
    const before = { consumption: -readConsumption, cost: 0, emissionsKg: -readEmissions };
    splitOf(before, rollupSourceOf(item?.source), user, delta);
    splitOf({ consumption: total, cost: 0, emissionsKg: totalEmissions }, 'readings', user, delta);
  } else splitOf(delta, 'readings', user, delta);
  const values: Record<string, unknown> = {
    ':days': days,
    ':em': emissions,
    ':next': (typeof version === 'number' ? version : 0) + 1,
    ':total': total,
    ':totalEmissions': totalEmissions,
    ':zero': 0,
    ':unit': figures.unit,
    ':source': 'interval',
    ':factor': figures.factorVersion,
    ':now': new Date().toISOString(),
    ':companyId': companyId,
    ':accountId': accountId,
    ':month': month,
    ':currency': 'GBP',
  };
  if (typeof version === 'number') values[':version'] = version;
  if (readConsumption !== undefined) values[':read'] = readConsumption;
  return {
    delta,
    update: {
      Key: { pk: consumptionKeys.accountMonths(companyId, accountId), sk: month },
      UpdateExpression:
        'ADD #cost :zero SET #consumption = :total, #emissions = :totalEmissions, #days = :days, ' +
        '#dayEmissions = :em, #version = :next, #unit = :unit, #source = :source, ' +
        `#factor = ${typeof version === 'number' ? 'if_not_exists(#factor, :factor)' : ':factor'}, ` +
        '#updatedAt = :now, #companyId = :companyId, ' +
        '#accountId = :accountId, #month = :month, #currency = if_not_exists(#currency, :currency)',
      // Figures in different units must never be summed into one month.
      // A bill counted in the month meanwhile changes its consumption: read again so it leaves the figures.
      ConditionExpression: `${typeof version === 'number' ? '#version = :version' : 'attribute_not_exists(#version)'} AND (attribute_not_exists(#unit) OR #unit = :unit) AND ${readConsumption === undefined ? 'attribute_not_exists(#consumption)' : '#consumption = :read'}`,
      ExpressionAttributeNames: {
        '#days': 'intervalDays',
        '#dayEmissions': 'intervalEmissions',
        '#version': 'intervalVersion',
        '#consumption': 'consumption',
        '#cost': 'cost',
        '#emissions': 'emissionsKg',
        '#unit': 'unit',
        '#source': 'source',
        '#factor': 'factorVersion',
        '#updatedAt': 'updatedAt',
        '#companyId': 'companyId',
        '#accountId': 'accountId',
        '#month': 'month',
        '#currency': 'currency',
      },
      ExpressionAttributeValues: values,
    },
  };
}

const beginsWith = async (pk: string, prefix: string): Promise<string[]> =>
  queryMapped(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ProjectionExpression: 'sk',
    },
    (raw) => String(raw.sk).slice(prefix.length),
  );

/** The portfolios whose roll-ups count a site: every delta to the site's roll-ups goes to theirs too. */
export async function portfoliosHoldingSite(companyId: string, assetId: string): Promise<string[]> {
  return beginsWith(consumptionKeys.assetRollups(companyId, assetId), 'portfolio#');
}

/** A roll-up row as stored, with the invoice ids it holds (what keeps each invoice's write to it single). */
interface StoredRollupRow extends Rollup {
  factorVersion?: string;
  invoiceIds: Set<string>;
}

async function rollupRows(pk: string): Promise<StoredRollupRow[]> {
  const rows = await queryRange<Rollup & { factorVersion?: unknown; invoiceIds?: unknown }>(
    pk,
    `${ALL_MONTHS.from}#`,
    `${ALL_MONTHS.to}#~`,
  );
  return rows.map((r) => ({
    month: r.month,
    utilityType: r.utilityType,
    unit: r.unit,
    consumption: Number(r.consumption) || 0,
    cost: Number(r.cost) || 0,
    emissionsKg: Number(r.emissionsKg) || 0,
    ...Object.fromEntries(
      ALL_ROLLUP_PARTS.filter((part) => typeof r[part] === 'number').map((part) => [part, Number(r[part])]),
    ),
    ...(typeof r.factorVersion === 'string' ? { factorVersion: r.factorVersion } : {}),
    invoiceIds: new Set(r.invoiceIds instanceof Set ? [...r.invoiceIds].map(String) : []),
  }));
}

const ALL_MONTHS = { from: '1900-01', to: '2999-12' } as const;
const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * Adds (sign 1) or takes away (sign -1) one site row in a portfolio's roll-up, with the invoice ids it
 * holds, so an invoice confirmed or withdrawn afterwards finds the portfolio as it finds the site.
 */
async function movePortfolioRow(
  companyId: string,
  groupId: string,
  row: StoredRollupRow,
  sign: 1 | -1,
): Promise<void> {
  const names: Record<string, string> = {
    '#consumption': 'consumption',
    '#cost': 'cost',
    '#emissions': 'emissionsKg',
    '#unit': 'unit',
    '#updatedAt': 'updatedAt',
    '#companyId': 'companyId',
    '#month': 'month',
    '#utilityType': 'utilityType',
    '#portfolioId': 'portfolioId',
  };
  const values: Record<string, unknown> = {
    ':consumption': sign * row.consumption,
    ':cost': sign * row.cost,
    ':emissions': sign * row.emissionsKg,
    ':unit': row.unit,
    ':now': new Date().toISOString(),
    ':companyId': companyId,
    ':month': row.month,
    ':utilityType': row.utilityType,
    ':portfolioId': groupId,
  };
  const sets = [
    '#unit = :unit',
    '#updatedAt = :now',
    '#companyId = :companyId',
    '#month = :month',
    '#utilityType = :utilityType',
    '#portfolioId = :portfolioId',
  ];
  if (row.factorVersion && sign === 1) {
    names['#factor'] = 'factorVersion';
    values[':factor'] = row.factorVersion;
    sets.push('#factor = :factor');
  }
  let ids = '';
  if (row.invoiceIds.size > 0) {
    names['#invoices'] = 'invoiceIds';
    values[':ids'] = row.invoiceIds;
    ids = sign === 1 ? ', #invoices :ids' : ' DELETE #invoices :ids';
  }
  // A site's VAT, levy, standing charges and REGO-backed supply move with it, like its other figures.
  const parts = partAdds(row, sign, ALL_ROLLUP_PARTS);
  Object.assign(names, parts.names);
  Object.assign(values, parts.values);
  const add = `ADD ${['#consumption :consumption', '#cost :cost', '#emissions :emissions', ...parts.adds].join(', ')}`;
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: {
        pk: consumptionKeys.portfolioRollups(companyId, groupId),
        sk: consumptionKeys.rollupSk(row.month, row.utilityType),
      },
      UpdateExpression:
        sign === 1 ? `${add}${ids} SET ${sets.join(', ')}` : `${add} SET ${sets.join(', ')}${ids}`,
      ConditionExpression: 'attribute_not_exists(#unit) OR #unit = :unit',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

const membershipKeys = (companyId: string, groupId: string, assetId: string) => [
  { pk: consumptionKeys.assetRollups(companyId, assetId), sk: consumptionKeys.siteInPortfolioSk(groupId) },
  { pk: consumptionKeys.portfolioRollups(companyId, groupId), sk: consumptionKeys.portfolioSiteSk(assetId) },
];

/** Writes a membership item (or deletes it: no member), conditionally on its absence (or presence). */
async function setMembership(
  key: { pk: string; sk: string },
  member: Record<string, string> | undefined,
  conditional: boolean,
): Promise<void> {
  const TableName = config().tableName;
  if (member) {
    await documentClient().send(
      new PutCommand({
        TableName,
        Item: { ...key, ...member },
        ...(conditional ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
      }),
    );
    return;
  }
  await documentClient().send(
    new DeleteCommand({
      TableName,
      Key: key,
      ...(conditional ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
    }),
  );
}

/**
 * A site joins (sign 1) or leaves (sign -1) a portfolio's roll-up: the membership is written first, then
 * the site's rows are added or taken away, so deltas written meanwhile reach the portfolio either through
 * the membership or inside the rows read. Joining twice, or leaving a portfolio the site is not in,
 * changes nothing: the membership's condition decides. A bill confirmed in the instant between the two
 * steps can count twice; rebuildPortfolioRollups mends that.
 */
export async function moveSiteInPortfolio(
  companyId: string,
  groupId: string,
  assetId: string,
  sign: 1 | -1,
): Promise<void> {
  const [siteSide, portfolioSide] = membershipKeys(companyId, groupId, assetId);
  if (!siteSide || !portfolioSide) return;
  const member = { companyId, portfolioId: groupId, assetId };
  try {
    await setMembership(siteSide, sign === 1 ? member : undefined, true);
  } catch (err) {
    if (err instanceof Error && err.name === 'ConditionalCheckFailedException') return;
    throw err;
  }
  await setMembership(portfolioSide, sign === 1 ? member : undefined, false);
  for (const row of await rollupRows(consumptionKeys.assetRollups(companyId, assetId)))
    await movePortfolioRow(companyId, groupId, row, sign);
}

/**
 * Makes a portfolio's roll-up count exactly the given sites: memberships added and dropped, then each
 * month set to the sum of the sites' rows by adding the difference (so a delta landing meanwhile is kept).
 * Reads every site's roll-ups: for repair and for data written around the deltas (seeding, imports).
 */
export async function rebuildPortfolioRollups(
  companyId: string,
  groupId: string,
  assetIds: readonly string[],
): Promise<{ sites: number; changed: number }> {
  const wanted = new Set(assetIds);
  const counted = new Set(await beginsWith(consumptionKeys.portfolioRollups(companyId, groupId), 'site#'));
  for (const assetId of new Set([...wanted, ...counted])) {
    if (wanted.has(assetId) === counted.has(assetId)) continue;
    const member = wanted.has(assetId) ? { companyId, portfolioId: groupId, assetId } : undefined;
    for (const key of membershipKeys(companyId, groupId, assetId)) await setMembership(key, member, false);
  }
  const sums = new Map<string, StoredRollupRow>();
  const perSite = await inPool([...wanted], 8, (assetId) =>
    rollupRows(consumptionKeys.assetRollups(companyId, assetId)),
  );
  for (const row of perSite.flat()) {
    const key = consumptionKeys.rollupSk(row.month, row.utilityType);
    const sum = sums.get(key);
    if (!sum) {
      sums.set(key, { ...row, invoiceIds: new Set(row.invoiceIds) });
      continue;
    }
    sum.consumption += row.consumption;
    sum.cost += row.cost;
    sum.emissionsKg += row.emissionsKg;
    for (const part of ALL_ROLLUP_PARTS)
      if (row[part] !== undefined) sum[part] = round3((sum[part] ?? 0) + (row[part] ?? 0));
    for (const id of row.invoiceIds) sum.invoiceIds.add(id);
    if (row.factorVersion && (!sum.factorVersion || row.factorVersion > sum.factorVersion))
      sum.factorVersion = row.factorVersion;
  }
  const old = new Map(
    (await rollupRows(consumptionKeys.portfolioRollups(companyId, groupId))).map((r) => [
      consumptionKeys.rollupSk(r.month, r.utilityType),
      r,
    ]),
  );
  let changed = 0;
  for (const key of new Set([...sums.keys(), ...old.keys()])) {
    const next = sums.get(key);
    const before = old.get(key);
    const base = (next ?? before) as StoredRollupRow;
    const diff: StoredRollupRow = {
      ...base,
      consumption: round3((next?.consumption ?? 0) - (before?.consumption ?? 0)),
      cost: round2((next?.cost ?? 0) - (before?.cost ?? 0)),
      emissionsKg: round3((next?.emissionsKg ?? 0) - (before?.emissionsKg ?? 0)),
      ...Object.fromEntries(
        ALL_ROLLUP_PARTS.map((part) => [part, round3((next?.[part] ?? 0) - (before?.[part] ?? 0))]),
      ),
      unit: before?.unit ?? base.unit,
      invoiceIds: new Set([...(next?.invoiceIds ?? [])].filter((id) => !before?.invoiceIds.has(id))),
    };
    const stale = [...(before?.invoiceIds ?? [])].filter((id) => !next?.invoiceIds.has(id));
    const same =
      diff.consumption === 0 &&
      diff.cost === 0 &&
      diff.emissionsKg === 0 &&
      ALL_ROLLUP_PARTS.every((part) => !diff[part]);
    if (same && diff.invoiceIds.size === 0 && stale.length === 0) continue;
    await movePortfolioRow(companyId, groupId, diff, 1);
    if (stale.length > 0)
      await movePortfolioRow(
        companyId,
        groupId,
        {
          ...diff,
          consumption: 0,
          cost: 0,
          emissionsKg: 0,
          ...Object.fromEntries(ALL_ROLLUP_PARTS.map((part) => [part, 0])),
          invoiceIds: new Set(stale),
        },
        -1,
      );
    changed++;
  }
  return { sites: wanted.size, changed };
}
