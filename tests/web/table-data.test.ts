import { describe, expect, it } from 'vitest';
import { csvCell, pageOf, sortRows, type TableColumn, toCsv } from '../../web/components/table-data.ts';

interface Row {
  name: string;
  total?: number;
}
const name: TableColumn<Row> = { key: 'name', label: 'Name', value: (r) => r.name };
const total: TableColumn<Row> = { key: 'total', label: 'Total', value: (r) => r.total };
const rows: Row[] = [{ name: 'Site 10', total: 5 }, { name: 'Site 2' }, { name: 'site 1', total: -3 }];

describe('the data table', () => {
  it('sorts text naturally and numbers by value, with empty cells last both ways', () => {
    expect(sortRows(rows, name, 'asc').map((r) => r.name)).toEqual(['site 1', 'Site 2', 'Site 10']);
    expect(sortRows(rows, total, 'asc').map((r) => r.name)).toEqual(['site 1', 'Site 10', 'Site 2']);
    expect(sortRows(rows, total, 'desc').map((r) => r.name)).toEqual(['Site 10', 'site 1', 'Site 2']);
  });

  it('pages rows and keeps the page in range', () => {
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual({ rows: [3, 4], pages: 3 });
    expect(pageOf([1, 2, 3], 9, 2)).toEqual({ rows: [3], pages: 2 });
    expect(pageOf([], 1, 10)).toEqual({ rows: [], pages: 1 });
  });

  it('exports CSV cells a spreadsheet cannot run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(['+1', '-2', '@SUM(A1)', '\tx'].map(csvCell)).toEqual(["'+1", "'-2", "'@SUM(A1)", "'\tx"]);
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell(undefined)).toBe('');
  });

  it('exports a header and one line per row', () => {
    expect(toCsv(rows.slice(0, 2), [name, total])).toBe('Name,Total\r\nSite 10,5\r\nSite 2,\r\n');
  });

  it('leaves a column of row actions out of the export, rather than as an empty column', () => {
    const actions: TableColumn<Row> = { key: 'actions', label: '', value: () => '', csv: false };
    expect(toCsv(rows.slice(0, 1), [name, actions, total])).toBe('Name,Total\r\nSite 10,5\r\n');
  });
});
