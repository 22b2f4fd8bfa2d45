import { randomUUID } from 'node:crypto';
import type { Block, BoundingBox, Geometry } from '../../../shared/capture/textract.ts';
import { findPairs } from './forms.ts';
import { type Row, rowsOf } from './layout.ts';
import {
  boxPolygon,
  type DocumentText,
  lineBox,
  lineConfidence,
  lineText,
  type PageText,
  type TextLine,
  type TextWord,
  unionBox,
} from './page-text.ts';
import { findTables, type Table } from './tables.ts';

export interface Features {
  tables: boolean;
  forms: boolean;
}

/** What the analyses of one page share: its rows, and the tables found on them. */
export interface PageLayout {
  page: PageText;
  /** 1-based */
  number: number;
  rows: Row[];
  tables: Table[];
}

export function layoutOf(doc: DocumentText): PageLayout[] {
  return doc.pages.map((page, i) => {
    const rows = rowsOf(page.lines);
    return { page, number: i + 1, rows, tables: findTables(rows) };
  });
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;
const roundBox = (b: BoundingBox): BoundingBox => ({
  Width: round(b.Width),
  Height: round(b.Height),
  Left: round(b.Left),
  Top: round(b.Top),
});
export const geometry = (box: BoundingBox, polygon = boxPolygon(box)): Geometry => ({
  BoundingBox: roundBox(box),
  Polygon: polygon.map((p) => ({ X: round(p.X), Y: round(p.Y) })),
});
export const confidenceOf = (words: readonly TextWord[]) =>
  Math.round((words.reduce((s, w) => s + w.confidence, 0) / Math.max(1, words.length)) * 1000) / 1000;

/**
 * Textract's blocks for a document: per page a PAGE, its LINEs and their WORDs, and with the features
 * asked for, TABLEs of CELLs and KEY_VALUE_SET pairs. Words keep one Id wherever they are referred to.
 */
export function documentBlocks(layouts: readonly PageLayout[], features: Features): Block[] {
  return layouts.flatMap((layout) => pageBlocks(layout, features));
}

export function pageBlocks(layout: PageLayout, features: Features): Block[] {
  const { page, number: Page } = layout;
  const wordIds = new Map<TextWord, string>();
  const idOf = (w: TextWord) => wordIds.get(w) ?? '';
  const lines: Block[] = [];
  const words: Block[] = [];
  for (const line of page.lines) {
    const ids = line.words.map((w) => {
      const Id = randomUUID();
      wordIds.set(w, Id);
      words.push({
        BlockType: 'WORD',
        Confidence: w.confidence,
        Text: w.text,
        TextType: 'PRINTED',
        Geometry: geometry(w.box, w.polygon),
        Id,
        Page,
      });
      return Id;
    });
    lines.push({
      BlockType: 'LINE',
      Confidence: Math.round(lineConfidence(line) * 1000) / 1000,
      Text: lineText(line),
      Geometry: geometry(lineBox(line)),
      Id: randomUUID(),
      Relationships: [{ Type: 'CHILD', Ids: ids }],
      Page,
    });
  }
  const extra: Block[] = [];
  if (features.tables) {
    for (const table of layout.tables) extra.push(...tableBlocks(table, Page, idOf));
  }
  if (features.forms) {
    const inTables = new Set<TextLine>(layout.tables.flatMap((t) => [...t.lines]));
    for (const pair of findPairs(layout.rows, inTables)) {
      const valueId = randomUUID();
      const keyBox = unionBox(pair.key.map((w) => w.box));
      const valueBox = unionBox(pair.value.map((w) => w.box));
      extra.push(
        {
          BlockType: 'KEY_VALUE_SET',
          Confidence: confidenceOf(pair.key),
          Geometry: geometry(keyBox),
          Id: randomUUID(),
          Relationships: [
            { Type: 'VALUE', Ids: [valueId] },
            { Type: 'CHILD', Ids: pair.key.map(idOf) },
          ],
          EntityTypes: ['KEY'],
          Page,
        },
        {
          BlockType: 'KEY_VALUE_SET',
          Confidence: confidenceOf(pair.value.length > 0 ? pair.value : pair.key),
          Geometry: geometry(valueBox),
          Id: valueId,
          ...(pair.value.length > 0 ? { Relationships: [{ Type: 'CHILD', Ids: pair.value.map(idOf) }] } : {}),
          EntityTypes: ['VALUE'],
          Page,
        },
      );
    }
  }
  const children = [
    ...lines,
    ...extra.filter((b) => b.BlockType === 'TABLE' || b.EntityTypes?.[0] === 'KEY'),
  ];
  const pageBlock: Block = {
    BlockType: 'PAGE',
    Geometry: geometry({ Left: 0, Top: 0, Width: 1, Height: 1 }),
    Id: randomUUID(),
    Relationships: [{ Type: 'CHILD', Ids: children.map((b) => b.Id) }],
    Page,
  };
  return [pageBlock, ...lines, ...words, ...extra];
}

function tableBlocks(table: Table, Page: number, idOf: (w: TextWord) => string): Block[] {
  const cells: Block[] = table.cells.map((cell) => ({
    BlockType: 'CELL',
    Confidence: cell.words.length > 0 ? confidenceOf(cell.words) : 90,
    RowIndex: cell.row,
    ColumnIndex: cell.column,
    RowSpan: 1,
    ColumnSpan: 1,
    Geometry: geometry(cell.box),
    Id: randomUUID(),
    ...(cell.words.length > 0 ? { Relationships: [{ Type: 'CHILD', Ids: cell.words.map(idOf) }] } : {}),
    ...(cell.header ? { EntityTypes: ['COLUMN_HEADER'] } : {}),
    Page,
  }));
  return [
    {
      BlockType: 'TABLE',
      Confidence: 90,
      Geometry: geometry(table.box),
      Id: randomUUID(),
      Relationships: [{ Type: 'CHILD', Ids: cells.map((c) => c.Id) }],
      EntityTypes: ['STRUCTURED_TABLE'],
      Page,
    },
    ...cells,
  ];
}
