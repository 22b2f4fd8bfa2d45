import { calculateEmissions, isFactorUtility } from '../../shared/domain/emission-factors.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import type { MeterUser } from '../../shared/schemas/account.ts';
import { isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  addManyToRollups,
  getMeterMonths,
  type MeterMonth,
  type MonthReplacement,
  meterUserOf,
  replaceMeterMonths,
  restatementsOf,
  type StoredAccount,
  type StoredAccountMonth,
  splitOf,
  utilityOf,
} from '../accounts/index.ts';
import {
  addHalfHourlyRollups,
  type HalfHourlyWriteResult,
  listIntervalDays,
  writeHalfHourlyDays,
} from '../analytics/index.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { type DayTarget, groupBy, type ImportPlan, judgeMonth, type MonthTarget } from './import-plan.ts';
import type { UndoEntry } from './import-records.ts';

/**
 * Writes what a plan says through the accounts and analytics areas, so every meter's months and its
 * site's, portfolios' and company's roll-ups move with it, and answers what it changed for a rollback.
 */

type Progress = (done: number, total: number) => Promise<void>;

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** Factors by utility, year and unit: a file's hundred thousand months share a few dozen. */
const perUnitKnown = new Map<string, { perUnit: number; factorVersion: string }>();

function emissionsPerUnit(utility: string, month: string, unit: string) {
  const key = `${utility}|${month.slice(0, 4)}|${unit}`;
  const known = perUnitKnown.get(key);
  if (known) return known;
  const found = factorsPerUnit(utility, month, unit);
  perUnitKnown.set(key, found);
  return found;
}

function factorsPerUnit(utility: string, month: string, unit: string) {
  const found = isFactorUtility(utility)
    ? calculateEmissions({
        utility,
        year: Number(month.slice(0, 4)),
        quantity: 1000,
        unit,
      })
    : undefined;
  return found
    ? { perUnit: found.kgCO2e / 1000, factorVersion: found.factorVersion }
    : { perUnit: 0, factorVersion: 'none' };
}

const unitOf = (a: StoredAccount, utility: UtilityType) =>
  typeof a.unit === 'string' && a.unit ? a.unit : defaultUnit(utility);

export interface MonthFigures {
  consumption: number;
  cost: number;
  /** What the month holds, when known: a restatement may have stated it in other factors since. */
  emissionsKg?: number;
}

type MonthChange = { accountId: string; month: string; from: MonthFigures | null; to: MonthFigures | null };

/** The month an import writes for a meter: its figures, with emissions in the year's factors. */
function meterMonth(accountId: string, account: StoredAccount, month: string, to: MonthFigures): MeterMonth {
  const utility = utilityOf(account);
  const unit = unitOf(account, utility);
  const e = emissionsPerUnit(utility, month, unit);
  return {
    accountId,
    month,
    consumption: to.consumption,
    unit,
    cost: to.cost,
    currency: 'GBP' as const,
    emissionsKg: round3(to.consumption * e.perUnit),
    factorVersion: e.factorVersion,
    source: 'import' as const,
  };
}

/** Moves the roll-ups by the difference of months of meters written (or taken away: `to` null). */
async function addMonthRollups(
  companyId: string,
  accounts: Map<string, StoredAccount>,
  changes: readonly MonthChange[],
  progress?: Progress,
  rollups?: { mark: string; added?: () => Promise<void> },
) {
  const deltas = new Map<
    string,
    {
      assetId: string;
      month: string;
      utility: UtilityType;
      unit: string;
      c: number;
      cost: number;
      e: number;
      user: MeterUser | undefined;
    }
  >();
  for (const [accountId, list] of groupBy(changes, (c) => c.accountId)) {
    const account = accounts.get(accountId);
    if (!account) continue;
    const utility = utilityOf(account);
    const unit = unitOf(account, utility);
    const assetId = !isSubMeter(account) && typeof account.assetId === 'string' ? account.assetId : undefined;
    for (const c of list) {
      const e = emissionsPerUnit(utility, c.month, unit);
      if (!assetId) continue;
      const dc = (c.to?.consumption ?? 0) - (c.from?.consumption ?? 0);
      const dcost = (c.to?.cost ?? 0) - (c.from?.cost ?? 0);
      // Meters of one site with different users are summed apart, so each user's part gets its own.
      const user = meterUserOf(account);
      const k = `${assetId}|${c.month}|${utility}|${unit}|${user ?? ''}`;
      const d = deltas.get(k) ?? { assetId, month: c.month, utility, unit, c: 0, cost: 0, e: 0, user };
      d.c += dc;
      d.cost += dcost;
      d.e +=
        (c.to?.consumption ?? 0) * e.perUnit -
        (c.from ? (c.from.emissionsKg ?? c.from.consumption * e.perUnit) : 0);
      deltas.set(k, d);
    }
  }
  await progress?.(changes.length, changes.length * 2);
  const all = [...deltas.values()].filter((d) => d.c !== 0 || d.cost !== 0);
  await addManyToRollups(
    companyId,
    all.map((d) => {
      const figures = {
        consumption: round3(d.c),
        cost: Math.round(d.cost * 100) / 100,
        emissionsKg: round3(d.e),
      };
      // An import only ever writes and replaces imported months (a rollback puts imported ones back).
      return {
        assetId: d.assetId,
        month: d.month,
        utilityType: d.utility,
        unit: d.unit,
        ...figures,
        ...splitOf(figures, 'imports', d.user),
      };
    }),
    // A file's site-months are many small atomic adds, each waiting on the table rather than the worker.
    16,
    rollups?.mark,
  );
  await rollups?.added?.();
  await progress?.(changes.length * 2 - 1, changes.length * 2);
}

/** Months of a plan written at once. */
const MONTHS_AT_ONCE = 10_000;

/**
 * Writes the plan's creates and updates (what each replaced is journalled before, by the caller), each
 * month stamped with `rollups.importId`; a month `stored` already is not written again, only its roll-ups
 * added. The months' roll-ups are added under `rollups.mark`, so the same plan written again adds none
 * twice, and `rollups.added` is told once they are all added, so a run that dies later need not add them
 * again. A day's values are let go once written, so the plan of a large file shrinks as it is written.
 */
export async function writePlan(
  companyId: string,
  plan: ImportPlan,
  progress: Progress,
  rollups?: {
    mark: string;
    /** The import writing: each month it writes names it. */
    importId?: string;
    added: () => Promise<void>;
    /** Told, before any roll-up is added, of months judged again because they changed since read. */
    rejudged?: (targets: readonly MonthTarget[], reasons: ReadonlyMap<number, string>) => Promise<void>;
  },
  heldDays?: HeldDayRollups,
): Promise<void> {
  const written = plan.months.filter((t) => t.outcome === 'create' || t.outcome === 'update');
  const days = plan.days.filter((t) => t.outcome === 'create' || t.outcome === 'update');
  if (written.length > 0) {
    // A slice at a time: a file's every month made into items at once is most of the worker's memory.
    const again = { targets: [] as MonthTarget[], reasons: new Map<number, string>() };
    const unwritten = written.some((t) => t.stored) ? written.filter((t) => !t.stored) : written;
    for (let at = 0; at < unwritten.length; at += MONTHS_AT_ONCE) {
      const slice = await writeMonths(
        companyId,
        plan.accounts,
        unwritten.slice(at, at + MONTHS_AT_ONCE),
        rollups?.importId,
      );
      again.targets.push(...slice.targets);
      for (const [row, reason] of slice.reasons) again.reasons.set(row, reason);
    }
    if (again.targets.length > 0) await rollups?.rejudged?.(again.targets, again.reasons);
    const months = written.filter((t) => t.outcome === 'create' || t.outcome === 'update');
    // Months found changed after a dead run's adds began go under marks of their own, so the dead run's
    // chunks are made again as they were.
    const groups = groupBy(months, (t) => (t.late === undefined ? '' : `#late#${t.late}`));
    if (groups.size === 0) groups.set('', []);
    for (const [suffix, list] of groups)
      await addMonthRollups(
        companyId,
        plan.accounts,
        list.map((t) => ({
          accountId: t.accountId,
          month: t.month,
          from: t.before,
          to: { consumption: t.consumption, cost: t.cost },
        })),
        progress,
        rollups && { mark: `${rollups.mark}${suffix}` },
      );
    await rollups?.added();
  }
  if (days.length > 0) {
    let done = 0;
    await writeDays(
      companyId,
      [...groupBy(days, (t) => t.accountId)],
      async ([accountId, list]) => ({
        accountId,
        days: list.map((t) => ({ date: t.date, values: t.values })),
        written: async () => {
          for (const t of list) t.values = [];
          done += list.length;
          await progress(done, days.length);
        },
      }),
      heldDays,
    );
  }
}

/** How often a month that keeps changing under an import is read again before its rows are refused. */
const MAX_WRITE_ATTEMPTS = 5;

/**
 * Writes an import's months, each only while it holds what the plan read (or is still absent): the
 * roll-ups move by the difference from what was read, so a restatement or a bill that rewrote a month in
 * between must not be written over unseen. A month that changed is read again and judged again (a bill
 * now in it refuses its rows). Answers the months judged again, and why rows of theirs are refused.
 */
async function writeMonths(
  companyId: string,
  accounts: ReadonlyMap<string, StoredAccount>,
  targets: readonly MonthTarget[],
  importId: string | undefined,
): Promise<{ targets: MonthTarget[]; reasons: Map<number, string> }> {
  const rejudged = new Set<MonthTarget>();
  const reasons = new Map<number, string>();
  let pending: MonthTarget[] = [...targets];
  for (let attempt = 1; pending.length > 0; attempt++) {
    const tries: { t: MonthTarget; replacement: MonthReplacement }[] = [];
    for (const t of pending) {
      const account = accounts.get(t.accountId);
      if (!account) continue;
      const to = meterMonth(t.accountId, account, t.month, t);
      if (t.restatements) to.restatements = t.restatements;
      if (importId) {
        to.importId = importId;
        // What it replaces goes with the write: a journal saved again after a change is not atomic with it.
        to.importedOver = t.before && {
          consumption: t.before.consumption,
          cost: t.before.cost,
          ...(t.before.emissionsKg === undefined ? {} : { emissionsKg: t.before.emissionsKg }),
          ...(t.before.factorVersion === undefined ? {} : { factorVersion: t.before.factorVersion }),
        };
      }
      // Only an import's month is ever replaced by one.
      const read = t.read && { accountId: t.accountId, month: t.month, source: 'import' as const, ...t.read };
      tries.push({ t, replacement: read ? { read, to } : { read: null, to } });
    }
    const moved = await replaceMeterMonths(
      companyId,
      tries.map((x) => x.replacement),
    );
    pending = [];
    for (const { t } of tries) {
      const key = `${t.accountId}|${t.month}`;
      if (!moved.has(key)) continue;
      rejudged.add(t);
      const reason =
        attempt >= MAX_WRITE_ATTEMPTS
          ? `${accounts.get(t.accountId)?.name ?? 'This meter'}'s ${t.month} kept changing while this import wrote it; import the file again`
          : judgeMonth(t, moved.get(key), accounts);
      if (attempt >= MAX_WRITE_ATTEMPTS) t.outcome = 'error';
      if (reason) for (const row of t.rows) reasons.set(row, reason);
      if (t.outcome === 'create' || t.outcome === 'update') pending.push(t);
    }
  }
  return { targets: [...rejudged], reasons };
}

/** Meters whose days' changes are added to the roll-ups together. */
const METERS_PER_ROLLUP = 50;

/**
 * Writes meters' days, several meters at once, and adds their months' changes to the roll-ups together
 * through the transactional adds: a file of hundreds of meters costs tens of roll-up requests rather
 * than several for every meter's month. Each meter's days are made only when it is its turn, so a large
 * file's days are not all held at once.
 */
async function writeDays<T>(
  companyId: string,
  meters: readonly T[],
  daysOf: (meter: T) => Promise<{
    accountId: string;
    days: { date: string; values: (number | null)[] }[];
    written: () => Promise<void>;
  }>,
  held?: HeldDayRollups,
) {
  const rollups = held ?? { pending: [] };
  await inPool(meters, 8, async (meter) => {
    const { accountId, days, written } = await daysOf(meter);
    if (days.length > 0) {
      // Pushed only once written: `pending` is swapped for a new list whenever a full batch is added, and a
      // push that took the list before its await would land in one already added, and be lost.
      const result = await writeHalfHourlyDays(companyId, accountId, days, { deferRollups: true });
      rollups.pending.push(result);
    }
    await written();
    if (rollups.pending.length >= METERS_PER_ROLLUP) await addHeldDayRollups(companyId, rollups);
  });
  if (!held) await addHeldDayRollups(companyId, rollups);
}

/**
 * Meters' days' roll-up changes not yet added, held across writes of a file's parts so that its meters
 * are still added many together (`addHeldDayRollups` adds what is left). Until then only the meters' own
 * months hold the change; a delivery after the worker died mends the sites of the days it finds journalled.
 */
export interface HeldDayRollups {
  pending: HalfHourlyWriteResult[];
}

export async function addHeldDayRollups(companyId: string, held: HeldDayRollups): Promise<void> {
  const ready = held.pending;
  held.pending = [];
  if (ready.length > 0) await addHalfHourlyRollups(companyId, ready);
}

export const monthUndo = (t: MonthTarget): UndoEntry => ({
  kind: 'month',
  accountId: t.accountId,
  month: t.month,
  before: t.before,
  written: { consumption: t.consumption, cost: t.cost },
  row: t.rows[0] ?? 0,
  ...(t.late === undefined ? {} : { late: t.late }),
});

export const dayUndo = (t: DayTarget): UndoEntry => ({
  kind: 'day',
  accountId: t.accountId,
  date: t.date,
  before: t.before,
  written: digestOf(t.values),
  row: t.rows[0] ?? 0,
});

/** FNV-1a over a day's values as stored (to the watt-hour), with their count. */
export function digestOf(values: readonly (number | null)[]): string {
  let h = 0x811c9dc5;
  for (const v of values) {
    const text = v === null ? '-' : String(round3(v));
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h ^= 44;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${values.length}:${h.toString(36)}`;
}

export interface RollbackOutcome {
  restored: number;
  removed: number;
  kept: { row: number; accountId: string; period: string; reason: string }[];
}

const same = (a: number, b: number) => Math.abs(a - b) < 0.0005;
const CHANGED = 'Changed since the import, so kept as it is now';

type MonthUndo = Extract<UndoEntry, { kind: 'month' }>;

/** How often a month that keeps changing under a rollback is read again before it is kept as it is. */
const MAX_UNDO_ATTEMPTS = 5;

/**
 * What a rollback is about to write: a month, with what it held when read (the roll-ups move by that),
 * or a day.
 */
export type RollbackStep =
  | { accountId: string; month: string; read: MonthFigures; row: number }
  | { accountId: string; date: string; row: number };

/**
 * How a rollback survives its worker dying: `earlier` is what a dead run of it journalled, `save` adds
 * the months and days about to be written to the journal before they are, and the months' roll-ups are
 * moved under `rollups.mark`, so a chunk of adds that landed before the death is not added again;
 * `rollups.done` says a dead run took them off in full. The days' roll-ups go with their meters, many
 * together, so the sites of meters whose days a dead run wrote are rebuilt from their months (`mend`).
 */
export interface RollbackJournal {
  earlier: readonly RollbackStep[];
  save: (steps: readonly RollbackStep[]) => Promise<void>;
  rollups: { mark: string; done: boolean; added: () => Promise<void> };
  mend: (accountIds: readonly string[]) => Promise<void>;
}

/** Whether a month holds what a rollback puts in it: nothing, or its figures before the import. */
const holds = (now: StoredAccountMonth | undefined, to: MonthFigures | null) =>
  to === null
    ? now === undefined
    : now?.source === 'import' && same(now.consumption, to.consumption) && same(now.cost, to.cost);

/**
 * Takes away or puts back the months an import wrote, each only while it holds what it held when read
 * (a restatement rewriting one in between would otherwise leave the roll-ups off by its change): a month
 * that changed is read again and judged again. Answers the changes made, each from the figures it
 * replaced, for the roll-ups, in the order of `entries`, so a delivery resuming a dead run makes the same
 * chunks of roll-up adds as the run did. A month a dead run journalled and wrote counts as made.
 */
async function undoMonths(
  companyId: string,
  accounts: Map<string, StoredAccount>,
  entries: readonly MonthUndo[],
  out: RollbackOutcome,
  journal?: RollbackJournal,
): Promise<MonthChange[]> {
  const made: { at: number; change: MonthChange }[] = [];
  const keyOf = (e: { accountId: string; month: string }) => `${e.accountId}|${e.month}`;
  const at = new Map(entries.map((e, i) => [keyOf(e), i]));
  const earlier = new Map(
    (journal?.earlier ?? []).flatMap((s) => ('month' in s ? [[keyOf(s), s] as const] : [])),
  );
  const stored: Map<string, StoredAccountMonth | undefined> = await getMeterMonths(companyId, entries);
  const count = (e: MonthUndo) => {
    if (e.before) out.restored++;
    else out.removed++;
  };
  const make = (e: MonthUndo, from: MonthFigures) =>
    made.push({
      at: at.get(keyOf(e)) ?? 0,
      change: { accountId: e.accountId, month: e.month, from, to: e.before },
    });
  let pending: MonthUndo[] = [...entries];
  for (let attempt = 1; pending.length > 0; attempt++) {
    const tries: { e: MonthUndo; read: StoredAccountMonth; replacement: MonthReplacement }[] = [];
    for (const e of pending) {
      const now = stored.get(keyOf(e));
      const step = earlier.get(keyOf(e));
      if (step && holds(now, e.before)) {
        // A dead run of this rollback wrote it (its last writes may land after this run read the month,
        // making this run's own write of it fail): the roll-ups move from what it held then.
        make(e, step.read);
        count(e);
        continue;
      }
      if (
        now?.source !== 'import' ||
        !same(now.consumption, e.written.consumption) ||
        !same(now.cost, e.written.cost) ||
        attempt > MAX_UNDO_ATTEMPTS
      ) {
        out.kept.push({ row: e.row, accountId: e.accountId, period: e.month, reason: CHANGED });
        continue;
      }
      const account = accounts.get(e.accountId);
      if (!account) {
        // A meter gone since has no roll-ups to move and nothing to put back.
        count(e);
        continue;
      }
      const to = e.before ? meterMonth(e.accountId, account, e.month, e.before) : null;
      const recorded = restatementsOf(now);
      const records = Object.keys(recorded).length > 0;
      if (to && records) to.restatements = recorded;
      // A month taken away leaves its records behind: the roll-ups move by what it holds, restatements
      // included, and a job yet to put its change on them must still find it.
      const gone = !to && records ? { unit: now.unit, restatements: recorded } : undefined;
      tries.push({ e, read: now, replacement: gone ? { read: now, to, gone } : { read: now, to } });
    }
    if (journal && tries.length > 0)
      await journal.save(
        tries.map(({ e, read }) => ({
          accountId: e.accountId,
          month: e.month,
          read: { consumption: read.consumption, cost: read.cost, emissionsKg: read.emissionsKg },
          row: e.row,
        })),
      );
    const moved = await replaceMeterMonths(
      companyId,
      tries.map((t) => t.replacement),
    );
    pending = [];
    for (const { e, read } of tries) {
      if (moved.has(keyOf(e))) {
        stored.set(keyOf(e), moved.get(keyOf(e)));
        pending.push(e);
        continue;
      }
      // The month leaves the roll-ups with what it held, emissions a restatement may have changed included.
      make(e, { consumption: read.consumption, cost: read.cost, emissionsKg: read.emissionsKg });
      count(e);
    }
  }
  return made.sort((a, b) => a.at - b.at).map((m) => m.change);
}

/**
 * Puts back what an import changed: a month or day it created goes, one it updated gets its earlier
 * figures again, unless it no longer holds what the import wrote (a later import or an edit changed it):
 * that is kept and reported.
 */
export async function rollbackEntries(
  companyId: string,
  accounts: Map<string, StoredAccount>,
  entries: readonly UndoEntry[],
  progress: Progress,
  journal?: RollbackJournal,
): Promise<RollbackOutcome> {
  const out: RollbackOutcome = { restored: 0, removed: 0, kept: [] };
  const months = entries.filter((e): e is Extract<UndoEntry, { kind: 'month' }> => e.kind === 'month');
  const days = entries.filter((e): e is Extract<UndoEntry, { kind: 'day' }> => e.kind === 'day');
  const changes = await undoMonths(companyId, accounts, months, out, journal);
  if (changes.length > 0 && !journal?.rollups.done)
    await addMonthRollups(companyId, accounts, changes, progress, journal?.rollups);
  const earlierDays = new Set(
    (journal?.earlier ?? []).flatMap((s) => ('date' in s ? [`${s.accountId}|${s.date}`] : [])),
  );
  if (journal && days.length > 0)
    await journal.save(days.map((e) => ({ accountId: e.accountId, date: e.date, row: e.row })));
  const mend = new Set<string>();
  let done = 0;
  await writeDays(companyId, [...groupBy(days, (e) => e.accountId)], async ([accountId, list]) => {
    const sorted = list.map((e) => e.date).sort();
    const stored = new Map(
      (await listIntervalDays(companyId, accountId, sorted[0] as string, sorted.at(-1) as string)).map(
        (d) => [d.date, d],
      ),
    );
    const restore: { date: string; values: (number | null)[] }[] = [];
    for (const e of list) {
      const now = stored.get(e.date);
      if (earlierDays.has(`${accountId}|${e.date}`) && holdsDay(now?.values, e.before)) {
        // A dead run of this rollback wrote it; its meter's month may not have reached the roll-ups.
        mend.add(accountId);
        if (e.before) out.restored++;
        else out.removed++;
        continue;
      }
      const unchanged = now !== undefined && digestOf(now.values) === e.written;
      if (!unchanged) {
        out.kept.push({ row: e.row, accountId, period: e.date, reason: CHANGED });
        continue;
      }
      // A day the import created is emptied: its readings go, and its figures leave the month.
      restore.push({ date: e.date, values: e.before ?? now.values.map(() => null) });
      if (e.before) out.restored++;
      else out.removed++;
    }
    return {
      accountId,
      days: restore,
      written: async () => {
        done += list.length;
        await progress(done, days.length);
      },
    };
  });
  if (mend.size > 0) await journal?.mend([...mend]);
  out.kept.sort((a, b) => a.row - b.row);
  return out;
}

/** Whether a day holds what a rollback puts in it: no readings, or its readings before the import. */
const holdsDay = (now: readonly (number | null)[] | undefined, to: readonly (number | null)[] | null) =>
  to === null ? (now ?? []).every((v) => v === null) : now !== undefined && digestOf(now) === digestOf(to);
