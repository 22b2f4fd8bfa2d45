import type {
  Block,
  BoundingBox,
  DocumentAnalysis,
  ExpenseAnalysis,
  ExpenseField,
  TextractOutput,
} from '../../../shared/capture/textract.ts';
import { mpanCheckDigit } from '../../../shared/domain/mpan.ts';

/**
 * Textract-shaped documents for tests: lines of words at given positions on a page, tables and
 * key-value pairs, built into the blocks AnalyzeDocument returns.
 */

export const CHAR = 0.007;
export const HEIGHT = 0.012;

export interface Line {
  text: string;
  x: number;
  y: number;
  confidence?: number;
  /** How far each word drops per unit of width (a skewed scan). */
  slope?: number;
}

export interface TableSpec {
  /** Left edge of each column. */
  columns: number[];
  y: number;
  rowHeight?: number;
  rows: string[][];
  /** The first row is a header. */
  header?: boolean;
}

export interface PageSpec {
  lines: Line[];
  tables?: TableSpec[];
  keyValues?: { key: Line; value: Line }[];
}

/** A line of text whose first word starts at (x, y). */
export const at = (x: number, y: number, text: string, confidence?: number): Line => ({
  text,
  x,
  y,
  ...(confidence !== undefined ? { confidence } : {}),
});

/** Several separate lines on one row, as Textract splits columns: row(0.2, [0.1, 'Label'], [0.5, 'Value']). */
export const row = (y: number, ...cells: [number, string][]): Line[] =>
  cells.map(([x, text]) => at(x, y, text));

/** A valid MPAN core from its first 12 digits. */
export const mpan = (first12: string): string => `${first12}${mpanCheckDigit(first12)}`;

class Ids {
  private n = 0;
  next(prefix: string): string {
    this.n += 1;
    return `${prefix}-${this.n}`;
  }
}

function box(left: number, top: number, width: number, height = HEIGHT): BoundingBox {
  return { Left: left, Top: top, Width: width, Height: height };
}

function lineBlocks(
  line: Line,
  page: number,
  ids: Ids,
  blocks: Block[],
): { lineId: string; wordIds: string[] } {
  const words = line.text.split(/\s+/).filter(Boolean);
  const wordIds: string[] = [];
  let x = line.x;
  for (const text of words) {
    const id = ids.next('w');
    wordIds.push(id);
    blocks.push({
      Id: id,
      BlockType: 'WORD',
      Page: page,
      Text: text,
      Confidence: line.confidence ?? 99,
      TextType: 'PRINTED',
      Geometry: { BoundingBox: box(x, line.y + (line.slope ?? 0) * (x - line.x), text.length * CHAR) },
    });
    x += (text.length + 1) * CHAR;
  }
  const lineId = ids.next('l');
  blocks.push({
    Id: lineId,
    BlockType: 'LINE',
    Page: page,
    Text: words.join(' '),
    Confidence: line.confidence ?? 99,
    Geometry: { BoundingBox: box(line.x, line.y, Math.max(0, x - line.x - CHAR)) },
    Relationships: [{ Type: 'CHILD', Ids: wordIds }],
  });
  return { lineId, wordIds };
}

/** The AnalyzeDocument response of the pages. */
export function analysis(
  pages: (Line[] | PageSpec)[],
  options: { omitPage?: boolean } = {},
): DocumentAnalysis {
  const ids = new Ids();
  const blocks: Block[] = [];
  pages.forEach((spec, i) => {
    const page = i + 1;
    const { lines, tables = [], keyValues = [] } = Array.isArray(spec) ? { lines: spec } : spec;
    const pageBlock: Block = { Id: ids.next('p'), BlockType: 'PAGE', Page: page, Relationships: [] };
    const pageBlocks: Block[] = [];
    const children: string[] = [];
    for (const line of lines) children.push(lineBlocks(line, page, ids, pageBlocks).lineId);
    for (const table of tables) {
      const height = table.rowHeight ?? 0.02;
      const cellIds: string[] = [];
      table.rows.forEach((cells, r) => {
        cells.forEach((text, c) => {
          const left = table.columns[c] ?? 0;
          const right = table.columns[c + 1] ?? 0.95;
          const top = table.y + r * height;
          const { lineId, wordIds } = text
            ? lineBlocks(at(left + 0.002, top + 0.004, text), page, ids, pageBlocks)
            : { lineId: undefined, wordIds: [] };
          if (lineId) children.push(lineId);
          const cellId = ids.next('c');
          cellIds.push(cellId);
          pageBlocks.push({
            Id: cellId,
            BlockType: 'CELL',
            Page: page,
            RowIndex: r + 1,
            ColumnIndex: c + 1,
            RowSpan: 1,
            ColumnSpan: 1,
            Confidence: 95,
            ...(table.header && r === 0 ? { EntityTypes: ['COLUMN_HEADER'] } : {}),
            Geometry: { BoundingBox: box(left, top, right - left, height) },
            Relationships: wordIds.length > 0 ? [{ Type: 'CHILD', Ids: wordIds }] : [],
          });
        });
      });
      const tableId = ids.next('t');
      children.push(tableId);
      const first = table.columns[0] ?? 0;
      pageBlocks.push({
        Id: tableId,
        BlockType: 'TABLE',
        Page: page,
        Confidence: 95,
        Geometry: { BoundingBox: box(first, table.y, 0.95 - first, height * table.rows.length) },
        Relationships: [{ Type: 'CHILD', Ids: cellIds }],
      });
    }
    for (const pair of keyValues) {
      const key = lineBlocks(pair.key, page, ids, pageBlocks);
      const value = lineBlocks(pair.value, page, ids, pageBlocks);
      children.push(key.lineId, value.lineId);
      const valueId = ids.next('v');
      const keyId = ids.next('k');
      pageBlocks.push(
        {
          Id: keyId,
          BlockType: 'KEY_VALUE_SET',
          Page: page,
          EntityTypes: ['KEY'],
          Confidence: 90,
          Relationships: [
            { Type: 'VALUE', Ids: [valueId] },
            { Type: 'CHILD', Ids: key.wordIds },
          ],
        },
        {
          Id: valueId,
          BlockType: 'KEY_VALUE_SET',
          Page: page,
          EntityTypes: ['VALUE'],
          Confidence: 90,
          Relationships: [{ Type: 'CHILD', Ids: value.wordIds }],
        },
      );
    }
    pageBlock.Relationships = [{ Type: 'CHILD', Ids: children }];
    blocks.push(pageBlock, ...pageBlocks);
  });
  const stripped = options.omitPage ? blocks.map(({ Page: _page, ...rest }) => rest) : blocks;
  return { DocumentMetadata: { Pages: pages.length }, Blocks: stripped };
}

export function output(
  pages: (Line[] | PageSpec)[],
  extras: { expense?: ExpenseAnalysis; ocr?: boolean } = {},
): TextractOutput {
  return { document: analysis(pages), ...extras };
}

/** An AnalyzeExpense summary field. */
export function summaryField(type: string, text: string, page = 1, confidence = 95): ExpenseField {
  return {
    Type: { Text: type, Confidence: confidence },
    ValueDetection: { Text: text, Confidence: confidence, Geometry: { BoundingBox: box(0.5, 0.5, 0.1) } },
    PageNumber: page,
  };
}

export function expense(fields: ExpenseField[], pages = 1): ExpenseAnalysis {
  return {
    DocumentMetadata: { Pages: pages },
    ExpenseDocuments: [{ ExpenseIndex: 1, SummaryFields: fields }],
  };
}
