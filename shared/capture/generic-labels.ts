import type { ExtractedValue, ExtractedValues, InvoiceKey } from './model.ts';
import {
  centre,
  clusterRows,
  type DocPage,
  headingOf,
  horizontalOverlap,
  lineSpan,
  type PageDocument,
  type PageLine,
  type PageWord,
  rowOverlap,
  spanOfWords,
  subSpan,
  type TextSpan,
  verticalOverlap,
} from './pages.ts';
import type { BoundingBox } from './textract.ts';
import type { ParsedValue } from './value-parsing.ts';

/**
 * Finding a value by its label, the way a person reads a bill: after the label on the same line, to its
 * right on the same row, or below it in the same column. Textract's own key-value pairs count too.
 */

/** Finds a value in a text and says where it is; null when the text holds none. */
export type Finder = (text: string) => ParsedValue | null;

export interface Label {
  pattern: RegExp;
  /** 3 a label that names the value; 1 a word that often but not always does. */
  weight: number;
}

export interface FieldSpec {
  key: InvoiceKey;
  /** Words every label of the field contains one of: lines without any are not searched further. */
  hint: RegExp;
  labels: Label[];
  find: Finder;
  /** Amounts at the end of a row (a total after its breakdown) take the last value on the line. */
  last?: boolean;
}

/** A part of a page values may come from (a meter's section of a multi-meter invoice). */
export interface Region {
  page: number;
  top: number;
  bottom: number;
}

export interface Candidate {
  key: InvoiceKey;
  value: ExtractedValue;
  /** The label the value was found by, as printed. */
  label?: string;
  score: number;
  /** The label only hinted at the value (a weak label, or a value found without any). */
  weak: boolean;
  /** Where the value was found, for ordering. */
  page: number;
  top: number;
  /** The tax rate printed on the label's line ('MwSt. 7% auf 100,00', 'VAT @ 20%'), in percent. */
  rate?: number;
}

export interface SearchScope {
  doc: PageDocument;
  pages: readonly number[];
  regions?: readonly Region[];
}

interface LabelHit {
  spec: FieldSpec;
  weight: number;
  line: PageLine;
  span: TextSpan;
  start: number;
  end: number;
  box: BoundingBox;
}

function inRegions(scope: SearchScope, page: number, box: BoundingBox | undefined): boolean {
  if (!scope.regions) return true;
  if (!box) return false;
  const y = centre(box).y;
  return scope.regions.some((r) => r.page === page && y >= r.top && y <= r.bottom);
}

/** Weak matches lose confidence so that a reviewer looks at them first. */
export const WEAK_FACTOR = 0.7;

export function toValue(part: TextSpan, value: ParsedValue['value'], weak: boolean): ExtractedValue {
  const confidence = Math.round(part.confidence * (weak ? WEAK_FACTOR : 1) * 10) / 10;
  return {
    value,
    text: part.text,
    page: part.page,
    ...(part.box ? { bbox: part.box } : {}),
    confidence,
  };
}

const globalPatterns = new WeakMap<Label, RegExp>();

function globalPattern(label: Label): RegExp {
  let pattern = globalPatterns.get(label);
  if (!pattern) {
    pattern = label.pattern.global
      ? label.pattern
      : new RegExp(label.pattern.source, `${label.pattern.flags}g`);
    globalPatterns.set(label, pattern);
  }
  return pattern;
}

const hitCache = new WeakMap<readonly FieldSpec[], WeakMap<PageLine, LabelHit[]>>();

/** Label hits of every spec on a line; a hit inside a longer hit of another field gives way to it. */
function hitsOnLine(specs: readonly FieldSpec[], line: PageLine): LabelHit[] {
  let byLine = hitCache.get(specs);
  if (!byLine) {
    byLine = new WeakMap();
    hitCache.set(specs, byLine);
  }
  let hits = byLine.get(line);
  if (!hits) {
    hits = findHits(specs, line);
    byLine.set(line, hits);
  }
  return hits;
}

/** A line beside or just under bank details ('Sort code: ... Account number: ...'), read as one block. */
export function inBankDetails(page: DocPage, line: { box: BoundingBox }): boolean {
  return page.lines.some(
    (l) =>
      BANK_DETAILS.test(l.text) &&
      (verticalOverlap(l.box, line.box) >= 0.5 ||
        (l.box.Top < line.box.Top &&
          line.box.Top - (l.box.Top + l.box.Height) < line.box.Height * 1.5 &&
          Math.abs(l.box.Left - line.box.Left) < 0.02)),
  );
}

/** More words than a label or a value cell holds: a sentence. */
const SENTENCE_WORDS = 8;

/** Bank details name the supplier's account, not the customer's. */
const BANK_DETAILS = /sort\s*code|\bbank\b|\biban\b|\bswift\b|\bbic\b|account\s*name|\bpayee\b/i;

function findHits(specs: readonly FieldSpec[], line: PageLine): LabelHit[] {
  const span = lineSpan(line);
  const hits: LabelHit[] = [];
  const bank = BANK_DETAILS.test(span.text);
  // 'The Climate Change Levy does not apply': a label that says there is no value.
  if (/\bnot\s+(?:apply|applicable|charged|payable|due)\b|\bexempt\b/i.test(span.text)) return [];
  // A label deep inside a sentence is prose, not a label; so is one a sentence ends with ('Sign up
  // for equal billing and/or pre-authorized payment.').
  const prose = line.words.length > SENTENCE_WORDS;
  const sentence = line.words.length >= 5 && /\p{Ll}{2}\.$/u.test(span.text);
  for (const spec of specs) {
    if (!spec.hint.test(span.text) || (bank && spec.key === 'accountNumber')) continue;
    for (const label of spec.labels) {
      for (const m of span.text.matchAll(globalPattern(label))) {
        if (m[0].trim() === '' || (prose && m.index > 25) || (sentence && m.index > 0)) continue;
        const part = subSpan(span, m.index, m.index + m[0].length);
        if (!part.box) continue;
        hits.push({
          spec,
          weight: label.weight,
          line,
          span,
          start: m.index,
          end: m.index + m[0].length,
          box: part.box,
        });
      }
    }
  }
  return hits.filter(
    (h) =>
      !hits.some(
        (o) =>
          o.spec.key !== h.spec.key &&
          o.start <= h.start &&
          o.end >= h.end &&
          o.end - o.start > h.end - h.start,
      ),
  );
}

function valueIn(
  spec: FieldSpec,
  span: TextSpan,
  from: number,
  to: number,
): { parsed: ParsedValue; part: TextSpan } | undefined {
  const text = span.text.slice(from, to);
  let parsed = spec.find(text);
  if (parsed && spec.last) {
    for (;;) {
      const next = spec.find(text.slice(parsed.end));
      if (!next || next.end === 0) break;
      parsed = { ...next, start: next.start + parsed.end, end: next.end + parsed.end };
    }
  }
  if (!parsed) return undefined;
  const part = subSpan(span, from + parsed.start, from + parsed.end);
  return part.words.length > 0 ? { parsed, part } : undefined;
}

/** The percentage printed on a label's line: the tax rate a row of totals is for. */
function rateOn(text: string): number | undefined {
  const m = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s*%/.exec(text);
  return m?.[1] === undefined ? undefined : Number(m[1].replace(',', '.'));
}

const stackedCache = new WeakMap<DocPage, PageLine[]>();
/** How many words of a stacked pair are its upper line's. */
const upperWords = new WeakMap<PageLine, number>();

/** A short line of words without figures: a label, or a part of one. */
const labelLike = (line: PageLine) => line.words.length <= 4 && !/\d/.test(line.text);

/**
 * Labels printed over two short lines in a box, their value beside them at mid-height ('PAYABLE ON
 * OR' over 'BEFORE DUE DATE', then '$65.03'; 'New Charges' over 'This Bill'): each pair read as one
 * line, so that a label split between them is found and its value lies on its row.
 */
function stackedLines(page: DocPage): PageLine[] {
  let stacked = stackedCache.get(page);
  if (stacked) return stacked;
  stacked = [];
  for (const upper of page.lines) {
    if (!labelLike(upper)) continue;
    const bottom = upper.box.Top + upper.box.Height;
    const lower = page.lines.find(
      (l) =>
        l !== upper &&
        labelLike(l) &&
        Math.abs(l.box.Left - upper.box.Left) < upper.box.Height &&
        Math.abs(l.box.Height - upper.box.Height) < upper.box.Height * 0.3 &&
        l.box.Top >= bottom - upper.box.Height * 0.3 &&
        l.box.Top - bottom < upper.box.Height * 0.6,
    );
    if (!lower) continue;
    const words = [...upper.words, ...lower.words];
    const left = Math.min(upper.box.Left, lower.box.Left);
    const right = Math.max(upper.box.Left + upper.box.Width, lower.box.Left + lower.box.Width);
    const pair: PageLine = {
      id: `${upper.id}+${lower.id}`,
      text: `${upper.text} ${lower.text}`,
      page: upper.page,
      box: {
        Left: left,
        Top: upper.box.Top,
        Width: right - left,
        Height: lower.box.Top + lower.box.Height - upper.box.Top,
      },
      confidence: Math.min(upper.confidence, lower.confidence),
      words,
    };
    upperWords.set(pair, upper.words.length);
    stacked.push(pair);
  }
  stackedCache.set(page, stacked);
  return stacked;
}

/** Hits of a stacked pair that take words of both its lines; the others are found on each line. */
function hitsAcrossStack(specs: readonly FieldSpec[], line: PageLine): LabelHit[] {
  const joint = lineSpan(line).starts[upperWords.get(line) ?? line.words.length] ?? line.text.length;
  return hitsOnLine(specs, line).filter((h) => h.start < joint && h.end > joint);
}

/** The candidates of a field around its labels on the scope's pages, best first. */
export function labelCandidates(
  specs: readonly FieldSpec[],
  scope: SearchScope,
  keys?: ReadonlySet<InvoiceKey>,
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const n of scope.pages) {
    const page = scope.doc.pages[n - 1];
    if (!page) continue;
    const inScope = (box: BoundingBox | undefined) => inRegions(scope, n, box);
    const stacked = new Set(stackedLines(page));
    for (const line of [...page.lines, ...stacked]) {
      const hits = stacked.has(line) ? hitsAcrossStack(specs, line) : hitsOnLine(specs, line);
      for (const hit of hits) {
        if (keys && !keys.has(hit.spec.key)) continue;
        if (hit.spec.key === 'accountNumber' && inBankDetails(page, line)) continue;
        const bonus = scope.regions && inScope(hit.box) ? 1 : 0;
        const rate = rateOn(hit.span.text);
        const add = (found: Found, place: number, rowRate = rate) => {
          const weak = hit.weight <= 1;
          candidates.push({
            ...(rowRate !== undefined ? { rate: rowRate } : {}),
            key: hit.spec.key,
            value: toValue(found.part, found.parsed.value, weak),
            label: hit.span.text.slice(hit.start, hit.end),
            score: hit.weight + place + bonus,
            weak,
            page: n,
            top: found.part.box?.Top ?? 0,
          });
        };
        if (inScope(line.box)) {
          const nextHit = hits
            .filter((o) => o !== hit && o.start >= hit.end)
            .reduce((min, o) => Math.min(min, o.start), hit.span.text.length);
          const same = valueIn(hit.spec, hit.span, hit.end, nextHit);
          if (same) {
            add(same, 3);
            continue;
          }
        }
        const rightFound = rightOf(page, hit)
          .filter((l) => inScope(l.box))
          .map((l) => valueIn(hit.spec, lineSpan(l), 0, l.text.length))
          .find((f) => f !== undefined);
        if (rightFound) {
          const gap = (rightFound.part.box?.Left ?? 1) - (hit.box.Left + hit.box.Width);
          add(rightFound, 2 - Math.min(1, gap));
          continue;
        }
        const wrapped = wrappedOnto(page, hit);
        if (wrapped && inScope(wrapped.box)) {
          const nextLabel = hitsOnLine(specs, wrapped).reduce(
            (min, o) => Math.min(min, o.start),
            wrapped.text.length,
          );
          const found = valueIn(hit.spec, lineSpan(wrapped), 0, nextLabel);
          if (found) {
            add(found, 2.5);
            continue;
          }
        }
        const column = belowOf(page, hit, scope.regions !== undefined, hits)
          .filter((b) => inScope(b.box))
          .map((span) => ({ span, found: valueIn(hit.spec, span, 0, span.text.length) }));
        const first = column.find((c) => c.found !== undefined)?.found;
        const place = (found: Found) =>
          1 - Math.min(0.9, ((found.part.box?.Top ?? 1) - (hit.box.Top + hit.box.Height)) * 3);
        const byRate = TOTAL_KEYS.has(hit.spec.key) ? rateColumn(page, hit, column) : undefined;
        // Rows of rates with no sum printed under them: each row is a candidate of its rate, which
        // rateSums adds up (see generic-totals.ts).
        if (byRate?.rows) for (const r of byRate.rows) add(r.found, place(r.found), r.rate);
        else if (first) add(byRate?.sum ?? first, place(byRate?.sum ?? first));
      }
    }
  }
  return candidates.sort((a, b) => b.score - a.score || a.page - b.page || a.top - b.top);
}

const TOTAL_KEYS: ReadonlySet<InvoiceKey> = new Set(['netTotal', 'vatTotal', 'grossTotal']);

/**
 * The line a label's value was wrapped onto: the label ends a line of running text that already
 * holds a value of its own ('Datum: 20 april 2022 Nummer:'), and the text goes on at the start of the
 * next line, which begins where this one does. A row of headings holds no values, so it is not one.
 */
function wrappedOnto(page: DocPage, hit: LabelHit): PageLine | undefined {
  const line = hit.line;
  if (/[\p{L}\p{N}]/u.test(hit.span.text.slice(hit.end))) return undefined;
  if (!/\d/.test(hit.span.text.slice(0, hit.start))) return undefined;
  const bottom = line.box.Top + line.box.Height;
  return page.lines
    .filter(
      (l) =>
        l !== line &&
        Math.abs(l.box.Left - line.box.Left) < line.box.Height &&
        l.box.Top >= bottom - line.box.Height * 0.3 &&
        l.box.Top - bottom < line.box.Height,
    )
    .sort((a, b) => a.box.Top - b.box.Top)[0];
}

type Found = { parsed: ParsedValue; part: TextSpan };

/** A heading beside the label that names the tax rate of each row ('MwSt-%', 'VAT rate', 'Tarief'). */
function rateHeading(page: DocPage, hit: LabelHit): BoundingBox | undefined {
  return page.lines.find(
    (l) =>
      l !== hit.line &&
      l.text.length <= 20 &&
      /%|\brate\b|satz\b|\btarief\b|\btaux\b/i.test(l.text) &&
      rowOverlap(page, hit.line.box, l.box) >= 0.5,
  )?.box;
}

/** The tax rate printed on a row: a percentage, or a small number under the rate heading. */
function rowRate(page: DocPage, row: BoundingBox, heading: BoundingBox | undefined): number | undefined {
  for (const w of page.words) {
    if (rowOverlap(page, row, w.box) < 0.5) continue;
    const percent = /^(\d{1,2}(?:[.,]\d{1,2})?)\s*%$/.exec(w.text)?.[1];
    const under =
      heading && horizontalOverlap(heading, w.box) > 0
        ? /^(\d{1,2}(?:[.,]\d{1,2})?)$/.exec(w.text)?.[1]
        : undefined;
    const rate = Number((percent ?? under ?? '').replace(',', '.'));
    if ((percent ?? under) !== undefined && rate <= 30) return rate;
  }
  return undefined;
}

/**
 * A column of totals with one row per tax rate ('Endbetrag': 382,47 at 19%, 136,52 at 7%): the sum
 * printed under them (518,99) is the invoice's figure, not the first rate's; without one, the rows and
 * their rates, to be added up.
 */
function rateColumn(
  page: DocPage,
  hit: LabelHit,
  column: readonly { span: TextSpan; found: Found | undefined }[],
): { sum?: Found; rows?: { found: Found; rate: number }[] } | undefined {
  const heading = rateHeading(page, hit);
  const rows = column.flatMap((c) =>
    c.found && typeof c.found.parsed.value === 'number' && c.span.box
      ? [{ found: c.found, value: c.found.parsed.value, rate: rowRate(page, c.span.box, heading) }]
      : [],
  );
  const distinctRates = (list: readonly { rate: number | undefined }[]) => {
    const rates = list.map((r) => r.rate);
    return !rates.some((r) => r === undefined) && new Set(rates).size === rates.length;
  };
  if (rows.length >= 2 && distinctRates(rows)) {
    return { rows: rows.flatMap((r) => (r.rate === undefined ? [] : [{ found: r.found, rate: r.rate }])) };
  }
  const last = rows[rows.length - 1];
  const rated = rows.slice(0, -1);
  if (!last || rated.length < 2 || last.rate !== undefined || !distinctRates(rated)) return undefined;
  const sum = rated.reduce((s, r) => s + r.value, 0);
  return Math.abs(sum - last.value) <= 0.011 ? { sum: last.found } : undefined;
}

/** Lines to the right of a label on its row, nearest first. */
function rightOf(page: DocPage, hit: LabelHit): PageLine[] {
  const right = hit.line.box.Left + hit.line.box.Width;
  return page.lines
    .filter((l) => l !== hit.line && l.box.Left >= right - 0.005 && rowOverlap(page, hit.box, l.box) >= 0.5)
    .filter((l) => l.box.Left - right <= 0.8)
    .sort((a, b) => a.box.Left - b.box.Left)
    .slice(0, 2);
}

/** The headings printed on a label's row: its own line and the other lines beside it. */
function rowHeadings(page: DocPage, hit: LabelHit): { boxes: BoundingBox[]; own: number } {
  const beside = page.lines.filter((l) => l !== hit.line && rowOverlap(page, hit.line.box, l.box) >= 0.5);
  const boxes = [hit.line.box, ...beside.map((l) => l.box)];
  return { boxes, own: 0 };
}

const lineOfWord = new WeakMap<DocPage, Map<PageWord, PageLine>>();

function linesByWord(page: DocPage): Map<PageWord, PageLine> {
  let map = lineOfWord.get(page);
  if (!map) {
    map = new Map();
    for (const line of page.lines) for (const word of line.words) map.set(word, line);
    lineOfWord.set(page, map);
  }
  return map;
}

/**
 * The rows below a label within its column, nearest first, as spans of the words in the column. A
 * line that runs across the column (a sentence of prose) is not a value of it.
 */
function belowOf(page: DocPage, hit: LabelHit, far: boolean, lineHits: readonly LabelHit[] = []): TextSpan[] {
  const bottom = hit.box.Top + hit.box.Height;
  const reach = far ? 1 : Math.max(0.045, hit.box.Height * 4.5);
  const headerRow = headerColumn(hit, lineHits);
  if (headerRow) {
    // A row of headings over a row of values ('Bill Date  Account Number  Due Date'): each value sits
    // under its own heading, up to where the next heading starts.
    const inColumn = page.words.filter(
      (w) =>
        w.box.Top >= bottom - hit.box.Height * 0.3 &&
        w.box.Top - bottom <= reach &&
        w.box.Left >= headerRow.left &&
        w.box.Left < headerRow.right,
    );
    return clusterRows(inColumn)
      .slice(0, 3)
      .map((row) => spanOfWords(row, page.number, true));
  }
  const { boxes, own } = rowHeadings(page, hit);
  const lines = linesByWord(page);
  const inColumn = page.words.filter((w) => {
    if (w.box.Top < bottom - hit.box.Height * 0.3 || w.box.Top - bottom > reach) return false;
    if (headingOf(boxes, w.box) !== own) return false;
    const line = lines.get(w);
    if (!line || line === hit.line) return false;
    // A line that runs across the column, or a sentence of prose, is not a value of it ('Ontario's
    // Fair Hydro Plan saved you $26.89 on your bill. This includes …' is no payment).
    return (
      headingOf(boxes, line.box) === own &&
      line.box.Width <= 2 * hit.line.box.Width + 0.1 &&
      line.words.length <= SENTENCE_WORDS
    );
  });
  return clusterRows(inColumn)
    .slice(0, 3)
    .map((row) => spanOfWords(row, page.number, true));
}

/**
 * The column of a heading printed on one line with other headings: from just before it to where the
 * next heading starts. Undefined when the label is alone on its line.
 */
function headerColumn(
  hit: LabelHit,
  lineHits: readonly LabelHit[],
): { left: number; right: number } | undefined {
  const others = lineHits.filter((o) => o.line === hit.line && o !== hit && o.spec.key !== hit.spec.key);
  if (others.length === 0) return undefined;
  // The line holds nothing but headings: a sentence with a label in it is no row of headings.
  const covered = [hit, ...others].reduce((n, h) => n + (h.end - h.start), 0);
  if (covered < hit.span.text.replace(/\s+/g, '').length * 0.6) return undefined;
  const next = others.filter((o) => o.box.Left > hit.box.Left).sort((a, b) => a.box.Left - b.box.Left)[0];
  const previous = others.filter((o) => o.box.Left < hit.box.Left).sort((a, b) => b.box.Left - a.box.Left)[0];
  const gap = hit.box.Height;
  return {
    left: previous ? previous.box.Left + previous.box.Width + gap / 2 : hit.box.Left - gap * 2,
    right: next ? next.box.Left - gap / 2 : hit.line.box.Left + hit.line.box.Width + gap * 2,
  };
}

/** Textract's key-value pairs whose key reads as a label of a field. */
export function keyValueCandidates(specs: readonly FieldSpec[], scope: SearchScope): Candidate[] {
  const candidates: Candidate[] = [];
  for (const n of scope.pages) {
    const page = scope.doc.pages[n - 1];
    for (const pair of page?.keyValues ?? []) {
      if (pair.value.text === '' || !inRegions(scope, n, pair.value.box)) continue;
      const keyBox = pair.key.box;
      for (const spec of specs) {
        const label = spec.labels.find((l) =>
          new RegExp(l.pattern.source, l.pattern.flags).test(pair.key.text),
        );
        if (!label) continue;
        if (spec.key === 'accountNumber' && page && keyBox && inBankDetails(page, { box: keyBox })) continue;
        const found = valueIn(spec, pair.value, 0, pair.value.text.length);
        if (!found) continue;
        const weak = label.weight <= 1;
        candidates.push({
          key: spec.key,
          value: toValue(found.part, found.parsed.value, weak),
          score: label.weight + 3.5,
          weak,
          page: n,
          top: found.part.box?.Top ?? 0,
        });
      }
    }
  }
  return candidates;
}

/** The best candidate of each field: the highest score, the first printed on a tie. */
export function bestByKey(candidates: readonly Candidate[]): Map<InvoiceKey, Candidate> {
  const best = new Map<InvoiceKey, Candidate>();
  for (const c of candidates) {
    const current = best.get(c.key);
    if (
      !current ||
      c.score > current.score ||
      (c.score === current.score &&
        (c.page < current.page || (c.page === current.page && c.top < current.top)))
    ) {
      best.set(c.key, c);
    }
  }
  return best;
}

/** The values of the best candidates. */
export function valuesOf(best: Map<InvoiceKey, Candidate>): ExtractedValues {
  const values: ExtractedValues = {};
  for (const [key, c] of best) values[key] = c.value;
  return values;
}
