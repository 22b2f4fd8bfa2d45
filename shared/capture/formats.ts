/**
 * Reading the values of an invoice from their printed text: prices in the ten PRICE_FORMATS, plain
 * numbers, dates in DATE_FORMATS and the common British layouts, and the markers of estimated reads.
 */
export { type DateOptions, type DateToken, findDates, parseDate } from './date-text.ts';
export {
  findNumbers,
  findPrices,
  guessSeparators,
  type NumberToken,
  type PriceOptions,
  parseNumber,
  parsePrice,
  penceToPoundsText,
  type Separators,
} from './number-text.ts';

export type ReadType = 'actual' | 'estimated' | 'customer';

const READ_MARKERS: Record<string, ReadType> = {
  e: 'estimated',
  est: 'estimated',
  estd: 'estimated',
  estimate: 'estimated',
  estimated: 'estimated',
  a: 'actual',
  act: 'actual',
  actual: 'actual',
  c: 'customer',
  cust: 'customer',
  customer: 'customer',
};

/**
 * The kind of a meter read from its marker: 'E', 'Est', 'Estimated' are estimates; 'A', 'Actual' are
 * actual reads; 'C', 'Customer' are reads the customer gave. The first marker in the text counts.
 */
export function parseReadType(text: string): ReadType | null {
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    const kind = READ_MARKERS[word];
    if (kind) return kind;
  }
  return null;
}

const TRUE_WORDS = new Set(['yes', 'y', 'true', 'x', '✓', '✔']);
const FALSE_WORDS = new Set(['no', 'n', 'false']);

/**
 * Whether a read is estimated, from a marker or a yes/no: true for 'E', 'Est', 'Estimated', 'Yes';
 * false for 'A', 'Actual', 'C', 'Customer', 'No'; null when the text says neither.
 */
export function parseBoolean(text: string): boolean | null {
  const trimmed = text.trim().toLowerCase();
  if (TRUE_WORDS.has(trimmed)) return true;
  if (FALSE_WORDS.has(trimmed)) return false;
  const kind = parseReadType(trimmed);
  if (kind) return kind === 'estimated';
  const first = trimmed.split(/\s+/)[0] ?? '';
  if (TRUE_WORDS.has(first)) return true;
  if (FALSE_WORDS.has(first)) return false;
  return null;
}
