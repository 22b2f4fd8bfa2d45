import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { headerOf, mapRow, suggestMapping } from '../../../shared/imports/import-mapping.ts';
import { neutraliseCell, parseDate, parseMonth, parseNumber } from '../../../shared/imports/import-values.ts';
import { delimitedRecords, type TextRecord } from '../../../shared/imports/text-rows.ts';
import { openXlsx, readXlsx } from '../../../shared/imports/xlsx-rows.ts';
import { serialOf, xlsxOf } from '../../support/xlsx-fixture.ts';

async function rowsOf(chunks: Uint8Array[]) {
  const out: TextRecord[] = [];
  const facts: { encoding?: string; delimiter?: string } = {};
  for await (const batch of delimitedRecords(chunks, (encoding, delimiter) =>
    Object.assign(facts, { encoding, delimiter }),
  ))
    out.push(...batch);
  return { rows: out.map((r) => r.fields), facts };
}

/** Bytes split into chunks of `size`, as a stream hands them over. */
const chunked = (bytes: Uint8Array, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size));

/** Windows-1252 bytes of text whose characters are all in that code page (£ is 0xA3, é 0xE9). */
const cp1252 = (text: string) =>
  new Uint8Array([...text].map((c) => (c === '£' ? 0xa3 : c === 'é' ? 0xe9 : c.charCodeAt(0))));

describe('reading delimited files', () => {
  it('reads a Windows-1252 file with £ signs, semicolons and quoted values, cut at any byte', async () => {
    const text =
      'Meter;Month;kWh;Cost\r\n"Café; Aldgate";Jan-25;1200;£150.50\r\n1312345678907;02/2025;"1,300";£1,160.00\r\n';
    for (const size of [1, 3, 7, 1000]) {
      const { rows, facts } = await rowsOf(chunked(cp1252(text), size));
      expect(facts).toEqual({ encoding: 'windows-1252', delimiter: ';' });
      expect(rows).toEqual([
        ['Meter', 'Month', 'kWh', 'Cost'],
        ['Café; Aldgate', 'Jan-25', '1200', '£150.50'],
        ['1312345678907', '02/2025', '1,300', '£1,160.00'],
      ]);
    }
    expect(parseNumber('£1,160.00')).toBe(1160);
  });

  it('reads UTF-8 with a byte-order mark and tabs, a multi-byte £ split across chunks', async () => {
    const bytes = new TextEncoder().encode('\uFEFFMeter\tCost\nA\t£5\n');
    const { rows, facts } = await rowsOf(chunked(bytes, 1));
    expect(facts).toEqual({ encoding: 'utf-8', delimiter: '\t' });
    expect(rows).toEqual([
      ['Meter', 'Cost'],
      ['A', '£5'],
    ]);
  });

  it('refuses a quoted value that never closes', async () => {
    await expect(rowsOf([new TextEncoder().encode('a,b\n"x,1\n')])).rejects.toThrow(/never closed/);
  });
});

describe('refusing XLSX files that unpack to too much', () => {
  /** A small workbook with one of its parts replaced: it still opens as an XLSX file. */
  const withPart = (name: string, part: Uint8Array) => {
    const files = unzipSync(xlsxOf([{ name: 'Data', rows: [['MPAN', 'kWh']] }]));
    return zipSync({ ...files, [name]: part }, { level: 6 });
  };

  it('refuses a zip bomb whose shared strings unpack to over a thousand times the file', () => {
    const bomb = new Uint8Array(129 * 1024 * 1024).fill(0x20);
    const file = withPart('xl/sharedStrings.xml', bomb);
    expect(file.length).toBeLessThan(bomb.length / 500);
    expect(() => openXlsx(file)).toThrow(/unpacks to more than it could hold/);
  });

  it('refuses a sheet whose row never closes instead of holding it whole', () => {
    const head = '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>';
    const sheet = strToU8(head + 'x'.repeat(5 * 1024 * 1024));
    expect(() => readXlsx(withPart('xl/worksheets/sheet1.xml', sheet))).toThrow(
      /unpacks to more than it could hold/,
    );
  });
});

describe('reading XLSX workbooks', () => {
  it('reads the chosen sheet, dates as dates, and a merged header over the half-hour columns', () => {
    const halfHours = Array.from(
      { length: 48 },
      (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
    );
    const book = xlsxOf([
      { name: 'Notes', rows: [['Exported from the portal']] },
      {
        name: 'HH data',
        rows: [
          ['MPAN', 'Date', 'Half-hourly kWh', ...Array.from({ length: 47 }, () => null)],
          [null, null, ...halfHours],
          ['1312345678907', { date: serialOf('2025-01-06') }, ...halfHours.map((_, i) => i / 2)],
        ],
        merges: ['A1:A2', 'B1:B2', 'C1:AX1'],
      },
    ]);
    const sheet = readXlsx(book, 'HH data');
    expect(sheet.sheetNames).toEqual(['Notes', 'HH data']);
    const { header, headerRows } = headerOf(sheet.rows.map((r) => r.fields));
    expect(headerRows).toBe(2);
    expect(header.slice(0, 4)).toEqual(['MPAN', 'Date', '00:00', '00:30']);
    expect(sheet.rows[2]?.fields[1]).toBe('2025-01-06');
    const { mapping } = suggestMapping(header, [sheet.rows[2]?.fields ?? []]);
    expect(mapping.type).toBe('half-hourly-wide');
    expect(mapping.periodColumns).toHaveLength(48);
    const row = mapRow(sheet.rows[2]?.fields ?? [], mapping);
    expect(row).toMatchObject({ kind: 'day', date: '2025-01-06' });
    expect(row.kind === 'day' && row.values[47]).toBe(23.5);
    expect(readXlsx(book).sheetName).toBe('Notes');
  });

  it('reads a sheet of 50,000 rows as it inflates, holding only a batch of them at a time', () => {
    const rows = [
      ['MPAN', 'Month', 'kWh', 'Cost', 'Reading', 'Previous', 'Estimated', 'Days'],
      ...Array.from({ length: 50_000 }, (_, i) => [
        1312345678900 + (i % 2000),
        45000 + (i % 50),
        i * 1.5,
        i / 4,
        i + 1,
        i,
        i % 2,
        30,
      ]),
    ];
    const book = openXlsx(xlsxOf([{ name: 'Data', rows, merges: ['G1:H1'] }]));
    // A collection before each reading, so what is measured is what the reader still holds.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const base = process.memoryUsage().heapUsed;
    let held = 0;
    let read = 0;
    let largest = 0;
    let last: TextRecord | undefined;
    for (const batch of book.rows()) {
      read += batch.length;
      largest = Math.max(largest, batch.length);
      last = batch.at(-1);
      gc();
      held = Math.max(held, process.memoryUsage().heapUsed - base);
    }
    expect(read).toBe(50_001);
    expect(last).toEqual({
      row: 50_001,
      fields: ['1312345680899', '45049', '74998.5', '12499.75', '50000', '49999', '1', '30'],
    });
    expect(largest).toBeLessThanOrEqual(2000);
    // The whole sheet as rows is about 35 MB of strings; a batch and the unzipping are a few.
    expect(held).toBeLessThan(12 * 1024 * 1024);
  }, 120_000);

  it('refuses a zip that is not a workbook', () => {
    expect(() => readXlsx(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]))).toThrow(/not a readable spreadsheet/);
  });
});

describe('values and mapping', () => {
  it('reads dates day first unless told otherwise, and refuses impossible ones', () => {
    expect(parseDate('03/04/2025')).toBe('2025-04-03');
    expect(parseDate('03/04/2025', 'MDY')).toBe('2025-03-04');
    expect(parseDate('31/02/2025')).toBeUndefined();
    expect(parseMonth('January 2025')).toBe('2025-01');
    expect(parseMonth('2025-13')).toBeUndefined();
  });

  it('suggests the long layout and its columns from header names', () => {
    const { mapping } = suggestMapping(
      ['MPAN', 'Timestamp', 'kWh'],
      [['1312345678907', '26/10/2025 01:00', '1.5']],
    );
    expect(mapping).toMatchObject({
      type: 'half-hourly-long',
      columns: { meter: 0, timestamp: 1, value: 2 },
      dateFormat: 'DMY',
    });
  });

  it('takes a wide row of 46 values on the day clocks go forward and refuses 48', () => {
    const header = ['MPAN', 'Date', ...Array.from({ length: 50 }, (_, i) => `HH${i + 1}`)];
    const { mapping } = suggestMapping(header, []);
    const short = mapRow(['m', '30/03/2025', ...Array.from({ length: 46 }, () => '1')], mapping);
    expect(short.kind === 'day' && short.values).toHaveLength(46);
    const wrong = mapRow(['m', '30/03/2025', ...Array.from({ length: 48 }, () => '1')], mapping);
    expect(wrong).toMatchObject({ kind: 'error', error: { field: 'periodColumns' } });
    const long = mapRow(['m', '26/10/2025', ...Array.from({ length: 50 }, () => '1')], mapping);
    expect(long.kind === 'day' && long.values).toHaveLength(50);
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(['=1+1', '+44 20', '-2', '@SUM(A1)', 'plain'].map(neutraliseCell)).toEqual([
      "'=1+1",
      "'+44 20",
      "'-2",
      "'@SUM(A1)",
      'plain',
    ]);
  });
});
