import type { Caller } from '../../shared/access/caller.ts';
import { settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import { type ImportMapping, mapRow } from '../../shared/imports/import-mapping.ts';
import type { TextRecord } from '../../shared/imports/text-rows.ts';
import { findResource } from '../../shared/system/resources.ts';
import {
  allAccounts,
  getMeterMonths,
  type MonthRestated,
  restatementsOf,
  type StoredAccount,
  type StoredAccountMonth,
} from '../accounts/index.ts';
import { listIntervalDays } from '../analytics/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { inPool } from '../core/lib/in-pool.ts';
import type { MonthHeld, Outcome, OutcomeTotals, RowOutcome } from './import-records.ts';

/**
 * A whole file judged row by row against what is stored, writing nothing: each row is a create, an
 * update, unchanged, or an error naming its field. The import writes exactly what this plan says.
 */

export interface MonthTarget {
  accountId: string;
  month: string;
  consumption: number;
  cost: number;
  /** What the import replaces: the roll-ups move from it. */
  before: MonthHeld | null;
  /** The month as this run read it (null: absent); the import writes it only while it still holds this. */
  read: MonthHeld | null;
  /** What restatement jobs recorded on the month as read, which the import's write keeps. */
  restatements?: Record<string, MonthRestated>;
  /** The import that wrote the month as read, if one did. */
  writtenBy?: string;
  /** What the month held before `writtenBy` wrote it (null: absent), when the month keeps it. */
  writtenOver?: MonthHeld | null;
  /**
   * Written already, by a run of this import that died: only its roll-ups are left to add, from `before`,
   * and the month is not written again (someone may have changed it since, moving the roll-ups with it).
   */
  stored?: true;
  /**
   * Changed since a dead run of this import began adding its roll-ups: its change is added under a mark
   * of the delivery that found it (`{mark}#late#{late}`), apart from the dead run's, whose chunks the
   * delivery makes again as they were.
   */
  late?: number;
  outcome: Outcome;
  rows: number[];
}

export interface DayTarget {
  accountId: string;
  date: string;
  values: (number | null)[];
  before: (number | null)[] | null;
  outcome: Outcome;
  rows: number[];
}

export interface ImportPlan {
  outcomes: RowOutcome[];
  totals: OutcomeTotals;
  months: MonthTarget[];
  days: DayTarget[];
  accounts: Map<string, StoredAccount>;
}

const NO_METER = 'No meter of this company has this MPAN, MPRN, serial number or name';

/** Meters of the company the caller may write, by every spelling a file may name them with. */
async function meterIndex(caller: Caller) {
  const accounts = (await allAccounts(caller.companyId)).filter((a) => a.deleted !== true);
  const resource = findResource('accounts');
  const resolver = new LineageResolver(caller.companyId, caller);
  const writable: StoredAccount[] = [];
  for (const a of accounts) {
    // A meter the caller may not write is as unknown to them as one that does not exist.
    if (resource && (await mayAccessItem(resource, caller, a, 'write', resolver))) writable.push(a);
  }
  const byKey = new Map<string, StoredAccount[]>();
  const add = (key: unknown, a: StoredAccount) => {
    if (typeof key !== 'string' || key.trim() === '') return;
    const k = key.replace(/\s+/g, '').toLowerCase();
    const list = byKey.get(k) ?? [];
    if (!list.includes(a)) list.push(a);
    byKey.set(k, list);
  };
  for (const a of writable) {
    add(a._id, a);
    add(a.meterPointNumber, a);
    add(a.meterSerialNumber, a);
    add(a.name, a);
  }
  return {
    accounts: new Map(writable.map((a) => [a._id, a])),
    find(meter: string): StoredAccount | string {
      const [only, ...more] = byKey.get(meter.replace(/\s+/g, '').toLowerCase()) ?? [];
      if (only && more.length === 0) return only;
      return only === undefined
        ? NO_METER
        : 'More than one meter goes by this name: use its MPAN, MPRN or serial';
    },
  };
}

const RANK: Record<Outcome, number> = { unchanged: 0, update: 1, create: 2, error: 3 };
const same = (a: number, b: number) => Math.abs(a - b) < 0.0005;

type MeterIndex = Awaited<ReturnType<typeof meterIndex>>;

/**
 * Reads rows into what they say: each row's outcome (an error, or to be judged), and the meter-months and
 * meter-days they name. `take` hands over what was read since it was last called; a meter and period
 * named twice is refused however far apart its rows are.
 */
function rowReader(meters: MeterIndex, mapping: ImportMapping, headerRows: number) {
  let outcomes: RowOutcome[] = [];
  let months = new Map<string, MonthTarget>();
  let days = new Map<string, DayTarget>();
  const firstRowOf = new Map<string, number>();
  let skipped = 0;
  const fail = (row: number, fields: string[], field: string, reason: string, meter?: string) =>
    outcomes.push({ row, outcome: 'error', field, reason, cells: fields, ...(meter ? { meter } : {}) });

  const read = (rec: TextRecord) => {
    if (skipped < headerRows) {
      skipped++;
      return;
    }
    const mapped = mapRow(rec.fields, mapping);
    if (mapped.kind === 'error') {
      fail(rec.row, rec.fields, mapped.error.field, mapped.error.reason, mapped.meter);
      return;
    }
    const account = meters.find(mapped.meter);
    if (typeof account === 'string') {
      fail(rec.row, rec.fields, 'meter', account, mapped.meter);
      return;
    }
    const period = `${account._id}|${mapped.key.slice(mapped.meter.length + 1)}`;
    const earlier = firstRowOf.get(period);
    if (earlier !== undefined) {
      fail(rec.row, rec.fields, 'meter', `The same meter and period as row ${earlier}`, mapped.meter);
      return;
    }
    firstRowOf.set(period, rec.row);
    outcomes.push({ row: rec.row, outcome: 'unchanged', meter: mapped.meter });
    if (mapped.kind === 'monthly') {
      for (const part of mapped.parts) {
        // A month's row names its period as its month: one key string for both maps, not two a row.
        const named = `${account._id}|${part.month}`;
        const k = named === period ? period : named;
        const found = months.get(k);
        found?.rows.push(rec.row);
        // Rows made with their first element: an array grown from empty keeps room for 17.
        const t = found ?? {
          accountId: account._id,
          month: part.month,
          consumption: 0,
          cost: 0,
          before: null,
          read: null,
          outcome: 'create' as Outcome,
          rows: [rec.row],
        };
        t.consumption = Math.round((t.consumption + part.consumption) * 1000) / 1000;
        t.cost = Math.round((t.cost + part.cost) * 100) / 100;
        months.set(k, t);
      }
    } else if (mapped.kind === 'day') {
      // The row's period is its day: one key string for both maps rather than two for every row.
      days.set(period, {
        accountId: account._id,
        date: mapped.date,
        values: mapped.values,
        before: null,
        outcome: 'create',
        rows: [rec.row],
      });
    } else {
      const k = `${account._id}|${mapped.date}`;
      let t = days.get(k);
      if (!t) {
        t = {
          accountId: account._id,
          date: mapped.date,
          values: Array.from({ length: settlementPeriods(mapped.date) }, () => null),
          before: null,
          outcome: 'create',
          rows: [],
        };
        days.set(k, t);
      }
      t.values[mapped.period] = mapped.value;
      t.rows.push(rec.row);
    }
  };
  const take = () => {
    const out = { outcomes, months, days };
    outcomes = [];
    months = new Map();
    days = new Map();
    return out;
  };
  return { read, take, size: () => outcomes.length };
}

/** Rows read, judged against what is stored: each row's outcome from its months' and days'. */
async function judged(
  companyId: string,
  meters: MeterIndex,
  read: { outcomes: RowOutcome[]; months: Map<string, MonthTarget>; days: Map<string, DayTarget> },
): Promise<ImportPlan> {
  const { outcomes, months, days } = read;
  const rowErrors = new Map<number, string>();
  await judgeMonths(companyId, months, meters.accounts, rowErrors);
  await judgeDays(companyId, days);

  const rowOutcome = new Map<number, Outcome>();
  for (const t of [...months.values(), ...days.values()])
    for (const row of t.rows) {
      const was = rowOutcome.get(row);
      if (was === undefined || RANK[t.outcome] > RANK[was]) rowOutcome.set(row, t.outcome);
    }
  const totals: OutcomeTotals = { rows: outcomes.length, create: 0, update: 0, unchanged: 0, error: 0 };
  for (const o of outcomes) {
    if (o.outcome !== 'error') {
      o.outcome = rowOutcome.get(o.row) ?? 'unchanged';
      const reason = rowErrors.get(o.row);
      if (o.outcome === 'error' && reason) {
        o.field = 'meter';
        o.reason = reason;
      }
    }
    totals[o.outcome]++;
  }
  outcomes.sort((a, b) => a.row - b.row);
  return {
    outcomes,
    totals,
    months: [...months.values()],
    days: [...days.values()],
    accounts: meters.accounts,
  };
}

/** Judges every row of the file after its header rows. */
export async function planImport(
  caller: Caller,
  mapping: ImportMapping,
  headerRows: number,
  records: AsyncIterable<TextRecord[]>,
): Promise<ImportPlan> {
  const meters = await meterIndex(caller);
  const reader = rowReader(meters, mapping, headerRows);
  for await (const batch of records) for (const rec of batch) reader.read(rec);
  return judged(caller.companyId, meters, reader.take());
}

/**
 * The plan of a wide half-hourly file a part at a time, each judged as soon as it is read: a row is a
 * whole meter-day, so no later row changes what an earlier one writes, and a part can be written and let
 * go before the next is read. A part ends after `rowsPerPart` rows, where the file's meter changes (so a
 * meter's days are written together), or at twice that.
 */
export async function* planInParts(
  caller: Caller,
  mapping: ImportMapping,
  headerRows: number,
  records: AsyncIterable<TextRecord[]>,
  rowsPerPart: number,
): AsyncGenerator<ImportPlan> {
  const meters = await meterIndex(caller);
  const reader = rowReader(meters, mapping, headerRows);
  const meterColumn = mapping.columns.meter;
  let lastMeter: string | undefined;
  for await (const batch of records)
    for (const rec of batch) {
      const meter = meterColumn === undefined ? undefined : rec.fields[meterColumn];
      const size = reader.size();
      if (size >= rowsPerPart * 2 || (size >= rowsPerPart && meter !== lastMeter))
        yield await judged(caller.companyId, meters, reader.take());
      lastMeter = meter;
      reader.read(rec);
    }
  if (reader.size() > 0) yield await judged(caller.companyId, meters, reader.take());
}

/** Each meter-month against what is stored: only months an import made may be replaced by one. */
async function judgeMonths(
  companyId: string,
  months: Map<string, MonthTarget>,
  accounts: Map<string, StoredAccount>,
  rowErrors: Map<number, string>,
) {
  const stored = await getMeterMonths(companyId, [...months.values()]);
  for (const [key, t] of months) {
    const m = stored.get(key);
    if (!m) continue;
    const reason = judgeMonth(t, m, accounts);
    if (reason) for (const row of t.rows) rowErrors.set(row, reason);
  }
}

/**
 * One meter-month against the month as stored now (undefined: absent); answers why its rows are refused,
 * if they are. The month's emissions are kept as it holds them: a restatement may have stated them in
 * other factors than the import's, and the roll-ups hold what the month holds.
 */
export function judgeMonth(
  t: MonthTarget,
  m: StoredAccountMonth | undefined,
  accounts: ReadonlyMap<string, StoredAccount>,
): string | undefined {
  if (!m) {
    t.before = null;
    t.read = null;
    delete t.restatements;
    delete t.writtenBy;
    delete t.writtenOver;
    t.outcome = 'create';
    return undefined;
  }
  if (m.importId) t.writtenBy = m.importId;
  else delete t.writtenBy;
  if (m.importId && m.importedOver !== undefined) t.writtenOver = m.importedOver;
  else delete t.writtenOver;
  if (m.source !== 'import') {
    t.outcome = 'error';
    const name = accounts.get(t.accountId)?.name ?? 'This meter';
    return `${name} already has ${m.source === 'interval' ? 'half-hourly data' : 'billed figures'} for ${t.month}, which an import does not replace`;
  }
  const held: MonthHeld = {
    consumption: m.consumption,
    cost: m.cost,
    emissionsKg: m.emissionsKg,
    factorVersion: m.factorVersion,
  };
  t.before = held;
  t.read = held;
  const recorded = restatementsOf(m);
  if (Object.keys(recorded).length > 0) t.restatements = recorded;
  else delete t.restatements;
  t.outcome = same(m.consumption, t.consumption) && same(m.cost, t.cost) ? 'unchanged' : 'update';
  return undefined;
}

/**
 * Each row's outcome again from its months' and days' (the weightiest), and the totals to match; a row
 * refused for a reason in `reasons` is told it.
 */
export function settleRows(plan: ImportPlan, reasons: ReadonlyMap<number, string> = new Map()): void {
  const byRow = new Map<number, Outcome>();
  for (const t of [...plan.months, ...plan.days])
    for (const row of t.rows) {
      const was = byRow.get(row);
      if (was === undefined || RANK[t.outcome] > RANK[was]) byRow.set(row, t.outcome);
    }
  const totals = plan.totals;
  totals.create = 0;
  totals.update = 0;
  totals.unchanged = 0;
  totals.error = 0;
  for (const o of plan.outcomes) {
    if (o.outcome !== 'error') {
      o.outcome = byRow.get(o.row) ?? o.outcome;
      const reason = reasons.get(o.row);
      if (o.outcome === 'error' && reason) {
        o.field = 'meter';
        o.reason = reason;
      }
    }
    totals[o.outcome]++;
  }
}

async function judgeDays(companyId: string, days: Map<string, DayTarget>) {
  const byAccount = groupBy([...days.values()], (t) => t.accountId);
  await inPool([...byAccount], 16, async ([accountId, targets]) => {
    const sorted = targets.map((t) => t.date).sort();
    const stored = await listIntervalDays(companyId, accountId, sorted[0] as string, sorted.at(-1) as string);
    const byDate = new Map(stored.map((d) => [d.date, d]));
    for (const t of targets) {
      const d = byDate.get(t.date);
      if (!d) continue;
      t.before = d.values;
      const equal =
        d.values.length === t.values.length &&
        d.values.every((v, i) => {
          const w = t.values[i];
          return v === null || w === null || w === undefined ? v === (w ?? null) : same(v, w);
        });
      t.outcome = equal ? 'unchanged' : 'update';
    }
  });
}

export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
