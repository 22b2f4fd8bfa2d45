import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { columnName, sheetNames, writeXlsx } from '../../shared/reports/xlsx.ts';
import { toCsv } from '../../web/components/table-data.ts';

const cellsOf = (xml: string) =>
  [
    ...xml.matchAll(
      /<c r="([A-Z]+\d+)"( t="inlineStr")?>(?:<v>([^<]*)<\/v>|<is><t[^>]*>([^<]*)<\/t><\/is>)<\/c>/g,
    ),
  ].map((m) => ({ ref: m[1], type: m[2] ? 'text' : 'number', value: m[3] ?? m[4] }));

describe('the XLSX writer', () => {
  const bytes = writeXlsx([
    {
      name: 'Sites',
      header: ['Site', 'Emissions (kg CO₂e)', 'Share (%)'],
      rows: [
        ['Temple Quay Point', 1234.5, 61.7],
        ['Aldgate <House> & Co', 765.25, null],
      ],
    },
    { name: 'Periods', header: ['Period', 'Electricity'], rows: [['Jan 2025', 10]] },
  ]);
  const files = unzipSync(bytes);

  it('is a zip holding a workbook with one sheet per table', () => {
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ]);
    const workbook = strFromU8(files['xl/workbook.xml'] as Uint8Array);
    expect([...workbook.matchAll(/<sheet name="([^"]+)"/g)].map((m) => m[1])).toEqual(['Sites', 'Periods']);
    expect(strFromU8(files['[Content_Types].xml'] as Uint8Array)).toContain('/xl/worksheets/sheet2.xml');
  });

  it('writes the header as text in the first row and figures as number cells', () => {
    const cells = cellsOf(strFromU8(files['xl/worksheets/sheet1.xml'] as Uint8Array));
    expect(cells).toEqual([
      { ref: 'A1', type: 'text', value: 'Site' },
      { ref: 'B1', type: 'text', value: 'Emissions (kg CO₂e)' },
      { ref: 'C1', type: 'text', value: 'Share (%)' },
      { ref: 'A2', type: 'text', value: 'Temple Quay Point' },
      { ref: 'B2', type: 'number', value: '1234.5' },
      { ref: 'C2', type: 'number', value: '61.7' },
      { ref: 'A3', type: 'text', value: 'Aldgate &lt;House&gt; &amp; Co' },
      { ref: 'B3', type: 'number', value: '765.25' },
    ]);
  });

  it('names columns past Z and keeps sheet names legal and unique', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
    expect(sheetNames(['Sites', 'sites', 'a/b:c', '', 'x'.repeat(40)])).toEqual([
      'Sites',
      'sites (2)',
      'a b c',
      'Sheet4',
      'x'.repeat(31),
    ]);
  });
});

describe('the CSV of the top sites', () => {
  it('quotes names with commas and quotes, and defuses text a spreadsheet would run', () => {
    const rows = [
      { site: 'Temple Quay, Bristol', value: 12.5 },
      { site: 'The "Gherkin"', value: 3 },
      { site: '=HYPERLINK("x")', value: -1 },
    ];
    const csv = toCsv(rows, [
      { key: 'site', label: 'Site', value: (r) => r.site },
      { key: 'value', label: 'Emissions (kg CO₂e)', value: (r) => r.value },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Site,Emissions (kg CO₂e)',
      '"Temple Quay, Bristol",12.5',
      '"The ""Gherkin""",3',
      `"'=HYPERLINK(""x"")",-1`,
      '',
    ]);
  });
});
