import * as z from 'zod/mini';
import { type CsvRecord, parseCsv } from '../files/csv.ts';
import type { ImportColumn } from '../imports/register-columns.ts';
import { idField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * CSV imports of entities and sites (POST /entities/import, /assets/import) and their rollbacks. A file is
 * taken whole or not at all: every row is checked first, and one bad row means nothing is written.
 */
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Rows with problems listed in one answer; past that the message says how many more there are. */
export const IMPORT_MAX_REPORTED_ROWS = 200;

export type ImportModel = 'entities' | 'assets' | 'accounts' | 'contracts' | 'readings' | 'invoices';

/** What a batch of each model is called in messages. */
export const IMPORT_MODEL_NOUNS: Readonly<Record<ImportModel, string>> = {
  entities: 'entities',
  assets: 'sites',
  accounts: 'meters',
  contracts: 'contracts',
  readings: 'readings',
  invoices: 'invoices',
};

/**
 * 5000 as "5,000", as `toLocaleString('en-GB')` writes whole numbers; the first use of Intl loads the
 * ICU locale data (~10 ms), which a message built when the module loads would add to every cold start.
 */
const groupThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const IMPORT_MESSAGES = {
  empty: 'The file has no rows to import below its header.',
  noFile: 'Choose a CSV file to import.',
  tooManyRows: `The file has more than ${groupThousands(IMPORT_MAX_ROWS)} rows: split it into smaller files.`,
  tooLarge: `The file is larger than ${IMPORT_MAX_FILE_BYTES / 1024 / 1024} MB: split it into smaller files.`,
  rowsInvalid: (n: number) =>
    `${n.toLocaleString('en-GB')} ${n === 1 ? 'row has' : 'rows have'} problems: nothing was imported.`,
  batchNotFound: 'No import with this batch id was found.',
  wrongModel: (model: ImportModel) =>
    `This batch imported ${IMPORT_MODEL_NOUNS[model]}: roll it back from there.`,
  changed: 'Changed since the import',
  entityInUse: 'Has subsidiaries or sites that were not part of the import',
  assetInUse: 'Has meters or projects added since the import',
  parentOfKept: 'Has a subsidiary that is kept',
  accountInUse: 'Has consumption, sub-meters or contracts added since the import',
} as const;

export type { ImportColumn } from '../imports/register-columns.ts';
export {
  ACCOUNT_IMPORT_COLUMNS,
  ASSET_IMPORT_COLUMNS,
  CONTRACT_IMPORT_COLUMNS,
  ENTITY_IMPORT_COLUMNS,
  INVOICE_IMPORT_COLUMNS,
  READING_IMPORT_COLUMNS,
} from '../imports/register-columns.ts';

/** The header of a template file: each column's own field name. */
export const importTemplateHeader = (columns: readonly ImportColumn[]) => columns.map((c) => c.field);

/** Header text compared without case, spaces or punctuation: "Post Code", "post_code" and "postCode" match. */
const headerKey = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** One data row of a file, by field, with its row number; empty cells are left out. */
export interface ImportRow {
  row: number;
  values: Record<string, string>;
}

export type ImportFileResult =
  | { ok: true; rows: ImportRow[] }
  | { ok: false; formMessages: Record<string, string>; message: string };

const fileProblem = (message: string): ImportFileResult => ({
  ok: false,
  formMessages: { file: message },
  message,
});

/**
 * Reads a file's text into rows by field, checking what concerns the file as a whole: quoting, a header
 * whose every column is known (an unknown one would be lost without a word), the columns that must be
 * there, and the row limit. Problems of single values are left to the caller's row checks.
 */
export function readImportFile(text: string, columns: readonly ImportColumn[]): ImportFileResult {
  let records: CsvRecord[];
  try {
    records = parseCsv(text);
  } catch (err) {
    return fileProblem(err instanceof Error ? err.message : String(err));
  }
  const [header, ...data] = records;
  if (!header) return fileProblem(IMPORT_MESSAGES.empty);
  const byAlias = new Map<string, ImportColumn>();
  for (const c of columns) for (const a of [...c.aliases, headerKey(c.field)]) byAlias.set(a, c);
  const fields: string[] = [];
  const unknown: string[] = [];
  const seen = new Map<string, string>();
  for (const name of header.fields) {
    const column = byAlias.get(headerKey(name));
    if (!column) {
      if (name.trim() !== '') unknown.push(name.trim());
      fields.push('');
      continue;
    }
    const before = seen.get(column.field);
    if (before !== undefined)
      return fileProblem(`The columns "${before}" and "${name.trim()}" both give ${column.field}: keep one.`);
    seen.set(column.field, name.trim());
    fields.push(column.field);
  }
  if (unknown.length > 0) {
    const list = unknown.map((u) => `"${u}"`).join(', ');
    return fileProblem(
      `Unknown ${unknown.length === 1 ? 'column' : 'columns'} ${list}. The columns are: ${importTemplateHeader(columns).join(', ')}.`,
    );
  }
  const missing = columns.filter((c) => c.required && !seen.has(c.field)).map((c) => c.field);
  if (missing.length > 0)
    return fileProblem(
      `The file needs ${missing.length === 1 ? 'a column' : 'columns'} ${missing.join(', ')}.`,
    );
  if (data.length === 0) return fileProblem(IMPORT_MESSAGES.empty);
  if (data.length > IMPORT_MAX_ROWS) return fileProblem(IMPORT_MESSAGES.tooManyRows);

  const rows: ImportRow[] = [];
  const problems: Record<string, string> = {};
  for (const record of data) {
    // Rows of empty cells, as spreadsheets leave below the data, are not rows.
    if (record.fields.every((f) => f.trim() === '')) continue;
    if (record.fields.length > fields.length) {
      problems[`rows.${record.row}._row`] =
        `Has ${record.fields.length} values but the header has ${fields.length} columns`;
      continue;
    }
    const values: Record<string, string> = {};
    record.fields.forEach((raw, i) => {
      const field = fields[i];
      const value = raw.trim();
      if (field && value !== '') values[field] = value;
    });
    rows.push({ row: record.row, values });
  }
  const bad = Object.keys(problems).length;
  if (bad > 0) return { ok: false, formMessages: problems, message: IMPORT_MESSAGES.rowsInvalid(bad) };
  if (rows.length === 0) return fileProblem(IMPORT_MESSAGES.empty);
  return { ok: true, rows };
}

/** The body of POST /entities/import and /assets/import when it is JSON: the file's text and its name. */
export const importFileBodySchema = onFirstUse(() =>
  z.object({
    fileName: z.optional(z.string().check(z.trim(), z.maxLength(200))),
    csv: z.string({ error: IMPORT_MESSAGES.noFile }),
  }),
);

/** POST /entities/import-rollback and /assets/import-rollback. */
export const importRollbackSchema = onFirstUse(() => z.object({ batchId: idField() }));

/** The answer to a successful import. */
export interface ImportResult {
  batchId: string;
  model: ImportModel;
  fileName?: string;
  created: number;
  items: { row: number; _id: string; name: string }[];
}

/** The answer to a rollback: what was removed, and what was kept and why. */
export interface ImportRollbackResult {
  batchId: string;
  model: ImportModel;
  removed: number;
  alreadyRemoved: number;
  kept: { _id: string; name: string; reason: string }[];
}
