import { type ReportCell, type ReportDocument, tablesOf } from './report-document.ts';
import { writeXlsx } from './xlsx.ts';

const csvCell = (value: ReportCell): string => {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  // Quoted when it holds a separator, a quote or a line break; a leading formula character is defused.
  const text = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** Every table of the report, one block each under its title, a blank line between blocks. */
export function reportCsv(doc: ReportDocument): Uint8Array {
  const blocks = tablesOf(doc).map((t) =>
    [
      csvCell(t.title),
      t.columns.map((c) => csvCell(c.header)).join(','),
      ...[...t.rows, ...(t.total ? [t.total] : [])].map((r) => r.map(csvCell).join(',')),
    ].join('\r\n'),
  );
  return new TextEncoder().encode(`${blocks.join('\r\n\r\n')}\r\n`);
}

/** One sheet per table of the report, its figures as number cells. */
export function reportXlsx(doc: ReportDocument): Uint8Array {
  const sheets = tablesOf(doc).map((t) => ({
    name: t.name,
    header: t.columns.map((c) => c.header),
    rows: [...t.rows, ...(t.total ? [t.total] : [])],
  }));
  if (sheets.length === 0) sheets.push({ name: 'Report', header: [doc.title], rows: [] });
  return writeXlsx(sheets, { modified: doc.dataDate });
}
