import { headerOf } from '../../shared/imports/import-mapping.ts';
import { delimitedRecords, FileFormatError, type TextRecord } from '../../shared/imports/text-rows.ts';
import { isZip, openXlsx } from '../../shared/imports/xlsx-rows.ts';
import { s3 } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';

/**
 * An import's file as records: CSV read as it streams from the bucket; XLSX held compressed (a zip is read
 * from its end, and its shared strings may follow its sheets), its sheet's rows read as the sheet inflates.
 * Anything else is refused by its first bytes.
 */

export const IMPORT_FILE_LIMIT_BYTES = 100 * 1024 * 1024;

export interface FileFacts {
  kind: 'csv' | 'xlsx';
  encoding?: string;
  delimiter?: string;
  sheetNames?: string[];
  sheet?: string;
}

async function* objectChunks(key: string): AsyncGenerator<Uint8Array> {
  const { lib, client } = await s3();
  const out = await client.send(new lib.GetObjectCommand({ Bucket: bucketName('uploads'), Key: key }));
  const body = out.Body as unknown;
  if (body && typeof body === 'object' && Symbol.asyncIterator in body) {
    for await (const chunk of body as AsyncIterable<Uint8Array>) yield chunk;
    return;
  }
  if (out.Body) yield await out.Body.transformToByteArray();
}

/** Bytes no spreadsheet text holds: NUL, and the other control characters bar tab, CR, LF and form feed. */
function looksBinary(head: Uint8Array): boolean {
  const n = Math.min(head.length, 4096);
  for (let i = 0; i < n; i++) {
    const b = head[i] as number;
    if (b === 0 || (b < 32 && b !== 9 && b !== 10 && b !== 13 && b !== 12)) return true;
  }
  return false;
}

/** The records of a file given as chunks, with what was learnt about it. */
export async function* recordsOfChunks(
  chunks: AsyncIterable<Uint8Array>,
  facts: FileFacts,
  sheet?: string,
): AsyncGenerator<TextRecord[]> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || first.value.length === 0) throw new FileFormatError('The file is empty');
  const head = first.value;
  async function* all(): AsyncGenerator<Uint8Array> {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  if (isZip(head)) {
    const parts: Uint8Array[] = [];
    let size = 0;
    for await (const c of all()) {
      size += c.length;
      if (size > IMPORT_FILE_LIMIT_BYTES) throw new FileFormatError('The file is larger than 100 MB');
      parts.push(c);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    parts.length = 0;
    const book = openXlsx(bytes, sheet);
    facts.kind = 'xlsx';
    facts.sheetNames = book.sheetNames;
    facts.sheet = book.sheetName;
    yield* book.rows();
    return;
  }
  if (looksBinary(head))
    throw new FileFormatError('The file is not a spreadsheet: choose a CSV or XLSX file');
  facts.kind = 'csv';
  yield* delimitedRecords(all(), (encoding, delimiter) => {
    facts.encoding = encoding;
    facts.delimiter = delimiter;
  });
}

export function fileRecords(key: string, facts: FileFacts, sheet?: string): AsyncGenerator<TextRecord[]> {
  return recordsOfChunks(objectChunks(key), facts, sheet);
}

/** The header, a few sample rows and the facts of a file, reading no further than they need. */
export async function readHead(
  records: AsyncIterable<TextRecord[]>,
  sampleCount = 10,
): Promise<{ header: string[]; headerRows: number; samples: string[][] }> {
  const rows: string[][] = [];
  for await (const batch of records) {
    for (const r of batch) {
      rows.push(r.fields);
      if (rows.length >= sampleCount + 2) break;
    }
    if (rows.length >= sampleCount + 2) break;
  }
  if (rows.length === 0) throw new FileFormatError('The file is empty');
  const { header, headerRows } = headerOf(rows);
  if (header.every((h) => h === ''))
    throw new FileFormatError('The first row of the file has no column names');
  const samples = rows.slice(headerRows, headerRows + sampleCount);
  return { header, headerRows, samples };
}

/**
 * The records of an import for one meter (POST /accounts/{id}/consumption-import): its file names no
 * meter, so each record gains a last column naming it, headed "Meter".
 */
export async function* withMeterColumn(
  records: AsyncIterable<TextRecord[]>,
  accountId: string,
): AsyncGenerator<TextRecord[]> {
  for await (const batch of records)
    yield batch.map((rec) => ({ ...rec, fields: [...rec.fields, rec.row === 1 ? 'Meter' : accountId] }));
}
