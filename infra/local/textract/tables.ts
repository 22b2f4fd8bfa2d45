import type { BoundingBox } from '../../../shared/capture/textract.ts';
import type { Row } from './layout.ts';
import { lineBox, type TextLine, type TextWord } from './page-text.ts';

export interface TableCell {
  /** 1-based, as Textract counts. */
  row: number;
  column: number;
  words: TextWord[];
  box: BoundingBox;
  header: boolean;
}

export interface Table {
  rowCount: number;
  columnCount: number;
  /** Every cell, empty ones too, row by row. */
  cells: TableCell[];
  box: BoundingBox;
  /** The first row names the columns (text over columns that hold numbers further down). */
  hasHeader: boolean;
  /** The lines the table took, so that they are not read as form fields as well. */
  lines: Set<TextLine>;
}

interface Span {
  left: number;
  right: number;
}

/** A table starts at a row of at least this many separate lines (a label and a value are not a table). */
const MIN_START_COLUMNS = 3;
/** Rows further apart than this many text heights end the table. */
const MAX_ROW_GAP_IN_HEIGHTS = 2.5;

const NUMBER = /^[(-]?[£$€]?\s?-?\d[\d,]*(\.\d+)?\)?\s?(%|[a-z/]{1,6})?$/i;
export const isNumeric = (text: string) => NUMBER.test(text.trim());

const spanOf = (line: TextLine): Span => {
  const box = lineBox(line);
  return { left: box.Left, right: box.Left + box.Width };
};
const overlaps = (a: Span, b: Span) => Math.min(a.right, b.right) > Math.max(a.left, b.left);
const rowHeight = (row: Row) => Math.max(...row.lines.map((l) => lineBox(l).Height));

/**
 * Tables of the simple kind invoices print: rows of separate lines whose horizontal extents line up
 * in columns. A table starts at a row of at least three lines and takes each following row (close
 * below, two or more lines) whose every line falls within exactly one column. A line that straddles
 * two columns, or falls between them, ends the table. No ruling lines, merged or multi-line cells.
 */
export function findTables(rows: readonly Row[]): Table[] {
  const tables: Table[] = [];
  let i = 0;
  while (i < rows.length) {
    const start = rows[i];
    if (!start || start.lines.length < MIN_START_COLUMNS) {
      i++;
      continue;
    }
    let columns = start.lines.map(spanOf);
    const taken: { row: Row; cells: TextLine[][] }[] = [{ row: start, cells: start.lines.map((l) => [l]) }];
    let j = i + 1;
    for (; j < rows.length; j++) {
      const row = rows[j];
      const above = rows[j - 1];
      if (!row || !above) break;
      if (row.top - above.bottom > MAX_ROW_GAP_IN_HEIGHTS * rowHeight(above)) break;
      const fitted = fitRow(row, columns);
      if (!fitted) break;
      columns = fitted.columns;
      taken.push({ row, cells: fitted.cells });
    }
    if (taken.length >= 2) {
      tables.push(tableOf(taken, columns));
      i = j;
    } else i++;
  }
  return tables;
}

function fitRow(row: Row, columns: readonly Span[]): { columns: Span[]; cells: TextLine[][] } | undefined {
  const cells: TextLine[][] = columns.map(() => []);
  const widened = columns.map((c) => ({ ...c }));
  for (const line of row.lines) {
    const span = spanOf(line);
    const hits = columns.flatMap((c, k) => (overlaps(c, span) ? [k] : []));
    const k = hits[0];
    if (hits.length !== 1 || k === undefined) return undefined;
    cells[k]?.push(line);
    const column = widened[k];
    if (column) {
      column.left = Math.min(column.left, span.left);
      column.right = Math.max(column.right, span.right);
    }
  }
  if (cells.filter((c) => c.length > 0).length < 2) return undefined;
  for (let k = 1; k < widened.length; k++) {
    const left = widened[k - 1];
    const right = widened[k];
    if (left && right && left.right >= right.left) return undefined;
  }
  return { columns: widened, cells };
}

/** Cells tile the table: boundaries fall halfway between neighbouring columns and rows. */
function tableOf(taken: { row: Row; cells: TextLine[][] }[], columns: Span[]): Table {
  const colEdges = columns.map((c, k) => ({
    left: k === 0 ? c.left : ((columns[k - 1]?.right ?? c.left) + c.left) / 2,
    right: k === columns.length - 1 ? c.right : (c.right + (columns[k + 1]?.left ?? c.right)) / 2,
  }));
  const rowEdges = taken.map(({ row }, r) => ({
    top: r === 0 ? row.top : ((taken[r - 1]?.row.bottom ?? row.top) + row.top) / 2,
    bottom: r === taken.length - 1 ? row.bottom : (row.bottom + (taken[r + 1]?.row.top ?? row.bottom)) / 2,
  }));
  const texts = taken.map(({ cells }) =>
    cells.map((lines) => lines.flatMap((l) => l.words).map((w) => w.text)),
  );
  const first = texts[0] ?? [];
  const hasHeader =
    first.filter((t) => t.length > 0).length >= 2 &&
    first.every((t) => t.length === 0 || !isNumeric(t.join(' '))) &&
    texts.slice(1).some((row) => row.some((t) => t.length > 0 && isNumeric(t.join(' '))));
  const cells: TableCell[] = [];
  taken.forEach(({ cells: lines }, r) => {
    const band = rowEdges[r] ?? { top: 0, bottom: 0 };
    lines.forEach((cellLines, k) => {
      const col = colEdges[k] ?? { left: 0, right: 0 };
      cells.push({
        row: r + 1,
        column: k + 1,
        words: cellLines.flatMap((l) => l.words),
        box: { Left: col.left, Top: band.top, Width: col.right - col.left, Height: band.bottom - band.top },
        header: hasHeader && r === 0,
      });
    });
  });
  const left = colEdges[0]?.left ?? 0;
  const right = colEdges.at(-1)?.right ?? 0;
  const top = rowEdges[0]?.top ?? 0;
  const bottom = rowEdges.at(-1)?.bottom ?? 0;
  return {
    rowCount: taken.length,
    columnCount: columns.length,
    cells,
    box: { Left: left, Top: top, Width: right - left, Height: bottom - top },
    hasHeader,
    lines: new Set(taken.flatMap(({ cells: c }) => c.flat())),
  };
}
