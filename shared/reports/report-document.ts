/**
 * A report as its formats share it: sections of paragraphs, key figures, charts and tables. The PDF draws
 * all of it; the workbook and the CSV carry its tables, one sheet (or block) each.
 */

/** A table cell: numbers stay numbers (a spreadsheet sums them); null is an empty cell. */
export type ReportCell = string | number | null;

export interface ReportColumn {
  header: string;
  /** How a number is shown in the PDF: its decimal places, or a percentage. */
  format?: 'text' | 'number' | 'percent';
  places?: number;
  /** The share of the page's width this column takes, relative to the others; 1 unless given. */
  width?: number;
}

export interface ReportTable {
  /** The sheet's name in the workbook. */
  name: string;
  title: string;
  columns: readonly ReportColumn[];
  rows: readonly (readonly ReportCell[])[];
  /** A last row set apart (bold) in the PDF, written as a row in the workbook. */
  total?: readonly ReportCell[];
}

export interface ReportBar {
  label: string;
  /** One value per series. */
  values: readonly number[];
}

export interface ReportChart {
  title: string;
  unit: string;
  series: readonly string[];
  bars: readonly ReportBar[];
}

export type ReportBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'figures'; items: readonly { label: string; value: string }[] }
  | { kind: 'chart'; chart: ReportChart }
  | { kind: 'table'; table: ReportTable };

export interface ReportSection {
  heading: string;
  blocks: readonly ReportBlock[];
}

export interface ReportDocument {
  title: string;
  subtitle: string;
  companyName: string;
  /** The reporting period as words, e.g. "1 January 2025 to 31 December 2025". */
  periodLabel: string;
  /** The factor sets the emissions were worked out with. */
  factorSets: readonly string[];
  /** When the data the report shows was as it is: the documents are dated with it, never with the clock. */
  dataDate: Date;
  /** The company's logo, a PNG, on the cover when it has one. */
  logoPng?: Uint8Array;
  sections: readonly ReportSection[];
}

/** Every table of a document, in order: the workbook's sheets and the CSV's blocks. */
export function tablesOf(doc: ReportDocument): ReportTable[] {
  return doc.sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'table' ? [b.table] : [])));
}

/** A cell as the PDF shows it: numbers grouped by thousands at the column's places. */
export function cellText(value: ReportCell, column: ReportColumn | undefined): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return '';
  if (column?.format === 'percent') return `${formatNumber(value * 100, column.places ?? 1)}%`;
  return formatNumber(value, column?.places ?? 0);
}

/** A number grouped by thousands with a fixed count of decimals, the same wherever it is written. */
export function formatNumber(value: number, places = 0): string {
  const fixed = Math.abs(value).toFixed(places);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const negative = value < 0 && Number(fixed) !== 0;
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
