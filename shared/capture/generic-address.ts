import { toValue, WEAK_FACTOR } from './generic-labels.ts';
import type { ExtractedValue } from './model.ts';
import {
  type DocPage,
  lineSpan,
  type PageLine,
  spanOfWords,
  stackedAbove,
  stackedBelow,
  subSpan,
  verticalOverlap,
} from './pages.ts';

/**
 * Addresses, read as a person reads them: the block of lines in the envelope window at the top of the
 * first page (whose first line is the recipient), and the supply address under or beside its label,
 * line by line down to its postcode.
 */

// OCR reads a 0 in a postcode as an O now and then ('EC3V OBT').
const POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?\s*[\dO][A-Z]{2}\b/;
const SITE_LABEL =
  /\b(?:supply|site|premises|property|installation|meter)\s+address\b|\byour\s+(?:site|premises)\b/i;

/**
 * The recipient: the first line of the address block printed in the top left of the page (the block
 * ending in a postcode). A one-line return address above it is not part of it.
 */
export function findRecipient(page: DocPage): ExtractedValue | undefined {
  const last = page.lines.find(
    (l) => l.box.Top < 0.35 && l.box.Left < 0.5 && POSTCODE.test(l.text) && l.words.length <= 3,
  );
  if (!last) return undefined;
  let top = last;
  let count = 1;
  for (let above = stackedAbove(page, top); above; above = stackedAbove(page, top)) {
    if (POSTCODE.test(above.text) || /\bP\.?\s*O\.?\s+Box\b/i.test(above.text) || count >= 7) break;
    top = above;
    count += 1;
  }
  if (count < 3 || !/[A-Za-z]/.test(top.text)) return undefined;
  return toValue(lineSpan(top), top.text, true);
}

/** Where something else is printed to the right of a line on its row: an address wraps before it. */
function rightLimit(page: DocPage, line: PageLine): number {
  const right = line.box.Left + line.box.Width;
  let limit = 0.95;
  for (const other of page.lines) {
    if (other !== line && other.box.Left > right && verticalOverlap(other.box, line.box) >= 0.5) {
      limit = Math.min(limit, other.box.Left);
    }
  }
  return limit;
}

function joinAddress(page: DocPage, lines: PageLine[]): string {
  let text = '';
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    if (!prev) text = line.text;
    else {
      const wrapped =
        rightLimit(page, prev) - (prev.box.Left + prev.box.Width) < 0.08 || /,$/.test(prev.text);
      text += wrapped ? ` ${line.text}` : `, ${line.text}`;
    }
  });
  return text.replace(/,\s*,/g, ',').replace(/\s+/g, ' ').trim();
}

/** The supply address beside or under its label, down to its postcode. */
export function findSiteAddress(pages: readonly DocPage[]): ExtractedValue | undefined {
  for (const page of pages) {
    for (const line of page.lines) {
      const label = SITE_LABEL.exec(line.text);
      if (!label) continue;
      const rest = line.text.slice(label.index + label[0].length).replace(/^[\s:,-]+/, '');
      let first: PageLine | undefined;
      const lines: PageLine[] = [];
      if (/\d|[A-Za-z]{3}/.test(rest) && rest.length > 4) {
        const span = lineSpan(line);
        const start = span.text.length - rest.length;
        const part = subSpan(span, start, span.text.length);
        const below = stackedBelow(page, line);
        if (!below || POSTCODE.test(rest)) return toValue(part, rest, false);
        lines.push({ ...line, text: rest, words: part.words, box: part.box ?? line.box });
        first = below;
      } else {
        const labelRight = line.box.Left + line.box.Width;
        const beside = page.lines
          .filter((l) => l !== line && l.box.Left > labelRight && verticalOverlap(l.box, line.box) >= 0.5)
          .sort((a, b) => a.box.Left - b.box.Left)[0];
        const besideIsAddress = beside && beside.box.Left - labelRight < 0.3 && /\d|,/.test(beside.text);
        first = besideIsAddress ? beside : stackedBelow(page, line);
      }
      for (let at = first; at && lines.length < 7; at = stackedBelow(page, at)) {
        if (SITE_LABEL.test(at.text) || /:\s*$/.test(at.text)) break;
        lines.push(at);
        if (POSTCODE.test(at.text)) break;
      }
      if (lines.length === 0 || !lines.some((l) => POSTCODE.test(l.text) || /\d/.test(l.text))) continue;
      const span = spanOfWords(
        lines.flatMap((l) => l.words),
        page.number,
      );
      const value = toValue(span, joinAddress(page, lines), false);
      return {
        ...value,
        text: value.value as string,
        confidence: lines.some((l) => POSTCODE.test(l.text))
          ? value.confidence
          : Math.round(value.confidence * WEAK_FACTOR * 10) / 10,
      };
    }
  }
  return undefined;
}
