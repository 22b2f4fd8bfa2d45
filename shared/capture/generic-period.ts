import { findDates } from './date-text.ts';
import type { Candidate } from './generic-labels.ts';
import { toValue } from './generic-labels.ts';
import type { ExtractedValue } from './model.ts';
import type { PageDocument } from './pages.ts';
import { rowsBetween, spanOfWords, stackedAbove, stackedBelow, subSpan, type TextSpan } from './pages.ts';

/**
 * The billing period printed as a range: '01/01/2025 to 31/01/2025', 'Billing period 1 Jan 2025 -
 * 31 Jan 2025', 'From 1st January 2025 To 31st January 2025', or one month ('Period: January 2025').
 */

const CONNECTOR = /^\s*(?:-|–|—|to|until|till|through|thru|and|>)\s*$/i;
const PERIOD_WORDS =
  /period|billing|bill\s+for|charges?\s+(?:for|from)|supply|usage|covering|\bfrom\b|dates?\b|consumption/i;
const MONTH_PERIOD = /\b(?:billing|bill|supply|charging|invoice|usage)?\s*period\b|\bcharges\s+for\b/i;

function monthEnd(iso: string): string {
  const [y, m] = iso.split('-').map(Number);
  const last = new Date(Date.UTC(y ?? 2000, m ?? 1, 0)).getUTCDate();
  return `${iso.slice(0, 8)}${String(last).padStart(2, '0')}`;
}

const DAY = 86_400_000;

export interface PeriodCandidate {
  start: Candidate;
  end: Candidate;
}

/** Ranges of dates on the pages, the most period-like first. */
/** The ranges of dates in a text, scored by what is printed before them. */
function rangesIn(span: TextSpan, context: (at: number) => string, found: PeriodCandidate[]): void {
  const dates = findDates(span.text);
  const push = (
    startAt: [number, number],
    endAt: [number, number],
    start: string,
    end: string,
    score: number,
  ) => {
    const startPart = subSpan(span, ...startAt);
    const endPart = subSpan(span, ...endAt);
    const page = span.page;
    found.push({
      start: { key: 'startDate', value: toValue(startPart, start, false), score, weak: false, page, top: 0 },
      end: { key: 'endDate', value: toValue(endPart, end, false), score, weak: false, page, top: 0 },
    });
  };
  for (let i = 0; i + 1 < dates.length; i++) {
    const a = dates[i];
    const b = dates[i + 1];
    if (!a || !b || !CONNECTOR.test(span.text.slice(a.end, b.start))) continue;
    const end = b.monthOnly ? monthEnd(b.iso) : b.iso;
    const days = (Date.parse(end) - Date.parse(a.iso)) / DAY;
    if (days < 0 || days > 400) continue;
    const before = context(a.start);
    let score = 4;
    if (PERIOD_WORDS.test(before)) score += 2;
    if (/\bread/i.test(before)) score -= 0.5;
    if (/\bcontract|agreement|tariff\b/i.test(before)) score -= 1;
    push([a.start, a.end], [b.start, b.end], a.iso, end, score - found.length * 0.01);
  }
  const only = dates[0];
  if (dates.length === 1 && only?.monthOnly && MONTH_PERIOD.test(context(only.start))) {
    push([only.start, only.end], [only.start, only.end], only.iso, monthEnd(only.iso), 3.5);
  }
}

/**
 * Ranges of dates on the pages, the most period-like first: within a row, and across a line and the
 * line stacked under it, as a range wraps in a narrow column ('1 September 2026 to 30' / 'September 2026').
 */
export function periodCandidates(doc: PageDocument, pages: readonly number[]): PeriodCandidate[] {
  const found: PeriodCandidate[] = [];
  for (const n of pages) {
    const page = doc.pages[n - 1];
    if (!page) continue;
    const rows = rowsBetween(page);
    rows.forEach((row, r) => {
      rangesIn(row, (at) => `${rows[r - 1]?.text ?? ''} ${row.text.slice(0, at)}`, found);
    });
    for (const line of page.lines) {
      const below = stackedBelow(page, line);
      if (!below || !/\d/.test(line.text)) continue;
      const span = spanOfWords([...line.words, ...below.words], n, true);
      const above = stackedAbove(page, line)?.text ?? '';
      rangesIn(span, (at) => `${above} ${span.text.slice(0, at)}`, found);
    }
  }
  return found.sort((x, y) => y.start.score - x.start.score);
}

const SLASH_DATE = /(?<![\d/.])(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?![\d/])/g;

/**
 * Whether the pages write numeric dates month first (the North American '11/17/2017'): some date
 * only makes sense that way and none only the other way. A bill keeps to one order, so its
 * ambiguous dates ('11/03/2017') are then read month first too.
 */
export function writesMonthFirst(doc: PageDocument, pages: readonly number[]): boolean {
  let monthFirst = 0;
  let dayFirst = 0;
  for (const n of pages) {
    for (const m of doc.pages[n - 1]?.text.matchAll(SLASH_DATE) ?? []) {
      const a = Number(m[1]);
      const b = Number(m[2]);
      if (a >= 1 && a <= 12 && b > 12 && b <= 31) monthFirst += 1;
      if (b >= 1 && b <= 12 && a > 12 && a <= 31) dayFirst += 1;
    }
  }
  return monthFirst > 0 && dayFirst === 0;
}

/** A date read day first from an ambiguous numeric date, read again month first. */
export function asMonthFirst(value: ExtractedValue): ExtractedValue {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\s*$/.exec(value.text);
  if (!m || typeof value.value !== 'string') return value;
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month > 12 || day > 12 || month === day) return value;
  const iso = `${value.value.slice(0, 5)}${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { ...value, value: iso };
}
