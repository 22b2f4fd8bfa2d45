import { centre, centreInside, clusterRows, verticalOverlap } from './page-geometry.ts';
import {
  type DocPage,
  type PageDocument,
  type PageLine,
  spanOfWords,
  subSpan,
  type TextMatch,
  type TextSpan,
} from './page-model.ts';
import type { BoundingBox } from './textract.ts';

/**
 * Reading the pages of a document: text inside a box, rows of words, where a phrase is printed, lines
 * stacked in a column. The page model and its geometry are re-exported, so this is the one import.
 */

export { buildPages } from './page-build.ts';
export * from './page-geometry.ts';
export * from './page-model.ts';

export function rowOverlap(page: DocPage, a: BoundingBox, b: BoundingBox): number {
  if (page.skew === 0) return verticalOverlap(a, b);
  const drop = page.skew * (centre(b).x - centre(a).x);
  return verticalOverlap(a, { ...b, Top: b.Top - drop });
}

export function pageOf(doc: PageDocument, page: number): DocPage | undefined {
  return doc.pages[page - 1];
}

// ---------------------------------------------------------------- reading

/** The words whose centre lies inside a box, as text in reading order. */
export function textInBox(page: DocPage, box: BoundingBox): TextSpan {
  return spanOfWords(
    page.words.filter((w) => centreInside(w.box, box)),
    page.number,
  );
}

/** The rows of words inside a box (a table drawn as a bound), top to bottom. */
export function rowsInBox(page: DocPage, box: BoundingBox): TextSpan[] {
  return clusterRows(
    page.words.filter((w) => centreInside(w.box, box)),
    page.skew,
  ).map((row) => spanOfWords(row, page.number, true));
}

const pageRows = new WeakMap<DocPage, TextSpan[]>();
const lineSpans = new WeakMap<PageLine, TextSpan>();

/** A line's words as a span (kept, as lines are read many times over). */
export function lineSpan(line: PageLine): TextSpan {
  let span = lineSpans.get(line);
  if (!span) {
    span = spanOfWords(line.words, line.page, true);
    lineSpans.set(line, span);
  }
  return span;
}

/** The rows of a page from `top` down to `bottom` (page fractions). */
export function rowsBetween(page: DocPage, top = 0, bottom = 1): TextSpan[] {
  if (top <= 0 && bottom >= 1) {
    let rows = pageRows.get(page);
    if (!rows) {
      rows = clusterRows(page.words, page.skew).map((r) => spanOfWords(r, page.number, true));
      pageRows.set(page, rows);
    }
    return rows;
  }
  return clusterRows(
    page.words.filter((w) => {
      const y = centre(w.box).y;
      return y >= top && y <= bottom;
    }),
    page.skew,
  ).map((row) => spanOfWords(row, page.number, true));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive pattern for a phrase that may break across spaces and new lines differently. */
export function phrasePattern(text: string): RegExp {
  const parts = text.trim().split(/\s+/).map(escapeRegex);
  return new RegExp(parts.join('\\s+'), 'gi');
}

function globalOf(pattern: RegExp): RegExp {
  return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
}

function matchesIn(span: TextSpan, pattern: RegExp): TextMatch[] {
  const found: TextMatch[] = [];
  for (const m of span.text.matchAll(globalOf(pattern))) {
    if (m[0] === '') continue;
    const part = subSpan(span, m.index, m.index + m[0].length);
    if (part.box) {
      found.push({
        page: span.page,
        text: m[0],
        box: part.box,
        words: part.words,
        confidence: part.confidence,
      });
    }
  }
  return found;
}

const foundText = new WeakMap<DocPage, Map<string, TextMatch[]>>();

/**
 * Where a text (case-insensitive, any spacing) or a regular expression occurs on a page, line by line;
 * when no line holds it, rows of words are tried, as a phrase may sit in two lines of one row.
 */
export function findText(page: DocPage, query: string | RegExp): TextMatch[] {
  if (typeof query !== 'string') return searchPage(page, query);
  let cache = foundText.get(page);
  if (!cache) {
    cache = new Map();
    foundText.set(page, cache);
  }
  let found = cache.get(query);
  if (!found) {
    found = searchPage(page, phrasePattern(query));
    cache.set(query, found);
  }
  return found;
}

function searchPage(page: DocPage, pattern: RegExp): TextMatch[] {
  const inLines = page.lines.flatMap((line) =>
    matchesIn(spanOfWords(line.words, page.number, true), pattern),
  );
  if (inLines.length > 0) return inLines;
  return rowsBetween(page).flatMap((row) => matchesIn(row, pattern));
}

/** The line under a line in the same column, when the two are stacked as one block of text. */
export function stackedBelow(page: DocPage, line: PageLine): PageLine | undefined {
  const bottom = line.box.Top + line.box.Height;
  return page.lines
    .filter(
      (l) =>
        l !== line &&
        Math.abs(l.box.Left - line.box.Left) < 0.012 &&
        l.box.Top > line.box.Top + line.box.Height * 0.5 &&
        l.box.Top - bottom < line.box.Height * 1.4,
    )
    .sort((a, b) => a.box.Top - b.box.Top)[0];
}

/** The line over a line in the same column, when the two are stacked as one block of text. */
export function stackedAbove(page: DocPage, line: PageLine): PageLine | undefined {
  return page.lines
    .filter(
      (l) =>
        l !== line &&
        Math.abs(l.box.Left - line.box.Left) < 0.012 &&
        l.box.Top < line.box.Top - line.box.Height * 0.5 &&
        line.box.Top - (l.box.Top + l.box.Height) < line.box.Height * 1.4,
    )
    .sort((a, b) => b.box.Top - a.box.Top)[0];
}
