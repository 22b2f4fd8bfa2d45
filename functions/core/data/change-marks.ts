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
 * way for longer than any writer lives is taken as dead.
 *
 * | pattern                                        | key condition                          | index |
 * | ---------------------------------------------- | -------------------------------------- | ----- |
 * | read the company's marks and writes under way   | pk = C#{companyId}#changes, sk = marks | table |
 * | move marks (atomic ADD), name or drop a write  | pk = C#{companyId}#changes, sk = marks | table |
 */
const marksKey = (companyId: string) => ({ pk: `C#${companyId}#changes`, sk: 'marks' });
const WRITING_PREFIX = 'writing#';
/** Longer than any function that writes site years runs (a Lambda lives 15 minutes at most). */
export const WRITE_DEAD_AFTER_MS = 20 * 60_000;

export type ChangeMark = 'sites' | 'siteYears' | `siteYears#${number}`;

/** The mark that writes of one year's site figures move. */
export const yearMark = (year: number | string): ChangeMark => `siteYears#${Number(year)}`;

/** The company's marks as read at one moment, with the writes under way then. */
export interface ChangeMarks {
  marks: Readonly<Record<string, number>>;
  writing: readonly { marks: readonly string[]; at: number }[];
}

/**
 * Site fields the site tables read (and only these): a write changing none of them, nor the site's
 * liveness, moves no mark.
 */
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

/** Whether a site write from `before` to `after` (either absent) changes what the site tables read. */
export function changesSiteFields(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): boolean {
  const live = (i: Record<string, unknown> | undefined) => i !== undefined && i.deleted !== true;
  if (live(before) !== live(after)) return true;
  if (!live(after)) return false;
  return SITE_TABLE_FIELDS.some((f) => JSON.stringify(before?.[f]) !== JSON.stringify(after?.[f]));
}

/** The ADD of one to each mark, as an update's clause, names and values. */
function addsOf(marks: readonly string[]) {
  const names: Record<string, string> = {};
  marks.forEach((m, i) => {
    names[`#m${i}`] = m;
  });
  return {
    clause: `ADD ${marks.map((_, i) => `#m${i} :one`).join(', ')}`,
    names,
    values: { ':one': 1 } as Record<string, unknown>,
  };
}

/** Moves of the same marks asked for while none is on its way: they share the next write. */
const waiting = new Map<string, Promise<void>>();
/** The move of each set of marks on its way to the table. */
const sending = new Map<string, Promise<void>>();

/**
 * Moves marks, after the caller's write has landed. Writers of one process that ask at once share a
 * move; a move asked for while one is on its way is sent after it, so every write is followed by a move.
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
    const sent = documentClient()
      .send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: marksKey(companyId),
          UpdateExpression: adds.clause,
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
 * them again and drops the name after it (also when it fails: part of it may have landed).
 */
export async function writingUnder<T>(
  companyId: string,
  marks: readonly ChangeMark[],
  write: () => Promise<T>,
): Promise<T> {
  const names = [...new Set(marks)].sort();
  if (names.length === 0) return write();
  const adds = addsOf(names);
  const token = `${WRITING_PREFIX}${randomBytes(6).toString('hex')}`;
  const update = (expression: string, values: Record<string, unknown>) =>
    documentClient().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: marksKey(companyId),
        UpdateExpression: expression,
        ExpressionAttributeNames: { ...adds.names, '#w': token },
        ExpressionAttributeValues: { ...adds.values, ...values },
      }),
    );
  await update(`${adds.clause} SET #w = :w`, { ':w': { marks: names, at: Date.now() } });
  try {
    return await write();
  } finally {
    await update(`${adds.clause} REMOVE #w`, {});
  }
}

/** The company's marks and writes under way, read strongly: a summary is checked against them, or made under them. */
export async function readChangeMarks(companyId: string): Promise<ChangeMarks> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: marksKey(companyId), ConsistentRead: true }),
  );
  const marks: Record<string, number> = {};
  const writing: { marks: string[]; at: number }[] = [];
  for (const [name, value] of Object.entries(out.Item ?? {})) {
    if (typeof value === 'number') marks[name] = value;
    else if (name.startsWith(WRITING_PREFIX) && value && typeof value === 'object') {
      const w = value as { marks?: unknown; at?: unknown };
      writing.push({
        marks: Array.isArray(w.marks) ? w.marks.map(String) : [],
        at: Number(w.at) || 0,
      });
    }
  }
  return { marks, writing };
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
