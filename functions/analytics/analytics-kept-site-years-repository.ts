/**
 * | pattern                                           | key condition                                                           | index |
 * | ------------------------------------------------- | ----------------------------------------------------------------------- | ----- |
 * | a kept part's first piece (and its marks)         | pk = C#{companyId}#kept-site-years#{part}#0, sk = part                  | table |
 * | a kept part's other pieces                        | BatchGet pk = C#{companyId}#kept-site-years#{part}#{build}#{n}, sk = part | table |
 * | keep a part afresh (the first piece last)         | pk = C#{companyId}#kept-site-years#{part}#{build}#{n}, sk = part        | table |
 * | drop the pieces of a copy two copies back         | pk = C#{companyId}#kept-site-years#{part}#{build}#{n}, sk = part        | table |
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { eachBatchGot } from '../core/data/batch-reads.ts';
import { inPool } from '../core/lib/in-pool.ts';

/**
 * Company-wide tables of sites read every live site's fields and figures by year from a few kept parts
 * (the sites' fields, and each year's figures), packed (JSON, gzipped) rather than read from one item per
 * site and one per site-year. Each part is kept and made afresh on its own: a bill in one year makes that
 * year's part again, not the others. A part is stored in pieces, each its own partition (a part of
 * thousands of sites can be more than one partition takes at once). The first piece names the part's
 * copy (`build`), how many pieces it has and the change marks it was made under. The other pieces of a
 * copy have keys of their own (named by its build), so a copy being written never overwrites the pieces of
 * the one in use: a writer that dies midway leaves the kept copy whole. The pieces of the copy before the
 * one replaced are dropped when a copy is kept (a reader still on the replaced copy finds its pieces).
 */
const headPk = (companyId: string, part: string) => `C#${companyId}#kept-site-years#${part}#0`;
/** Pieces of copies kept before pieces were named by their build sit at `#{n}`; newer ones at `#{build}#{n}`. */
const piecePk = (companyId: string, part: string, n: number, build?: string) =>
  build === undefined
    ? `C#${companyId}#kept-site-years#${part}#${n}`
    : `C#${companyId}#kept-site-years#${part}#${build}#${n}`;
const SK = 'part';
/** Well under the 400 KB an item may hold, with room for the first piece's own attributes. */
const PIECE_BYTES = 350_000;

/** A kept part as stored: the marks it was made under, and what it holds. */
export interface KeptCopy<T> {
  marks: Readonly<Record<string, number>>;
  /** Which layout of the payload the part holds: a part of another layout is made again. */
  layout: number;
  /** When the marks it was made under were read (ms since the epoch). */
  builtAt: number;
  payload: T;
}

/** Which copy of a part is kept, and in how many pieces. */
export interface KeptPieces {
  build: string;
  parts: number;
}

/** A kept part as read, with which copy it is. */
export interface ReadKeptCopy<T> extends KeptCopy<T>, KeptPieces {}

const bytesOf = (v: unknown): Buffer | undefined =>
  v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : undefined;

const isConditionFailure = (err: unknown) =>
  err instanceof Error && err.name === 'ConditionalCheckFailedException';

/** The kept part of the company, when one is stored whole. */
export async function readKeptSiteYears<T>(
  companyId: string,
  part: string,
): Promise<ReadKeptCopy<T> | undefined> {
  const first = (
    await documentClient().send(
      new GetCommand({ TableName: config().tableName, Key: { pk: headPk(companyId, part), sk: SK } }),
    )
  ).Item;
  const head = bytesOf(first?.data);
  if (!first || !head || typeof first.build !== 'string') return undefined;
  const build = first.build;
  const named = first.pieces === 'by-build' ? build : undefined;
  const pieces = Number(first.parts) || 1;
  const chunks: (Buffer | undefined)[] = [head, ...Array.from({ length: pieces - 1 }, () => undefined)];
  await eachBatchGot(
    Array.from({ length: pieces - 1 }, (_, i) => ({ pk: piecePk(companyId, part, i + 1, named), sk: SK })),
    (raw) => {
      const n = Number(String(raw.pk).slice(String(raw.pk).lastIndexOf('#') + 1));
      if (raw.build === build) chunks[n] = bytesOf(raw.data);
    },
  );
  if (chunks.some((c) => c === undefined)) return undefined;
  const marks: Record<string, number> = {};
  for (const [name, value] of Object.entries((first.marks ?? {}) as Record<string, unknown>))
    marks[name] = Number(value) || 0;
  return {
    build,
    parts: pieces,
    marks,
    layout: Number(first.layout) || 0,
    builtAt: Number(first.builtAt) || 0,
    payload: JSON.parse(gunzipSync(Buffer.concat(chunks as Buffer[])).toString('utf8')) as T,
  };
}

/**
 * Keeps a part in place of the one kept (`replacing`, as the caller read it: its pieces are dropped when
 * the next copy replaces this one), unless the kept one was made under a later value of any of the
 * copy's marks (a slower reader or worker never puts an older copy back). The pieces are written first under
 * keys of their own, and the first piece, which names them, last: until then the copy kept is read whole.
 * Whether the copy was kept.
 */
export async function keepSiteYears<T>(
  companyId: string,
  part: string,
  copy: KeptCopy<T>,
  replacing?: KeptPieces,
): Promise<boolean> {
  const packed = gzipSync(JSON.stringify(copy.payload));
  const build = randomBytes(8).toString('hex');
  const chunks: Buffer[] = [];
  for (let at = 0; at < packed.length || chunks.length === 0; at += PIECE_BYTES)
    chunks.push(packed.subarray(at, at + PIECE_BYTES));
  const put = (Item: Record<string, unknown>) =>
    documentClient().send(new PutCommand({ TableName: config().tableName, Item }));
  await inPool(
    chunks.slice(1).map((data, i) => ({ data, n: i + 1 })),
    4,
    ({ data, n }) => put({ pk: piecePk(companyId, part, n, build), sk: SK, build, data }),
  );
  const names: Record<string, string> = { '#marks': 'marks' };
  const values: Record<string, unknown> = {};
  const notLater = Object.entries(copy.marks).map(([mark, value], i) => {
    names[`#k${i}`] = mark;
    values[`:k${i}`] = value;
    return `(attribute_not_exists(#marks.#k${i}) OR #marks.#k${i} <= :k${i})`;
  });
  let replaced: Record<string, unknown> | undefined;
  try {
    replaced = (
      await documentClient().send(
        new PutCommand({
          TableName: config().tableName,
          Item: {
            pk: headPk(companyId, part),
            sk: SK,
            build,
            pieces: 'by-build',
            parts: chunks.length,
            marks: copy.marks,
            layout: copy.layout,
            builtAt: copy.builtAt,
            ...(replacing ? { previous: replacing } : {}),
            data: chunks[0],
          },
          ...(notLater.length
            ? {
                // AND binds before OR: no copy kept, or every mark at most this copy's.
                ConditionExpression: `attribute_not_exists(pk) OR ${notLater.join(' AND ')}`,
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: values,
              }
            : {}),
          ReturnValues: 'ALL_OLD',
        }),
      )
    ).Attributes;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    await dropPieces(companyId, part, build, chunks.length);
    return false;
  }
  // The copy just replaced stays readable for a reader that read its first piece; the one before it goes.
  const before = replaced?.pieces === 'by-build' ? (replaced.previous as KeptPieces | undefined) : undefined;
  if (before?.build) await dropPieces(companyId, part, before.build, Number(before.parts) || 1);
  return true;
}

/** Drops the pieces of a copy no first piece names any longer. Tidying only: never fails a keep. */
async function dropPieces(companyId: string, part: string, build: string, parts: number): Promise<void> {
  await inPool(
    Array.from({ length: Math.max(0, parts - 1) }, (_, i) => i + 1),
    4,
    (n) =>
      documentClient()
        .send(
          new DeleteCommand({
            TableName: config().tableName,
            Key: { pk: piecePk(companyId, part, n, build), sk: SK },
          }),
        )
        .catch(() => undefined),
  );
}
