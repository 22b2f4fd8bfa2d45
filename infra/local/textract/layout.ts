import { lineBox, type TextLine, type TextWord } from './page-text.ts';

/**
 * Textract ends a LINE where a wide gap opens between words on the same baseline (table columns, a
 * label and its right-aligned value). A gap wider than about one text height is such a break; a word
 * space is about a quarter of it, and justified text rarely stretches past half.
 */
const GAP_IN_HEIGHTS = 1.0;

/**
 * Splits words that share a baseline, given in writing order, into lines at wide gaps. `aspect` is the
 * page's width / height, so that gaps (fractions of the width) compare with heights (of the height).
 */
export function splitAtGaps(words: readonly TextWord[], aspect: number): TextLine[] {
  const lines: TextLine[] = [];
  let current: TextWord[] = [];
  for (const word of words) {
    const prev = current.at(-1);
    if (prev) {
      const gap = (word.box.Left - (prev.box.Left + prev.box.Width)) * aspect;
      const height = Math.max(prev.box.Height, word.box.Height);
      if (gap > GAP_IN_HEIGHTS * height) {
        lines.push({ words: current });
        current = [];
      }
    }
    current.push(word);
  }
  if (current.length > 0) lines.push({ words: current });
  return lines;
}

export interface Row {
  lines: TextLine[];
  top: number;
  bottom: number;
}

const overlap = (aTop: number, aBottom: number, bTop: number, bBottom: number) =>
  Math.min(aBottom, bBottom) - Math.max(aTop, bTop);

/**
 * Lines that sit side by side: a line joins a row when at least half of the lower of the two overlaps
 * the row vertically. Rows run from the top, and each row's lines from the left.
 */
export function rowsOf(lines: readonly TextLine[]): Row[] {
  const placed = lines
    .map((line) => ({ line, box: lineBox(line) }))
    .sort((a, b) => a.box.Top + a.box.Height / 2 - (b.box.Top + b.box.Height / 2));
  const rows: (Row & { boxes: { left: number; line: TextLine }[]; anchorHeight: number })[] = [];
  for (const { line, box } of placed) {
    const bottom = box.Top + box.Height;
    const row = rows.find(
      (r) => overlap(r.top, r.bottom, box.Top, bottom) >= 0.5 * Math.min(r.anchorHeight, box.Height),
    );
    if (row) {
      row.boxes.push({ left: box.Left, line });
      row.top = Math.min(row.top, box.Top);
      row.bottom = Math.max(row.bottom, bottom);
    } else {
      rows.push({
        lines: [],
        boxes: [{ left: box.Left, line }],
        top: box.Top,
        bottom,
        anchorHeight: box.Height,
      });
    }
  }
  return rows
    .sort((a, b) => a.top - b.top)
    .map((r) => ({
      lines: r.boxes.sort((a, b) => a.left - b.left).map((b) => b.line),
      top: r.top,
      bottom: r.bottom,
    }));
}

/** Reading order as Textract gives it for simple layouts: rows from the top, each from the left. */
export const readingOrder = (lines: readonly TextLine[]): TextLine[] => rowsOf(lines).flatMap((r) => r.lines);
