import { FileFormatError } from '../../shared/imports/text-rows.ts';
import {
  dropRollupMarks,
  hasRollupMarks,
  rebuildSitesOfMeters,
  type StoredAccount,
} from '../accounts/index.ts';
import { type ImportPlan, type MonthTarget, settleRows } from './import-plan.ts';
import type { OutcomeTotals, RowOutcome, UndoEntry } from './import-records.ts';
import { changeImport, findImport, putRowPages, readRowPages } from './import-repository.ts';
import {
  addHeldDayRollups,
  dayUndo,
  digestOf,
  type HeldDayRollups,
  monthUndo,
  type RollbackOutcome,
  type RollbackStep,
  rollbackEntries,
  writePlan,
} from './import-writer.ts';

/**
 * Writes an import's plan so that a worker dying midway costs nothing when SQS delivers the message
 * again. Before a month or day is written, the import's journal records what it held, so the delivery
 * that resumes knows the months the dead run wrote as this import's own: it counts them as created or
 * updated, its rollback removes or restores them, and their roll-ups are added once the run that added
 * them all is marked so.
 *
 * A run that dies while adding its roll-ups (some chunks of adds landed, others not) is written again
 * whole under the import's mark: the journal makes the next delivery compute the same changes, so its
 * chunks are the dead run's, and those that landed are skipped.
 */

type Progress = (done: number, total: number) => Promise<void>;

const same = (a: number, b: number) => Math.abs(a - b) < 0.0005;

const keyOf = (e: UndoEntry) => {
  if (e.kind === 'month') return `month|${e.accountId}|${e.month}`;
  if (e.kind === 'day') return `day|${e.accountId}|${e.date}`;
  return `${e.kind}|${e.id}`;
};

/** What a delivery knows of the runs of its import before it. */
export interface EarlierRuns {
  importId: string;
  /** A run added every roll-up and recorded so. */
  rollupsAdded: boolean;
  /** Chunks of a run's roll-up adds landed: it wrote every month of its plan first. */
  rollupsLanded: boolean;
  /** The deliveries (by `late`) whose adds of months found changed since landed in part or whole. */
  lateLanded: ReadonlySet<number>;
  /** The `late` of this delivery, for months it finds changed since the adds began to land. */
  nextLate: number;
}

/**
 * Judges the plan's months a dead run of this import wrote against what they held before it rather than
 * now, and corrects the rows' outcomes and totals to match. Such a month (stamped with the import, or
 * every month of the journal once roll-ups landed) is not written again however it changed since, for
 * whoever changed it moved the roll-ups by their own change: only the dead run's change, from the journal,
 * is left to add. Days are judged against what they held before this import. Answers the months whose
 * roll-ups a run added and recorded so, which must not be written again.
 */
export function resumePlan(
  plan: ImportPlan,
  earlier: readonly UndoEntry[],
  runs: EarlierRuns,
): Set<MonthTarget> {
  const done = new Set<MonthTarget>();
  if (earlier.length === 0) return done;
  const journal = new Map(earlier.map((e) => [keyOf(e), e]));
  let rows: Map<number, RowOutcome> | undefined;
  const writes = (t: MonthTarget) => t.outcome === 'create' || t.outcome === 'update';
  for (const t of plan.months) {
    const e = journal.get(`month|${t.accountId}|${t.month}`);
    if (e?.kind !== 'month') {
      // The run whose roll-ups landed found the month as the file has it (or refused it); someone changed
      // it since. It is written as judged now, its change added apart from the chunks that run made.
      if (runs.rollupsLanded && writes(t)) t.late = runs.nextLate;
      continue;
    }
    // Months found changed by a delivery before are that delivery's, once any of its adds landed.
    const late = runs.rollupsAdded || e.added ? undefined : e.late;
    const landed = late === undefined ? runs.rollupsLanded : runs.lateLanded.has(late);
    const wrote =
      runs.rollupsAdded ||
      landed ||
      e.added === true ||
      t.writtenBy === runs.importId ||
      // A month written before months named their import: holding what the run wrote, it wrote it.
      (t.writtenBy === undefined &&
        t.read !== null &&
        same(t.read.consumption, e.written.consumption) &&
        same(t.read.cost, e.written.cost));
    // Not written by a dead run: judged as it stands now, as planned (apart, if it was found changed late).
    if (!wrote) {
      if (late !== undefined && writes(t)) t.late = runs.nextLate;
      continue;
    }
    if (t.outcome === 'error') {
      // Refused as it stands now (a bill reached it since): the row is the dead run's write all the same.
      rows ??= new Map(plan.outcomes.map((o) => [o.row, o]));
      for (const row of t.rows) {
        const o = rows.get(row);
        if (o?.outcome !== 'error') continue;
        o.outcome = 'unchanged';
        delete o.field;
        delete o.reason;
      }
    }
    // The month names what it held before the dead run wrote it when it still carries the run's stamp: the
    // journal may be older (a month judged again, and the worker dead before saving the journal again).
    const before = t.writtenBy === runs.importId && t.writtenOver !== undefined ? t.writtenOver : e.before;
    t.before = before;
    t.stored = true;
    t.outcome =
      before === null
        ? 'create'
        : same(before.consumption, t.consumption) && same(before.cost, t.cost)
          ? 'unchanged'
          : 'update';
    // A late month whose delivery's adds never landed goes with this delivery's: that one's are void.
    if (late !== undefined) t.late = landed ? late : runs.nextLate;
    if (runs.rollupsAdded || e.added) done.add(t);
  }
  for (const t of plan.days) {
    const e = journal.get(`day|${t.accountId}|${t.date}`);
    if (e?.kind !== 'day' || t.outcome === 'error') continue;
    t.before = e.before;
    t.outcome =
      e.before === null ? 'create' : digestOf(e.before) === digestOf(t.values) ? 'unchanged' : 'update';
  }
  settleRows(plan);
  return done;
}

/**
 * Writes the plan, journalling first; answers how many pages of undo entries (of everything the import
 * wrote, in every delivery of it) it saved. The plan's outcomes and totals are corrected in place for the
 * months a dead run wrote.
 */
export async function writeResumably(
  companyId: string,
  importId: string,
  plan: ImportPlan,
  progress: Progress,
): Promise<number> {
  const record = await findImport(companyId, importId);
  const earlier = record?.writing
    ? await readRowPages<UndoEntry>(companyId, importId, 'journal', 0, record.writing.journal)
    : [];
  const rolledUp = record?.writing?.rollupsAdded === true;
  const markOf = (round: number) => (round === 0 ? `import#${importId}` : `import#${importId}#${round}`);
  const earlierRound = record?.writing?.round ?? 0;
  const landed = !rolledUp && earlier.length > 0 && (await hasRollupMarks(companyId, markOf(earlierRound)));
  const earlierLates = record?.writing?.lates ?? 0;
  const lateMark = (late: number) => `${markOf(earlierRound)}#late#${late}`;
  const lateLanded = new Set<number>();
  if (landed)
    for (let late = 1; late <= earlierLates; late++)
      if (await hasRollupMarks(companyId, lateMark(late))) lateLanded.add(late);
  // Kept in the journal, so a run that writes more and dies too still knows these months' roll-ups added.
  if (rolledUp) for (const e of earlier) if (e.kind === 'month') e.added = true;
  const done = resumePlan(plan, earlier, {
    importId,
    rollupsAdded: rolledUp,
    rollupsLanded: landed,
    lateLanded,
    nextLate: earlierLates + 1,
  });
  const lates = plan.months.some((t) => t.late === earlierLates + 1) ? earlierLates + 1 : earlierLates;
  const toWrite: ImportPlan = { ...plan, months: plan.months.filter((t) => !done.has(t)) };
  let { pages, undoPages } = await journalPlan(companyId, importId, toWrite, earlier);
  const writesMonths = toWrite.months.some((t) => t.outcome === 'create' || t.outcome === 'update');
  // A round's marks (the site years' among them) stay once its roll-ups are all added: a delivery with
  // more months to write after that adds theirs under marks of its own.
  const round = rolledUp && writesMonths ? earlierRound + 1 : earlierRound;
  const mark = markOf(round);
  await changeImport(companyId, importId, () => ({
    writing: { journal: pages, rollupsAdded: rolledUp && !writesMonths, round, lates },
  }));
  await writePlan(companyId, toWrite, progress, {
    mark,
    importId,
    rejudged: async (targets, reasons) => {
      settleRows(plan, reasons);
      // The journal names what each month held as judged again, before its roll-ups move from that. It is
      // read back rather than held through the write (a file's entries are memory the write needs): a
      // month changing under an import is rare.
      const journal = new Map(
        (await readRowPages<UndoEntry>(companyId, importId, 'journal', 0, pages)).map((e) => [keyOf(e), e]),
      );
      for (const t of targets) {
        const e = monthUndo(t);
        if (t.outcome === 'create' || t.outcome === 'update') journal.set(keyOf(e), e);
        else journal.delete(keyOf(e));
      }
      const entries = [...journal.values()].sort((a, b) => a.row - b.row);
      pages = await putRowPages(companyId, importId, 'journal', entries);
      undoPages = await putRowPages(companyId, importId, 'undo', entries);
      await changeImport(companyId, importId, () => ({ writing: { journal: pages, round, lates } }));
    },
    added: async () => {
      await changeImport(companyId, importId, () => ({
        writing: { journal: pages, rollupsAdded: true, round, lates },
      }));
      // From here a delivery again adds no roll-ups at all, so the chunks' markers have done their work.
      await dropRollupMarks(companyId, mark);
      for (let late = 1; late <= lates; late++) await dropRollupMarks(companyId, `${mark}#late#${late}`);
    },
  });
  const resumedDays = earlier.flatMap((e) => (e.kind === 'day' ? [e.accountId] : []));
  if (resumedDays.length > 0) await mendSites(companyId, plan.accounts, resumedDays);
  return undoPages;
}

/**
 * Writes a file's plan a part at a time (`planInParts`), so the worker holds one part's days rather than
 * the file's. Each part's days are journalled (and saved as undo pages of the same numbers, after the
 * dead run's) before they are written, so a delivery that resumes finds every day a dead run may have
 * written: it judges those against what they held before the import and does not journal them again.
 * Answers every row's outcome, the totals, and how many undo pages were saved.
 */
export async function writeInParts(
  companyId: string,
  importId: string,
  parts: AsyncIterable<ImportPlan>,
  progress: Progress,
  expectedRows: number,
): Promise<{ outcomes: RowOutcome[]; totals: OutcomeTotals; undoPages: number }> {
  const record = await findImport(companyId, importId);
  let pages = record?.writing?.journal ?? 0;
  // What each day a dead run journalled held before it: its digest, or null where it was absent.
  const earlier = new Map<string, string | null>();
  if (record?.writing)
    for (const e of await readRowPages<UndoEntry>(companyId, importId, 'journal', 0, pages))
      if (e.kind === 'day') earlier.set(`${e.accountId}|${e.date}`, e.before && digestOf(e.before));
  const outcomes: RowOutcome[] = [];
  const totals: OutcomeTotals = { rows: 0, create: 0, update: 0, unchanged: 0, error: 0 };
  let accounts = new Map<string, StoredAccount>();
  const held: HeldDayRollups = { pending: [] };
  try {
    await eachPart();
  } catch (err) {
    // A file that turns out unreadable partway (a quote never closed) is not imported in part: the parts
    // written are taken back as a rollback would, so the import fails having changed nothing.
    if (!(err instanceof FileFormatError) || pages === 0) throw err;
    await addHeldDayRollups(companyId, held);
    const written = await readRowPages<UndoEntry>(companyId, importId, 'journal', 0, pages);
    await rollbackEntries(companyId, accounts, written, async () => undefined);
    throw err;
  }
  await addHeldDayRollups(companyId, held);
  const resumed = [...earlier.keys()].map((k) => k.slice(0, k.indexOf('|')));
  if (resumed.length > 0) await mendSites(companyId, accounts, [...new Set(resumed)]);
  return { outcomes, totals, undoPages: pages };

  async function eachPart() {
    // The next part is read and judged while this one is written (no two parts share a meter-day), and a
    // part starts writing while the one before finishes: each part's meters would otherwise wait on its
    // slowest.
    const iterator = parts[Symbol.asyncIterator]();
    let next = iterator.next();
    let writing: Promise<void> = Promise.resolve();
    const doneOf = new Map<number, number>();
    let expected = expectedRows;
    const report = () => {
      let done = 0;
      for (const n of doneOf.values()) done += n;
      return progress(done, Math.max(expected, done));
    };
    try {
      for (let step = await next, at = 0; !step.done; step = await next, at++) {
        const plan = step.value;
        next = iterator.next();
        // Not left unhandled while this part is journalled and the last one written: awaited next.
        next.catch(() => undefined);
        accounts = plan.accounts;
        const entries: UndoEntry[] = [];
        for (const t of plan.days) {
          if (t.outcome === 'error') continue;
          const before = earlier.get(`${t.accountId}|${t.date}`);
          if (before !== undefined)
            t.outcome = before === null ? 'create' : before === digestOf(t.values) ? 'unchanged' : 'update';
          else if (t.outcome === 'create' || t.outcome === 'update') entries.push(dayUndo(t));
        }
        if (earlier.size > 0) settleRows(plan);
        // Journalled before any of its days is written, the parts one after another.
        if (entries.length > 0) {
          const added = await putRowPages(companyId, importId, 'undo', entries, pages);
          await putRowPages(companyId, importId, 'journal', entries, pages);
          pages += added;
          await changeImport(companyId, importId, () => ({ writing: { journal: pages } }));
        }
        for (const o of plan.outcomes) outcomes.push(o);
        for (const k of ['rows', 'create', 'update', 'unchanged', 'error'] as const)
          totals[k] += plan.totals[k];
        expected = Math.max(expected, totals.rows);
        const rows = plan.totals.rows;
        const previous = writing;
        writing = writePlan(
          companyId,
          plan,
          (done, of) => {
            doneOf.set(at, of > 0 ? (done / of) * rows : 0);
            return report();
          },
          undefined,
          held,
        );
        // Handled here too, so a failure while the next part is read is not taken for an unhandled one.
        writing.catch(() => undefined);
        // At most two parts are being written at once.
        await previous;
      }
    } finally {
      // Nothing of this import is still being written once it returns or fails.
      await writing.catch(() => undefined);
    }
    await writing;
  }
}

/**
 * Saves the journal of what the plan is about to write, over a dead run's, and the same entries as the
 * import's undo pages (counted only once the import completes). Neither is held while the plan is written:
 * a file's worth of entries is memory the write needs.
 */
async function journalPlan(
  companyId: string,
  importId: string,
  toWrite: ImportPlan,
  earlier: readonly UndoEntry[],
): Promise<{ pages: number; undoPages: number }> {
  let entries: UndoEntry[] = [];
  for (const t of toWrite.months)
    if (t.outcome === 'create' || t.outcome === 'update') entries.push(monthUndo(t));
  for (const t of toWrite.days)
    if (t.outcome === 'create' || t.outcome === 'update') entries.push(dayUndo(t));
  // A plan names each month and day once, so only a dead run's entries need matching by key.
  if (earlier.length > 0) {
    const journal = new Map(earlier.map((e) => [keyOf(e), e]));
    for (const e of entries) journal.set(keyOf(e), e);
    entries = [...journal.values()];
  }
  entries.sort((a, b) => a.row - b.row);
  const pages = await putRowPages(companyId, importId, 'journal', entries);
  return { pages, undoPages: await putRowPages(companyId, importId, 'undo', entries) };
}

/**
 * Rolls an import back so that a worker dying midway costs nothing when SQS delivers the message again.
 * Before a month is written, the rollback's journal records what it held; the delivery that resumes counts
 * the months the dead run wrote as rolled back and moves the roll-ups by what they held, under the
 * rollback's mark, so chunks of adds the dead run landed are not added twice, and none at all once it
 * recorded them all added.
 */
export async function rollBackResumably(
  companyId: string,
  importId: string,
  accounts: Map<string, StoredAccount>,
  undo: readonly UndoEntry[],
  progress: Progress,
): Promise<RollbackOutcome> {
  const record = await findImport(companyId, importId);
  const earlier = record?.rollingBack
    ? await readRowPages<RollbackStep>(companyId, importId, 'rollback-journal', 0, record.rollingBack.journal)
    : [];
  const mark = `rollback#${importId}`;
  const stepKey = (s: RollbackStep) => `${s.accountId}|${'month' in s ? s.month : s.date}`;
  const journal = new Map(earlier.map((s) => [stepKey(s), s]));
  return rollbackEntries(companyId, accounts, undo, progress, {
    earlier,
    save: async (steps) => {
      for (const s of steps) journal.set(stepKey(s), s);
      const pages = await putRowPages(companyId, importId, 'rollback-journal', [...journal.values()]);
      await changeImport(companyId, importId, (cur) => ({
        rollingBack: { ...cur.rollingBack, journal: pages },
      }));
    },
    rollups: {
      mark,
      done: record?.rollingBack?.rollupsAdded === true,
      added: async () => {
        await changeImport(companyId, importId, (cur) => ({
          rollingBack: { journal: cur.rollingBack?.journal ?? 0, rollupsAdded: true },
        }));
        await dropRollupMarks(companyId, mark);
      },
    },
    mend: (accountIds) => mendSites(companyId, accounts, accountIds),
  });
}

/**
 * Saves a record import's journal (what it is about to create and update) before it writes anything, so
 * a delivery after its worker died can take the dead run's writes back.
 */
export async function journalRecords(
  companyId: string,
  importId: string,
  entries: readonly UndoEntry[],
): Promise<void> {
  const pages = await putRowPages(companyId, importId, 'journal', entries);
  await changeImport(companyId, importId, () => ({ writing: { journal: pages } }));
}

/**
 * A dead run's days are stored, so writing them again changes nothing, and the roll-up changes of their
 * months (added after the days, many meters together) died with it: the sites of those meters have their
 * monthly figures rebuilt from their meters' months, as `PUT /accounts/{id}/invalidate-cache` does.
 */
async function mendSites(
  companyId: string,
  accounts: Map<string, StoredAccount>,
  accountIds: readonly string[],
) {
  const meters = accountIds.flatMap((id) => {
    const account = accounts.get(id);
    return account ? [{ _id: id, assetId: account.assetId }] : [];
  });
  await rebuildSitesOfMeters(companyId, 'import-resume', meters);
}
