import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';

/**
 * A company's change marks: counters that move after every write of what company-wide tables of sites
 * are made from (each site's name, place, type and floor area; each site's figures by year). A summary
 * of thousands of items is kept with the marks read before it was made, and trusted only while they stand:
 * a writer moves its mark after its own write, so a summary made from reads that missed the write was kept
 * under the older mark.
 *
 * | pattern                        | key condition                          | index |
 * | ------------------------------ | -------------------------------------- | ----- |
 * | read the company's marks       | pk = C#{companyId}#changes, sk = marks | table |
 * | move one mark (atomic ADD)     | pk = C#{companyId}#changes, sk = marks | table |
 */
const marksKey = (companyId: string) => ({ pk: `C#${companyId}#changes`, sk: 'marks' });

export type ChangeMark = 'sites' | 'siteYears';
export type ChangeMarks = Readonly<Record<ChangeMark, number>>;

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

/** Moves of one mark asked for while none is on its way: they share the next write. */
const waiting = new Map<string, Promise<void>>();
/** The move of each mark on its way to the table. */
const sending = new Map<string, Promise<void>>();

/**
 * Moves a mark, after the caller's write has landed. Writers of one process that ask at once share a
 * move; a move asked for while one is on its way is sent after it, so every write is followed by a move.
 */
export function moveChangeMark(companyId: string, mark: ChangeMark): Promise<void> {
  const key = `${companyId}#${mark}`;
  const queued = waiting.get(key);
  if (queued) return queued;
  const move = (async () => {
    await sending.get(key)?.catch(() => undefined);
    waiting.delete(key);
    const sent = documentClient()
      .send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: marksKey(companyId),
          UpdateExpression: 'ADD #m :one',
          ExpressionAttributeNames: { '#m': mark },
          ExpressionAttributeValues: { ':one': 1 },
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

/** The company's marks, read strongly: a summary is checked against them, or made under them. */
export async function readChangeMarks(companyId: string): Promise<ChangeMarks> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: marksKey(companyId), ConsistentRead: true }),
  );
  const of = (mark: ChangeMark) => (typeof out.Item?.[mark] === 'number' ? (out.Item[mark] as number) : 0);
  return { sites: of('sites'), siteYears: of('siteYears') };
}
