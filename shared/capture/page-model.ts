import { clusterRows, unionBox } from './page-geometry.ts';
import type { BoundingBox } from './textract.ts';

/**
 * The pages of an analysed document as words and lines with their boxes, tables and key-value pairs:
 * what templates and the generic extractor read from. Boxes are Textract's page fractions.
 */

export interface PageWord {
  id: string;
  text: string;
  /** 1-based */
  page: number;
  box: BoundingBox;
  /** 0 to 100 */
  confidence: number;
}

export interface PageLine {
  id: string;
  text: string;
  page: number;
  box: BoundingBox;
  confidence: number;
  words: PageWord[];
}

/** Words in reading order as one text: words of a row joined by spaces, rows by new lines. */
export interface TextSpan {
  page: number;
  text: string;
  words: PageWord[];
  /** Where each word starts in `text`. */
  starts: number[];
  box?: BoundingBox;
  /** The lowest of the words' confidences; 0 without words. */
  confidence: number;
}

export interface PageCell {
  rowIndex: number;
  columnIndex: number;
  rowSpan: number;
  columnSpan: number;
  header: boolean;
  span: TextSpan;
}

export interface PageTable {
  id: string;
  page: number;
  box?: BoundingBox;
  /** Cells by row, each row in column order; row 0 is RowIndex 1. */
  rows: PageCell[][];
}

export interface PageKeyValue {
  page: number;
  key: TextSpan;
  value: TextSpan;
  confidence: number;
}

export interface DocPage {
  number: number;
  words: PageWord[];
  /** In reading order. */
  lines: PageLine[];
  tables: PageTable[];
  keyValues: PageKeyValue[];
  /** Lines in reading order, one per row. */
  text: string;
  /** How far rows drop per unit of width (a scan fed in askew); 0 for a level page. */
  skew: number;
}

export interface PageDocument {
  pageCount: number;
  /** pages[0] is page 1 */
  pages: DocPage[];
}

export interface TextMatch {
  page: number;
  text: string;
  box: BoundingBox;
  words: PageWord[];
  confidence: number;
}

// ---------------------------------------------------------------- spans

export function spanOfWords(words: readonly PageWord[], page: number, ordered = false): TextSpan {
  const rows = ordered ? [words.slice()] : clusterRows(words);
  const all: PageWord[] = [];
  const starts: number[] = [];
  let text = '';
  rows.forEach((row, r) => {
    if (r > 0) text += '\n';
    row.forEach((word, i) => {
      if (i > 0) text += ' ';
      starts.push(text.length);
      all.push(word);
      text += word.text;
    });
  });
  const box = unionBox(all.map((w) => w.box));
  return {
    page,
    text,
    words: all,
    starts,
    ...(box ? { box } : {}),
    confidence: all.length > 0 ? Math.min(...all.map((w) => w.confidence)) : 0,
  };
}

/** The part of a span between two character offsets, with the words that print it. */
export function subSpan(span: TextSpan, start: number, end: number): TextSpan {
  const words: PageWord[] = [];
  span.words.forEach((word, i) => {
    const s = span.starts[i] ?? 0;
    if (s < end && s + word.text.length > start) words.push(word);
  });
  const box = unionBox(words.map((w) => w.box));
  return {
    page: span.page,
    text: span.text.slice(start, end).trim(),
    words,
    starts: [],
    ...(box ? { box } : {}),
    confidence: words.length > 0 ? Math.min(...words.map((w) => w.confidence)) : 0,
  };
}
