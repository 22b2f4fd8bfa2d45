/**
 * | pattern                                           | key condition                                                       | index |
 * | ------------------------------------------------- | ------------------------------------------------------------------- | ----- |
 * | a kept part's first piece (and its marks)         | pk = C#{companyId}#kept-site-years#{part}#0, sk = part              | table |
 * | a kept part's other pieces                        | BatchGet pk = C#{companyId}#kept-site-years#{part}#{n}, sk = part   | table |
 * | keep a part afresh (the first piece last)         | pk = C#{companyId}#kept-site-years#{part}#{n}, sk = part            | table |
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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
 * copy (`build`), how many pieces it has and the change marks it was made under; the others carry the
 * copy's name, so pieces of two copies written at once are never read as one.
 */
const piecePk = (companyId: string, part: string, n: number) => `C#${companyId}#kept-site-years#${part}#${n}`;
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

const bytesOf = (v: unknown): Buffer | undefined =>
  v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : undefined;

/** The kept part of the company, when one is stored whole. */
export async function readKeptSiteYears<T>(
  companyId: string,
  part: string,
): Promise<KeptCopy<T> | undefined> {
  const first = (
    await documentClient().send(
      new GetCommand({ TableName: config().tableName, Key: { pk: piecePk(companyId, part, 0), sk: SK } }),
    )
  ).Item;
  const head = bytesOf(first?.data);
  if (!first || !head || typeof first.build !== 'string') return undefined;
  const pieces = Number(first.parts) || 1;
  const chunks: (Buffer | undefined)[] = [head, ...Array.from({ length: pieces - 1 }, () => undefined)];
  await eachBatchGot(
    Array.from({ length: pieces - 1 }, (_, i) => ({ pk: piecePk(companyId, part, i + 1), sk: SK })),
    (raw) => {
      const n = Number(String(raw.pk).slice(String(raw.pk).lastIndexOf('#') + 1));
      if (raw.build === first.build) chunks[n] = bytesOf(raw.data);
    },
  );
  if (chunks.some((c) => c === undefined)) return undefined;
  const marks: Record<string, number> = {};
  for (const [name, value] of Object.entries((first.marks ?? {}) as Record<string, unknown>))
    marks[name] = Number(value) || 0;
  return {
    marks,
    layout: Number(first.layout) || 0,
    builtAt: Number(first.builtAt) || 0,
    payload: JSON.parse(gunzipSync(Buffer.concat(chunks as Buffer[])).toString('utf8')) as T,
  };
}

/** Keeps a part, replacing the one kept: the other pieces first, the first piece (which names them) last. */
export async function keepSiteYears<T>(companyId: string, part: string, copy: KeptCopy<T>): Promise<void> {
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
    ({ data, n }) => put({ pk: piecePk(companyId, part, n), sk: SK, build, data }),
  );
  await put({
    pk: piecePk(companyId, part, 0),
    sk: SK,
    build,
    parts: chunks.length,
    marks: copy.marks,
    layout: copy.layout,
    builtAt: copy.builtAt,
    data: chunks[0],
  });
}
