/**
 * | pattern                                         | key condition                                              | index |
 * | ----------------------------------------------- | ---------------------------------------------------------- | ----- |
 * | the kept site years' first part (and its marks) | pk = C#{companyId}#kept-site-years#0, sk = part            | table |
 * | the kept site years' other parts                | BatchGet pk = C#{companyId}#kept-site-years#{n}, sk = part | table |
 * | keep a new copy (the first part last)           | pk = C#{companyId}#kept-site-years#{n}, sk = part          | table |
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';
import { eachBatchGot } from '../core/data/batch-reads.ts';
import type { ChangeMarks } from '../core/data/change-marks.ts';
import { inPool } from '../core/lib/in-pool.ts';

/**
 * Every live site's fields and figures by year, as company-wide tables of sites read them, packed (JSON,
 * gzipped) into a few items rather than read from one item per site and one per site-year. Each part is
 * its own partition: a copy of thousands of sites is megabytes, more than one partition takes at once.
 * The first part names the copy (`build`), how many parts it has and the change marks it was made under;
 * the others carry the copy's name, so parts of two copies written at once are never read as one.
 */
const partPk = (companyId: string, n: number) => `C#${companyId}#kept-site-years#${n}`;
const SK = 'part';
/** Well under the 400 KB an item may hold, with room for the first part's own attributes. */
const PART_BYTES = 350_000;

/** A kept copy as stored: the marks it was made under, and what it holds. */
export interface KeptCopy<T> {
  marks: ChangeMarks;
  /** Which layout of the payload the copy holds: a copy of another layout is made again. */
  layout: number;
  /** When the copy was made (ms since the epoch). */
  builtAt: number;
  payload: T;
}

const bytesOf = (v: unknown): Buffer | undefined =>
  v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : undefined;

/** The kept copy of the company, when one is stored whole. */
export async function readKeptSiteYears<T>(companyId: string): Promise<KeptCopy<T> | undefined> {
  const first = (
    await documentClient().send(
      new GetCommand({ TableName: config().tableName, Key: { pk: partPk(companyId, 0), sk: SK } }),
    )
  ).Item;
  const head = bytesOf(first?.data);
  if (!first || !head || typeof first.build !== 'string') return undefined;
  const parts = Number(first.parts) || 1;
  const chunks: (Buffer | undefined)[] = [head, ...Array.from({ length: parts - 1 }, () => undefined)];
  await eachBatchGot(
    Array.from({ length: parts - 1 }, (_, i) => ({ pk: partPk(companyId, i + 1), sk: SK })),
    (raw) => {
      const n = Number(String(raw.pk).slice(String(raw.pk).lastIndexOf('#') + 1));
      if (raw.build === first.build) chunks[n] = bytesOf(raw.data);
    },
  );
  if (chunks.some((c) => c === undefined)) return undefined;
  const marks = (first.marks ?? {}) as Record<string, unknown>;
  return {
    marks: { sites: Number(marks.sites) || 0, siteYears: Number(marks.siteYears) || 0 },
    layout: Number(first.layout) || 0,
    builtAt: Number(first.builtAt) || 0,
    payload: JSON.parse(gunzipSync(Buffer.concat(chunks as Buffer[])).toString('utf8')) as T,
  };
}

/** Keeps a copy, replacing the one kept: the other parts first, the first part (which names them) last. */
export async function keepSiteYears<T>(companyId: string, copy: KeptCopy<T>): Promise<void> {
  const packed = gzipSync(JSON.stringify(copy.payload));
  const build = randomBytes(8).toString('hex');
  const chunks: Buffer[] = [];
  for (let at = 0; at < packed.length || chunks.length === 0; at += PART_BYTES)
    chunks.push(packed.subarray(at, at + PART_BYTES));
  const put = (Item: Record<string, unknown>) =>
    documentClient().send(new PutCommand({ TableName: config().tableName, Item }));
  await inPool(
    chunks.slice(1).map((data, i) => ({ data, n: i + 1 })),
    4,
    ({ data, n }) => put({ pk: partPk(companyId, n), sk: SK, build, data }),
  );
  await put({
    pk: partPk(companyId, 0),
    sk: SK,
    build,
    parts: chunks.length,
    marks: copy.marks,
    layout: copy.layout,
    builtAt: copy.builtAt,
    data: chunks[0],
  });
}
