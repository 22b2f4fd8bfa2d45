import type { Row } from './layout.ts';
import { lineBox, type TextLine, type TextWord } from './page-text.ts';

export interface FieldPair {
  key: TextWord[];
  value: TextWord[];
}

/** Keys are short: a label of more than this many words is a sentence with a colon in it. */
const MAX_KEY_WORDS = 6;
/** Value lines under a key ("Bill to:" and an address) follow at most this many text heights apart. */
const MAX_GAP_BELOW_IN_HEIGHTS = 1.5;
const MAX_LINES_BELOW = 5;

const endsWithColon = (w: TextWord | undefined) => !!w && w.text.length > 1 && w.text.endsWith(':');
const isKey = (words: readonly TextWord[]) =>
  words.length > 0 && words.length <= MAX_KEY_WORDS && words.some((w) => /\p{L}/u.test(w.text));

/** Where a key-only line's value is: the next line to its right on the row, else the lines below it. */
export function valueNear(
  line: TextLine,
  rows: readonly Row[],
  used: ReadonlySet<TextLine>,
  accept: (candidate: TextLine) => boolean = () => true,
  maxLinesBelow = 1,
): TextLine[] {
  const rowIndex = rows.findIndex((r) => r.lines.includes(line));
  const row = rows[rowIndex];
  if (!row) return [];
  const right = row.lines[row.lines.indexOf(line) + 1];
  if (right && !used.has(right)) return accept(right) ? [right] : [];
  const key = lineBox(line);
  const below: TextLine[] = [];
  let lastBottom = key.Top + key.Height;
  let anchorLeft: number | undefined;
  for (const next of rows.slice(rowIndex + 1)) {
    if (below.length >= maxLinesBelow) break;
    if (next.top - lastBottom > MAX_GAP_BELOW_IN_HEIGHTS * key.Height) break;
    // The value sits under the key: it starts where the key starts, or under the key's extent.
    const under = next.lines.find((l) => {
      if (used.has(l)) return false;
      const box = lineBox(l);
      if (anchorLeft !== undefined) return Math.abs(box.Left - anchorLeft) < key.Height;
      return box.Left < key.Left + key.Width && box.Left + box.Width > key.Left - key.Height;
    });
    if (!under || endsWithColon(under.words.at(-1)) || !accept(under)) break;
    below.push(under);
    anchorLeft ??= lineBox(under).Left;
    lastBottom = next.bottom;
  }
  return below;
}

/**
 * "Label: value" pairs: a label ending in a colon with its value after it on the same line, or alone
 * on its line with the value to its right on the same row or in the lines just under it.
 */
export function findPairs(rows: readonly Row[], skip: ReadonlySet<TextLine>): FieldPair[] {
  const pairs: FieldPair[] = [];
  const used = new Set<TextLine>(skip);
  for (const row of rows) {
    for (const line of row.lines) {
      if (used.has(line)) continue;
      const words = line.words;
      const colon = words.findIndex(endsWithColon);
      if (colon < 0) continue;
      const key = words.slice(0, colon + 1);
      if (!isKey(key)) continue;
      used.add(line);
      if (colon < words.length - 1) {
        pairs.push({ key, value: words.slice(colon + 1) });
        continue;
      }
      const valueLines = valueNear(line, rows, used, (l) => !l.words.some(endsWithColon), MAX_LINES_BELOW);
      for (const l of valueLines) used.add(l);
      pairs.push({ key, value: valueLines.flatMap((l) => l.words) });
    }
  }
  return pairs;
}
