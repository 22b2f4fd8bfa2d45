/**
 * A CSV reader for RFC 4180 files as spreadsheets write them: comma-separated fields, records ended by
 * CRLF (LF or a lone CR are accepted too), fields in double quotes may hold commas, line breaks and
 * doubled quotes (""). A byte-order mark at the start is dropped. Malformed quoting is an error naming
 * the record, never a silent guess: a guess would put values in the wrong columns.
 */

export interface CsvRecord {
  /** 1-based position of the record in the file, the header being 1: the row a spreadsheet shows. */
  row: number;
  /** The line the record starts on (differs from `row` when quoted fields span lines). */
  line: number;
  fields: string[];
}

export class CsvError extends Error {
  readonly row: number;
  readonly line: number;
  constructor(message: string, row: number, line: number) {
    super(message);
    this.name = 'CsvError';
    this.row = row;
    this.line = line;
  }
}

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

/**
 * Every record of the text, in order. Blank lines (one empty field) are left out but still counted, so
 * row numbers keep matching the file.
 */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let row = 1;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  // Whether the current field has begun (a quote may only open a field, never appear inside one).
  let fieldStarted = false;

  const endField = () => {
    fields.push(field);
    field = '';
    fieldStarted = false;
  };
  const endRecord = () => {
    endField();
    if (!(fields.length === 1 && fields[0] === '')) records.push({ row, line: recordLine, fields });
    fields = [];
    row++;
  };

  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c === QUOTE && !fieldStarted) {
      // A quoted field: read to its closing quote.
      fieldStarted = true;
      const openedOn = line;
      i++;
      for (;;) {
        if (i >= src.length)
          throw new CsvError(
            `Row ${row}: a quoted value opened on line ${openedOn} is never closed`,
            row,
            line,
          );
        const q = src.charCodeAt(i);
        if (q === QUOTE) {
          if (src.charCodeAt(i + 1) === QUOTE) {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === LF || (q === CR && src.charCodeAt(i + 1) !== LF)) line++;
        field += src[i];
        i++;
      }
      const next = src.charCodeAt(i);
      if (i < src.length && next !== COMMA && next !== CR && next !== LF)
        throw new CsvError(`Row ${row}: unexpected text after a closing quote on line ${line}`, row, line);
      continue;
    }
    if (c === COMMA) {
      endField();
      i++;
      continue;
    }
    if (c === CR || c === LF) {
      i += c === CR && src.charCodeAt(i + 1) === LF ? 2 : 1;
      endRecord();
      line++;
      recordLine = line;
      continue;
    }
    if (c === QUOTE)
      throw new CsvError(
        `Row ${row}: a quote inside an unquoted value on line ${line} (put the value in quotes and double the quote)`,
        row,
        line,
      );
    fieldStarted = true;
    field += src[i];
    i++;
  }
  // The last record, unless the file ended with a line break.
  if (fieldStarted || fields.length > 0) endRecord();
  return records;
}

/** One value as a CSV field: quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Records as CSV text with CRLF line ends, as RFC 4180 writes them. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}
