import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';

/**
 * A company's change marks: counters that move with every write of what company-wide tables of sites
 * are made from (each site's name, place, type and floor area; each site's figures by year). A summary
 * of thousands of items is kept in parts, each with the marks read before it was made, and a part is
 * trusted only while its marks stand.
 *
 * The site years have a mark per year (`siteYears#2025`) beside one for all years (`siteYears`), so a
 * bill in one year leaves the parts of the other years standing. Their writers move the marks before
 * and after the write, and name the write as under way in between (`writing#{token}`): a part made while
 * a write is under way is not kept, so neither a part made before the write nor one made during it
 * outlives it, even when the writer dies between its data and its second move. A write named as under
 * way for longer than any writer lives is taken as dead, and its name is dropped when next seen. Sites'
 * writers move `sites` and `siteList` the same way.
 *
 * Each mark may keep a journal (`journal#{mark}`, a set of keys: site ids) of what its writes changed
 * since it stood at `journalFrom#{mark}`: a writer adds its keys in the same update that first moves the
 * mark, so a reader holding a part made at an older value of the mark reads just those keys again rather
 * than the part's thousands. A part kept under a mark restarts its journal from there (only while no write
 * of it is under way and the mark has not moved). A journal that would grow past `JOURNAL_MAX_KEYS`, or a
 * move naming no keys, empties it and leaves it untrusted until a part is made afresh; one that no part
 * has started (a year no table keeps) is dropped by the writer's second move.
 *
 * | pattern                                              | key condition                          | index |
 * | ---------------------------------------------------- | -------------------------------------- | ----- |
 * | read the company's marks, writes under way, journals  | pk = C#{companyId}#changes, sk = marks | table |
 * | move marks (atomic ADD) and add to their journals     | pk = C#{companyId}#changes, sk = marks | table |
 * | name or drop a write under way, restart a journal    | pk = C#{companyId}#changes, sk = marks | table |
 */
const marksKey = (companyId: string) => ({ pk: `C#${companyId}#changes`, sk: 'marks' });
const WRITING_PREFIX = 'writing#';
const JOURNAL_PREFIX = 'journal#';
const JOURNAL_FROM_PREFIX = 'journalFrom#';
/** Longer than any function that writes site years runs (a Lambda lives 15 minutes at most). */
export const WRITE_DEAD_AFTER_MS = 20 * 60_000;

export type ChangeMark = 'sites' | 'siteList' | 'siteYears' | `siteYears#${number}`;

/**
 * The marks every write of a company's sites moves: `sites` for the site tables, and `siteList` for the
 * sites a granted caller's list keeps in the process (asset-list-cache.ts). Each has its own journal,
 * restarted by its own readers, so neither reader's restart sends the other back to reading every site.
 */
const SITE_MARKS: readonly ChangeMark[] = ['sites', 'siteList'];

/**
 * Runs a write of a company's sites (`ids`) under the marks that stand for them, naming the sites. A write
 * of more sites than a journal holds names none and empties the journals instead: thousands of ids would
 * outgrow the marks item (400 KB), and reading them one by one is no cheaper than reading every site.
 */
export function writingSites<T>(
  companyId: string,
  ids: readonly string[],
  write: () => Promise<T>,
): Promise<T> {
  const keys = new Map<ChangeMark, readonly string[]>(
    ids.length > JOURNAL_MAX_KEYS ? [] : SITE_MARKS.map((m) => [m, ids]),
  );
  return writingUnder(companyId, SITE_MARKS, write, keys);
}

/** The mark that writes of one year's site figures move. */
export const yearMark = (year: number | string): ChangeMark => `siteYears#${Number(year)}`;

/** Site fields the site tables read (and only these). */
export const SITE_TABLE_FIELDS = [
  'siteName',
  'entityId',
  'assetType',
  'address',
  'floorArea',
  'floorAreaHistory',
] as const;

/** The company whose site a write to `pk` changes, when `pk` is a company's sites. */
export function sitesCompanyOf(pk: string): string | undefined {
  return /^C#([^#]+)#assets$/.exec(pk)?.[1];
}

/**
 * The most keys a mark's journal names: a write that would find more there empties it instead, and a kept
 * part behind it is made afresh. An import adds its sites a hundred at a time, so an import of a few
 * hundred sites leaves a journal its readers patch from (a thousand keys read in ten batches, against the
 * tens of thousands of items of a year read whole). Eight journals that full keep the marks item well under
 * what an item may hold, and a reader that keeps a part empties its journal.
 */
export const JOURNAL_MAX_KEYS = 1_000;
const journalOf = (mark: string) => `${JOURNAL_PREFIX}${mark}`;
const journalFromOf = (mark: string) => `${JOURNAL_FROM_PREFIX}${mark}`;

const isConditionFailure = (err: unknown) =>
  err instanceof Error && err.name === 'ConditionalCheckFailedException';

/** The ADD of one to each mark, as an update's clauses, names and values. */
function addsOf(marks: readonly string[]) {
  const names: Record<string, string> = {};
  marks.forEach((m, i) => {
    names[`#m${i}`] = m;
  });
  return {
    adds: marks.map((_, i) => `#m${i} :one`),
    names,
    values: { ':one': 1 } as Record<string, unknown>,
  };
}

/** An update of the marks item from its clauses (empty ones left out). */
function updateOf(clauses: { add?: string[]; set?: string[]; remove?: string[] }): string {
  return [
    clauses.add?.length ? `ADD ${clauses.add.join(', ')}` : '',
    clauses.set?.length ? `SET ${clauses.set.join(', ')}` : '',
    clauses.remove?.length ? `REMOVE ${clauses.remove.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The journals of `marks` emptied and no longer trusted: what a move that names no keys does to them. */
function forgetJournals(marks: readonly string[], names: Record<string, string>): string[] {
  return marks.flatMap((m, i) => {
    names[`#fj${i}`] = journalOf(m);
    names[`#ff${i}`] = journalFromOf(m);
    return [`#fj${i}`, `#ff${i}`];
  });
}

/** Moves of the same marks asked for while none is on its way: they share the next write. */
const waiting = new Map<string, Promise<void>>();
/** The move of each set of marks on its way to the table. */
const sending = new Map<string, Promise<void>>();

/**
 * Moves marks, after the caller's write has landed, naming no keys: their journals are no longer trusted.
 * Writers of one process that ask at once share a move; a move asked for while one is on its way is sent
 * after it, so every write is followed by a move.
 */
export function moveChangeMarks(companyId: string, marks: readonly ChangeMark[]): Promise<void> {
  const names = [...new Set(marks)].sort();
  if (names.length === 0) return Promise.resolve();
  const key = `${companyId}#${names.join(',')}`;
  const queued = waiting.get(key);
  if (queued) return queued;
  const move = (async () => {
    await sending.get(key)?.catch(() => undefined);
    waiting.delete(key);
    const adds = addsOf(names);
    const remove = forgetJournals(names, adds.names);
    const sent = documentClient()
      .send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: marksKey(companyId),
          UpdateExpression: updateOf({ add: adds.adds, remove }),
          ExpressionAttributeNames: adds.names,
          ExpressionAttributeValues: adds.values,
        }),
      )
      .then(() => undefined);
    sending.set(key, sent);
    try {
      await sent;
    } finally {
      if (sending.get(key) === sent) sending.delete(key);
    }
  })();
  waiting.set(key, move);
  return move;
}

/** Moves one mark, after the caller's write has landed (see `moveChangeMarks`). */
export function moveChangeMark(companyId: string, mark: ChangeMark): Promise<void> {
  return moveChangeMarks(companyId, [mark]);
}

/**
 * Runs a write of what `marks` stand for: moves them and names the write as under way before it, moves
 * them again and drops the name after it (also when it fails: part of it may have landed). The keys the
 * write may change under each mark go to that mark's journal in the first move; a mark not in `keys`
 * (or a journal already full) has its journal emptied and untrusted instead.
 */
export async function writingUnder<T>(
  companyId: string,
  marks: readonly ChangeMark[],
  write: () => Promise<T>,
  keys: ReadonlyMap<ChangeMark, readonly string[]> = new Map(),
): Promise<T> {
  const names = [...new Set(marks)].sort();
  if (names.length === 0) return write();
  const token = `${WRITING_PREFIX}${randomBytes(6).toString('hex')}`;
  const send = (
    expression: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
    opts: { condition?: string; old?: boolean } = {},
  ) =>
    documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: marksKey(companyId),
        UpdateExpression: expression,
        ExpressionAttributeNames: { ...names, '#w': token },
        ExpressionAttributeValues: values,
        ...(opts.condition ? { ConditionExpression: opts.condition } : {}),
        ...(opts.old ? { ReturnValues: 'ALL_OLD' as const } : {}),
      }),
    );
  const now = Date.now();
  const set = ['#w = :w'];
  const under = { ':w': { marks: names, at: now } };
  let before: Record<string, unknown> | undefined;
  try {
    const adds = addsOf(names);
    const values: Record<string, unknown> = { ...adds.values, ...under };
    const conditions: string[] = [];
    const forgotten: string[] = [];
    names.forEach((m, i) => {
      const changed = keys.get(m as ChangeMark);
      if (changed === undefined) {
        forgotten.push(m);
        return;
      }
      if (changed.length === 0) return;
      adds.names[`#j${i}`] = journalOf(m);
      values[`:j${i}`] = new Set(changed);
      adds.adds.push(`#j${i} :j${i}`);
      conditions.push(`(attribute_not_exists(#j${i}) OR size(#j${i}) < :max)`);
    });
    const remove = forgetJournals(forgotten, adds.names);
    if (conditions.length > 0) values[':max'] = JOURNAL_MAX_KEYS;
    before = (
      await send(updateOf({ add: adds.adds, set, remove }), adds.names, values, {
        condition: conditions.length ? conditions.join(' AND ') : undefined,
        old: true,
      })
    ).Attributes;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    // A journal is full: it is emptied and no longer trusted, and the parts behind it are made afresh.
    const adds = addsOf(names);
    const remove = forgetJournals(names, adds.names);
    before = (
      await send(
        updateOf({ add: adds.adds, set, remove }),
        adds.names,
        { ...adds.values, ...under },
        { old: true },
      )
    ).Attributes;
  }
  await dropDeadWrites(companyId, changeMarksOf(before ?? {}), now);
  // Journals no reader has started (of years no table keeps) are not kept: none restarts while this
  // write is under way, so they are still unstarted after it, and dropping them loses nothing.
  const unstarted = names.filter(
    (m) => keys.has(m as ChangeMark) && before?.[journalFromOf(m)] === undefined,
  );
  try {
    return await write();
  } finally {
    const adds = addsOf(names);
    const remove = ['#w', ...forgetJournals(unstarted, adds.names)];
    await send(updateOf({ add: adds.adds, remove }), adds.names, adds.values);
  }
}

/** The company's marks as read at one moment, with the writes under way then and the marks' journals. */
export interface ChangeMarks {
  marks: Readonly<Record<string, number>>;
  writing: readonly { name: string; marks: readonly string[]; at: number }[];
  /** Each journal's keys, and the value of its mark from which it names every key written. */
  journals: Readonly<Record<string, { from: number; keys: readonly string[] }>>;
}

/** The company's marks, writes under way and journals, read strongly: a summary is checked against them, or made under them. */
export async function readChangeMarks(companyId: string): Promise<ChangeMarks> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: marksKey(companyId), ConsistentRead: true }),
  );
  return changeMarksOf(out.Item ?? {});
}

function changeMarksOf(item: Record<string, unknown>): ChangeMarks {
  const marks: Record<string, number> = {};
  const writing: { name: string; marks: string[]; at: number }[] = [];
  const journals: Record<string, { from: number; keys: readonly string[] }> = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(JOURNAL_FROM_PREFIX)) {
      const mark = name.slice(JOURNAL_FROM_PREFIX.length);
      const keys = item[journalOf(mark)];
      journals[mark] = {
        from: Number(value) || 0,
        keys: keys instanceof Set ? [...keys].map(String) : [],
      };
    } else if (typeof value === 'number') marks[name] = value;
    else if (name.startsWith(WRITING_PREFIX) && value && typeof value === 'object') {
      const w = value as { marks?: unknown; at?: unknown };
      writing.push({
        name,
        marks: Array.isArray(w.marks) ? w.marks.map(String) : [],
        at: Number(w.at) || 0,
      });
    }
  }
  return { marks, writing, journals };
}

/** The values of `names` among the marks (0 for a mark never moved). */
export function marksOf(read: ChangeMarks, names: readonly string[]): Record<string, number> {
  return Object.fromEntries(names.map((n) => [n, read.marks[n] ?? 0]));
}

/** Whether no live write of any of `names` was under way when the marks were read at `now`. */
export function settledFor(read: ChangeMarks, names: readonly string[], now: number): boolean {
  return !read.writing.some(
    (w) => now - w.at < WRITE_DEAD_AFTER_MS && w.marks.some((m) => names.includes(m)),
  );
}

/**
 * The keys written under `mark` since it stood at `since`, as its journal read with the marks names them
 * (a few more at times), or undefined when the journal does not reach back that far.
 */
export function changedSince(
  read: ChangeMarks,
  mark: ChangeMark,
  since: number,
): readonly string[] | undefined {
  const journal = read.journals[mark];
  if (!journal || journal.from > since || since > (read.marks[mark] ?? 0)) return undefined;
  return journal.keys;
}

/**
 * Starts `mark`'s journal afresh from `value`, once a summary made under it is kept: only while the mark
 * still stands there (`read` found no live write of it under way), so the journal misses no write after.
 */
export async function restartJournal(
  companyId: string,
  read: ChangeMarks,
  mark: ChangeMark,
  now: number,
): Promise<void> {
  const value = read.marks[mark] ?? 0;
  if (!settledFor(read, [mark], now)) return;
  const journal = read.journals[mark];
  if (journal && journal.from === value && journal.keys.length === 0) return;
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: marksKey(companyId),
        UpdateExpression: 'SET #jf = :value REMOVE #j',
        ConditionExpression: value === 0 ? 'attribute_not_exists(#m)' : '#m = :value',
        ExpressionAttributeNames: { '#m': mark, '#j': journalOf(mark), '#jf': journalFromOf(mark) },
        ExpressionAttributeValues: { ':value': value },
      }),
    );
  } catch (err) {
    // The mark moved since: the next summary made under it starts the journal.
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * Drops the names of writes under way for longer than any writer lives (their writers died mid-write),
 * each only while it is the one seen, so the marks item does not grow with every writer that died. Never
 * fails: a write or a table does not wait on tidying.
 */
export async function dropDeadWrites(companyId: string, read: ChangeMarks, now: number): Promise<void> {
  const dead = read.writing.filter((w) => now - w.at >= WRITE_DEAD_AFTER_MS);
  await Promise.all(
    dead.map(async (w) => {
      try {
        await documentClient().send(
          new UpdateCommand({
            TableName: config().tableName,
            Key: marksKey(companyId),
            UpdateExpression: 'REMOVE #w',
            ConditionExpression: '#w.#at = :at',
            ExpressionAttributeNames: { '#w': w.name, '#at': 'at' },
            ExpressionAttributeValues: { ':at': w.at },
          }),
        );
      } catch {
        // Tidying only: a name another reader dropped first, or one left for the next to see.
      }
    }),
  );
}
