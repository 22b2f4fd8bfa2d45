import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv, toCsv } from '../../../shared/files/csv.ts';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

describe('the CSV reader', () => {
  it('reads quoted values with commas, doubled quotes and line breaks', () => {
    const text = 'name,notes\r\n"Smith, J","said ""hello""\r\nand left"\r\nplain,\r\n';
    expect(fields(text)).toEqual([
      ['name', 'notes'],
      ['Smith, J', 'said "hello"\r\nand left'],
      ['plain', ''],
    ]);
  });

  it('numbers records as a spreadsheet shows rows, even when a value spans lines', () => {
    const records = parseCsv('a\n"two\nlines"\n\nlast');
    expect(records.map((r) => [r.row, r.line])).toEqual([
      [1, 1],
      [2, 2],
      [4, 5],
    ]);
  });

  it('takes LF, CRLF and lone CR line ends, a byte-order mark, and no final line break', () => {
    expect(fields('\ufeffa,b\rc,d\ne,f\r\ng,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('keeps empty values, including a trailing one', () => {
    expect(fields(',x,\n')).toEqual([['', 'x', '']]);
  });

  it('refuses quoting it would have to guess at, naming the row', () => {
    expect(() => parseCsv('a\n"open\n')).toThrow(/Row 2: a quoted value opened on line 2 is never closed/);
    expect(() => parseCsv('a\nsay "hi"\n')).toThrow(CsvError);
    expect(() => parseCsv('a\n"closed"late\n')).toThrow(/unexpected text after a closing quote/);
  });

  it('writes what it reads back unchanged', () => {
    const rows = [
      ['siteName', 'notes'],
      ['A, B & C', 'He said "yes"\nthen left'],
      ['', 'x'],
    ];
    expect(fields(toCsv(rows))).toEqual(rows);
  });
});
