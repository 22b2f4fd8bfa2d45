import * as z from 'zod';
import { settlementPeriodStarts, settlementPeriods } from '../analytics/half-hourly.ts';
import { onFirstUse } from '../schemas/on-first-use.ts';
import { IMPORT_TYPES, type ImportType } from './import-types.ts';
import {
  DATE_FORMATS,
  type DateFormat,
  guessDateFormat,
  parseDate,
  parseMonth,
  parseNumber,
  parseTime,
} from './import-values.ts';
import {
  ACCOUNT_IMPORT_COLUMNS,
  ASSET_IMPORT_COLUMNS,
  CONTRACT_IMPORT_COLUMNS,
  ENTITY_IMPORT_COLUMNS,
  type ImportColumn,
  INVOICE_IMPORT_COLUMNS,
  READING_IMPORT_COLUMNS,
} from './register-columns.ts';

/**
 * What each kind of import reads from a file: its fields, how columns are suggested for them from header
 * names and sample values, and what one row says once mapped (or why it cannot be used, by field).
 */

export { IMPORT_TYPES, type ImportType };

/**
 * Imports that create items (sites, entities, meters, contracts, readings, invoices), one per row, rather
 * than figures.
 */
export const RECORD_IMPORT_COLUMNS = {
  sites: ASSET_IMPORT_COLUMNS,
  entities: ENTITY_IMPORT_COLUMNS,
  meters: ACCOUNT_IMPORT_COLUMNS,
  contracts: CONTRACT_IMPORT_COLUMNS,
  readings: READING_IMPORT_COLUMNS,
  invoices: INVOICE_IMPORT_COLUMNS,
} as const satisfies Readonly<Record<string, readonly ImportColumn[]>>;
export type RecordImportType = keyof typeof RECORD_IMPORT_COLUMNS;

export const isRecordImport = (type: ImportType): type is RecordImportType => type in RECORD_IMPORT_COLUMNS;

/**
 * The types whose rows can name an item that already exists, and how they name it: such an import may
 * update those items (mode `upsert`) rather than only create new ones.
 */
export const UPDATABLE_IMPORT_KEYS: Readonly<Partial<Record<RecordImportType, string>>> = {
  sites: 'site name',
  meters: 'MPAN, MPRN or serial number',
  entities: 'legal name or company number',
  contracts: 'meter and start date',
};

/** The fields a file of each updatable type must still map: those that name the item. */
const UPSERT_KEY_FIELDS: Readonly<Partial<Record<RecordImportType, readonly string[]>>> = {
  sites: ['siteName'],
  entities: ['legalName'],
  contracts: ['startDate'],
};

export const IMPORT_MODES = ['create', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const isUpsert = (mapping: { type: ImportType; mode?: ImportMode }): boolean =>
  mapping.mode === 'upsert' &&
  isRecordImport(mapping.type) &&
  UPDATABLE_IMPORT_KEYS[mapping.type] !== undefined;

export const IMPORT_TYPE_LABELS: Readonly<Record<ImportType, string>> = {
  'monthly-consumption': 'Monthly consumption',
  'half-hourly-wide': 'Half-hourly data, one row per meter and day',
  'half-hourly-long': 'Half-hourly data, one row per reading',
  sites: 'Sites',
  entities: 'Entities',
  meters: 'Meters',
  contracts: 'Contracts',
  readings: 'Meter readings',
  invoices: 'Invoices (values without PDFs)',
};

/** A field name as a label: "postCode" as "Post code". */
const labelOf = (field: string) => {
  const words = field.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const recordFields = (columns: readonly ImportColumn[]): ImportField[] =>
  columns.map((c) => ({ name: c.field, label: labelOf(c.field), required: c.required === true }));

export interface ImportField {
  name: string;
  label: string;
  required: boolean;
}

export const IMPORT_FIELDS: Readonly<Record<ImportType, readonly ImportField[]>> = {
  'monthly-consumption': [
    { name: 'meter', label: 'Meter (MPAN, MPRN, serial or name)', required: true },
    { name: 'month', label: 'Month', required: false },
    { name: 'periodStart', label: 'Bill period start', required: false },
    { name: 'periodEnd', label: 'Bill period end', required: false },
    { name: 'consumption', label: 'Consumption', required: true },
    { name: 'cost', label: 'Cost (£, before VAT)', required: false },
  ],
  'half-hourly-wide': [
    { name: 'meter', label: 'Meter (MPAN, MPRN, serial or name)', required: true },
    { name: 'date', label: 'Date', required: true },
  ],
  'half-hourly-long': [
    { name: 'meter', label: 'Meter (MPAN, MPRN, serial or name)', required: true },
    { name: 'timestamp', label: 'Timestamp (start of the half hour)', required: true },
    { name: 'value', label: 'Value (kWh)', required: true },
  ],
  sites: recordFields(ASSET_IMPORT_COLUMNS),
  entities: recordFields(ENTITY_IMPORT_COLUMNS),
  meters: recordFields(ACCOUNT_IMPORT_COLUMNS),
  contracts: recordFields(CONTRACT_IMPORT_COLUMNS),
  readings: recordFields(READING_IMPORT_COLUMNS),
  invoices: recordFields(INVOICE_IMPORT_COLUMNS),
};

/** Built on first use: most functions that read mappings (the automation's lists, say) parse none. */
export const importMappingSchema = onFirstUse(() =>
  z.object({
    type: z.enum(IMPORT_TYPES),
    /** Field name → 0-based column. */
    columns: z.record(z.string(), z.number().int().min(0).max(1000)),
    /** The wide layout's settlement-period columns, in period order. */
    periodColumns: z.array(z.number().int().min(0).max(1000)).max(50).optional(),
    dateFormat: z.enum(DATE_FORMATS).default('DMY'),
    /** Create new items only, or also update the items that rows name by their natural key. */
    mode: z.enum(IMPORT_MODES).optional(),
  }),
);
export type ImportMapping = z.output<typeof importMappingSchema>;

/** The body of an import's mapping call. */
export const importMappingBody = onFirstUse(() =>
  z.object({
    mapping: importMappingSchema,
    sheet: z.string().trim().min(1).max(100).optional(),
    /** Saves the mapping as a template under this name, offered when a file with the same header comes. */
    templateName: z.string().trim().min(1).max(100).optional(),
  }),
);

/**
 * Whether a mapping must give a field a column: in a file that may update items, only the fields that
 * name the item are, since an update takes the fields a file leaves out from the item.
 */
export function isFieldRequired(
  mapping: { type: ImportType; mode?: ImportMode },
  field: ImportField,
): boolean {
  if (!field.required) return false;
  if (!isUpsert(mapping)) return true;
  return (UPSERT_KEY_FIELDS[mapping.type as RecordImportType] ?? []).includes(field.name);
}

/** Why a mapping cannot be used with a header of `width` columns, by field; empty when it can. */
export function mappingProblems(mapping: ImportMapping, width: number): Record<string, string> {
  const problems: Record<string, string> = {};
  // Rows that update an item take the fields they leave out from it; a new item's row still needs them.
  for (const field of IMPORT_FIELDS[mapping.type]) {
    const col = mapping.columns[field.name];
    const required = isFieldRequired(mapping, field);
    if (col === undefined && required) problems[field.name] = `Choose the column for ${field.label}`;
    if (col !== undefined && col >= width) problems[field.name] = 'The file has no such column';
  }
  for (const name of Object.keys(mapping.columns))
    if (!IMPORT_FIELDS[mapping.type].some((f) => f.name === name))
      problems[name] = 'Not a field of this import';
  if (mapping.type === 'monthly-consumption') {
    const c = mapping.columns;
    if (c.month === undefined && (c.periodStart === undefined || c.periodEnd === undefined))
      problems.month = 'Choose a month column, or the bill period start and end';
  }
  if (mapping.type === 'half-hourly-wide') {
    const n = mapping.periodColumns?.length ?? 0;
    if (n < 46) problems.periodColumns = `Choose the 48 half-hour columns (${n} chosen)`;
    if (mapping.periodColumns?.some((c) => c >= width))
      problems.periodColumns = 'The file has no such column';
  }
  return problems;
}

const norm = (h: string) =>
  h
    .toLowerCase()
    .replace(/[^a-z0-9£]+/g, ' ')
    .trim();

const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  meter: [
    'mpan',
    'mprn',
    'meter',
    'meter serial',
    'serial',
    'msn',
    'meter point',
    'supply number',
    'meter name',
    'account',
    'meter id',
    'core mpan',
  ],
  month: ['month', 'billing month', 'period', 'bill month', 'consumption month'],
  periodStart: ['period start', 'start date', 'from', 'bill start', 'start', 'date from'],
  periodEnd: ['period end', 'end date', 'to', 'bill end', 'end', 'date to'],
  consumption: ['consumption', 'kwh', 'usage', 'units', 'quantity', 'volume', 'consumption kwh'],
  cost: ['cost', 'amount', '£', 'net cost', 'charge', 'net', 'cost £', 'cost gbp'],
  date: ['date', 'day', 'read date', 'reading date', 'settlement date'],
  timestamp: [
    'timestamp',
    'datetime',
    'date time',
    'time',
    'interval start',
    'period start',
    'start time',
    'reading time',
  ],
  value: ['value', 'kwh', 'reading', 'consumption', 'usage'],
};

const compact = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/** How well a header names a field: 2 exactly, 1 when it contains a synonym, 0 not at all. */
function score(header: string, field: string, type?: ImportType): number {
  if (type && isRecordImport(type)) {
    const column = (RECORD_IMPORT_COLUMNS[type] as readonly ImportColumn[]).find((c) => c.field === field);
    const h = compact(header);
    return column && (column.aliases.includes(h) || compact(column.field) === h) ? 2 : 0;
  }
  const h = norm(header);
  const words = SYNONYMS[field] ?? [];
  if (words.includes(h)) return 2;
  if (words.some((w) => w.length > 2 && ` ${h} `.includes(` ${w} `))) return 1;
  return 0;
}

/** A header naming a half hour: 1..50, HH01, P1, SP1, 00:00 or 00:30 (start or end of the period). */
function periodOf(header: string): number | undefined {
  const h = header.trim().toLowerCase();
  let m = /^(?:hh|p|sp|period|kwh)?\s*_?(\d{1,2})$/.exec(h);
  if (m) return Number(m[1]);
  m = /^(\d{1,2}):(\d{2})(?:\s*-.*)?$/.exec(h);
  if (m) return Number(m[1]) * 2 + (Number(m[2]) >= 30 ? 1 : 0);
  return undefined;
}

/** The columns of the wide layout's half hours, in order, when the header has 46 to 50 of them. */
export function periodColumnsOf(header: readonly string[]): number[] | undefined {
  const found: number[] = [];
  header.forEach((h, i) => {
    if (periodOf(h) !== undefined) found.push(i);
  });
  return found.length >= 46 && found.length <= 50 ? found : undefined;
}

export interface SuggestedMapping {
  mapping: ImportMapping;
  /** Header columns no field uses. */
  unusedColumns: number[];
}

/** The likeliest type and columns for a header and some sample rows. */
export function suggestMapping(
  header: readonly string[],
  samples: readonly (readonly string[])[],
  type?: ImportType,
): SuggestedMapping {
  const periods = periodColumnsOf(header);
  const looksLong =
    header.some((h) => score(h, 'timestamp') === 2) && header.some((h) => score(h, 'value') > 0);
  const chosen: ImportType =
    type ?? (periods ? 'half-hourly-wide' : looksLong ? 'half-hourly-long' : 'monthly-consumption');
  const taken = new Set<number>(chosen === 'half-hourly-wide' ? (periods ?? []) : []);
  const columns: Record<string, number> = {};
  for (const field of IMPORT_FIELDS[chosen]) {
    let best = -1;
    let bestScore = 0;
    header.forEach((h, i) => {
      if (taken.has(i)) return;
      const s = score(h, field.name, chosen);
      if (s > bestScore) {
        best = i;
        bestScore = s;
      }
    });
    if (best >= 0) {
      columns[field.name] = best;
      taken.add(best);
    }
  }
  if (chosen === 'monthly-consumption' && columns.month !== undefined) {
    // A month column makes the bill period unnecessary.
    for (const f of ['periodStart', 'periodEnd']) {
      const c = columns[f];
      if (c !== undefined) taken.delete(c);
      delete columns[f];
    }
  }
  const dateColumn = columns.month ?? columns.periodStart ?? columns.date ?? columns.timestamp;
  const dateFormat = guessDateFormat(dateColumn === undefined ? [] : samples.map((r) => r[dateColumn] ?? ''));
  const mapping: ImportMapping = {
    type: chosen,
    columns,
    ...(chosen === 'half-hourly-wide' ? { periodColumns: periods ?? [] } : {}),
    dateFormat,
  };
  return { mapping, unusedColumns: header.map((_, i) => i).filter((i) => !taken.has(i)) };
}

/**
 * The header of a file's first rows: a header merged across columns over a second header row (as XLSX
 * files group "Half-hourly kWh" over 00:00 … 23:30) is read as one, each column named by both.
 */
export function headerOf(rows: readonly (readonly string[])[]): { header: string[]; headerRows: number } {
  const first = (rows[0] ?? []).map((h) => h.trim());
  const second = rows[1]?.map((h) => h.trim());
  const repeats = first.some((h, i) => h !== '' && i > 0 && first[i - 1] === h);
  const headerLike = (row: readonly string[]) =>
    row.some((h) => h !== '') &&
    row.every((h) => h === '' || parseNumber(h) === undefined || periodOf(h) !== undefined);
  if (repeats && second && headerLike(second)) {
    const width = Math.max(first.length, second.length);
    const header = Array.from({ length: width }, (_, i) => {
      const top = first[i] ?? '';
      const sub = second[i] ?? '';
      if (!sub) return top;
      if (!top || top === sub) return sub;
      return periodOf(sub) !== undefined ? sub : `${top} ${sub}`;
    });
    return { header, headerRows: 2 };
  }
  return { header: first, headerRows: 1 };
}

/** A row that cannot be used, with the field that says why. */
export interface RowError {
  field: string;
  reason: string;
}

export interface MonthPart {
  month: string;
  consumption: number;
  cost: number;
}

export type MappedRow =
  | { kind: 'monthly'; meter: string; key: string; parts: MonthPart[] }
  | { kind: 'day'; meter: string; key: string; date: string; values: (number | null)[] }
  | { kind: 'reading'; meter: string; key: string; date: string; period: number; value: number }
  | { kind: 'error'; meter?: string; error: RowError };

const cell = (fields: readonly string[], col: number | undefined) =>
  col === undefined ? '' : (fields[col] ?? '').trim();

const DAY_MS = 86_400_000;
const dayNo = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** A bill period's figures shared between its calendar months by days. */
function spreadOverMonths(start: string, end: string, consumption: number, cost: number): MonthPart[] {
  const from = dayNo(start);
  const to = dayNo(end);
  const days = to - from + 1;
  const byMonth = new Map<string, number>();
  for (let d = from; d <= to; d++) {
    const month = isoOf(d).slice(0, 7);
    byMonth.set(month, (byMonth.get(month) ?? 0) + 1);
  }
  return [...byMonth].map(([month, n]) => ({
    month,
    consumption: Math.round((consumption * n * 1000) / days) / 1000,
    cost: Math.round((cost * n * 100) / days) / 100,
  }));
}

const err = (field: string, reason: string, meter?: string): MappedRow => ({
  kind: 'error',
  ...(meter ? { meter } : {}),
  error: { field, reason },
});

/** What one data row says under a mapping. */
export function mapRow(fields: readonly string[], mapping: ImportMapping): MappedRow {
  const c = mapping.columns;
  const meter = cell(fields, c.meter);
  if (!meter) return err('meter', 'The meter is missing');
  const fmt: DateFormat = mapping.dateFormat;
  if (mapping.type === 'monthly-consumption') {
    const consumptionText = cell(fields, c.consumption);
    const consumption = parseNumber(consumptionText);
    if (consumption === undefined)
      return err(
        'consumption',
        consumptionText ? `${consumptionText} is not a number` : 'The consumption is missing',
        meter,
      );
    const costText = cell(fields, c.cost);
    const cost = costText === '' ? 0 : parseNumber(costText);
    if (cost === undefined) return err('cost', `${costText} is not an amount`, meter);
    if (c.month !== undefined) {
      const text = cell(fields, c.month);
      const month = parseMonth(text, fmt);
      if (!month) return err('month', text ? `${text} is not a month` : 'The month is missing', meter);
      return { kind: 'monthly', meter, key: `${meter}|${month}`, parts: [{ month, consumption, cost }] };
    }
    const startText = cell(fields, c.periodStart);
    const endText = cell(fields, c.periodEnd);
    const start = parseDate(startText, fmt);
    if (!start)
      return err(
        'periodStart',
        startText ? `${startText} is not a date` : 'The period start is missing',
        meter,
      );
    const end = parseDate(endText, fmt);
    if (!end)
      return err('periodEnd', endText ? `${endText} is not a date` : 'The period end is missing', meter);
    if (end < start) return err('periodEnd', 'The period ends before it starts', meter);
    if (dayNo(end) - dayNo(start) > 400) return err('periodEnd', 'A bill period longer than 400 days', meter);
    return {
      kind: 'monthly',
      meter,
      key: `${meter}|${start}|${end}`,
      parts: spreadOverMonths(start, end, consumption, cost),
    };
  }
  if (mapping.type === 'half-hourly-wide') {
    const dateText = cell(fields, c.date);
    const date = parseDate(dateText, fmt);
    if (!date) return err('date', dateText ? `${dateText} is not a date` : 'The date is missing', meter);
    const expected = settlementPeriods(date);
    const cols = mapping.periodColumns ?? [];
    const texts = cols.map((col) => cell(fields, col));
    let last = texts.length;
    while (last > 0 && texts[last - 1] === '') last--;
    if (last > expected)
      return err(
        'periodColumns',
        `${date} has ${expected} half hours, but the row has ${last} values`,
        meter,
      );
    // Made at its full length: grown by pushes, a day's array holds room for 76 values, and an import
    // keeps every day of the file until it is written.
    const values = new Array<number | null>(expected);
    for (let i = 0; i < expected; i++) {
      const t = texts[i] ?? '';
      if (t === '') {
        values[i] = null;
        continue;
      }
      const v = parseNumber(t);
      if (v === undefined) return err(`period${i + 1}`, `${t} is not a number (half hour ${i + 1})`, meter);
      values[i] = v;
    }
    if (cols.length < expected && last <= cols.length && expected > cols.length)
      return err(
        'periodColumns',
        `${date} has ${expected} half hours, but the file has ${cols.length} columns`,
        meter,
      );
    return { kind: 'day', meter, key: `${meter}|${date}`, date, values };
  }
  const stamp = cell(fields, c.timestamp);
  const date = parseDate(stamp, fmt);
  const time = parseTime(stamp);
  if (!date || !time)
    return err('timestamp', stamp ? `${stamp} is not a date and time` : 'The timestamp is missing', meter);
  const valueText = cell(fields, c.value);
  const value = parseNumber(valueText);
  if (value === undefined)
    return err('value', valueText ? `${valueText} is not a number` : 'The value is missing', meter);
  const at = periodAt(date, time);
  if (!at) return err('timestamp', `${stamp} is not the start of a half hour`, meter);
  return {
    kind: 'reading',
    meter,
    key: `${meter}|${at.date}|${at.period}`,
    date: at.date,
    period: at.period,
    value,
  };
}

const HALF_HOUR = 1_800_000;

/**
 * The local day and 0-based settlement period a timestamp starts. With an offset it is exact; a local
 * time on the day clocks go back names the first (BST) 01:00–01:59; the second is written with +00:00.
 */
export function periodAt(
  date: string,
  time: { minutes: number; offsetMinutes?: number },
): { date: string; period: number } | undefined {
  if (time.minutes % 30 !== 0) return undefined;
  if (time.offsetMinutes !== undefined) {
    const utc = Date.parse(`${date}T00:00:00Z`) + (time.minutes - time.offsetMinutes) * 60_000;
    for (const d of [isoOf(dayNo(date) - 1), date, isoOf(dayNo(date) + 1)]) {
      const starts = settlementPeriodStarts(d);
      const first = Date.parse(starts[0]?.utcStart ?? '');
      const i = (utc - first) / HALF_HOUR;
      if (i >= 0 && i < starts.length) return { date: d, period: i };
    }
    return undefined;
  }
  const hh = `${String(Math.floor(time.minutes / 60)).padStart(2, '0')}:${String(time.minutes % 60).padStart(2, '0')}`;
  const i = settlementPeriodStarts(date).findIndex((s) => s.localStart.slice(11, 16) === hh);
  return i >= 0 ? { date, period: i } : undefined;
}
