import { NUMBER_FORMATS, PRICE_FORMATS } from '../data/template-value-format.ts';

/**
 * Amounts and quantities as invoices print them: thousands separators of four kinds, a decimal point or
 * comma, the pound sign before or after, pence, and the three ways accounts mark a credit: brackets,
 * a trailing CR and a minus sign.
 */

export interface Separators {
  thousands: ',' | '.' | ' ' | '';
  decimal: '.' | ',';
}

/** A number found in a text, with what surrounds it. */
export interface NumberToken {
  /** The whole match: brackets, sign, currency, digits and suffixes. */
  text: string;
  start: number;
  end: number;
  /** The digits with their separators as printed. */
  digits: string;
  value: number;
  negative: boolean;
  currency?: 'before' | 'after';
  /** Marked as pence ('25.123p', '12 pence'). */
  pence: boolean;
  percent: boolean;
}

const NUM_PLAIN = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?|[.,]\d+`;
const NUM_SPACED = String.raw`\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?`;

function tokenPattern(spaced: boolean): RegExp {
  const num = spaced ? `${NUM_SPACED}|${NUM_PLAIN}` : NUM_PLAIN;
  return new RegExp(
    String.raw`(?<![\w.,/:£$€-])(?<open>\(\s*)?(?<sign>[-+])?(?<cur>(?:£|€|\$|GBP|EUR)\s*)?(?<open2>\(\s*)?(?<sign2>-)?` +
      String.raw`(?<num>${num})(?![\d:]|\/\d|[.,]\d|-\d)(?<pence>\s*(?:pence|p)(?![a-z]))?` +
      String.raw`(?<cur2>\s*(?:£|€|GBP|EUR)(?![a-z]|\s*[-(]?\s*[\d.,]))?(?<pct>\s*%)?(?<close>\s*\))?` +
      String.raw`(?<cr>\s*(?:CR|DR)(?![a-z])|-(?!\s*\d))?`,
    'gi',
  );
}

const PLAIN_PATTERN = tokenPattern(false);
const SPACED_PATTERN = tokenPattern(true);

/** Unicode minus signs and dashes that stand for a minus. Same length, so offsets hold. */
function normaliseMinus(text: string): string {
  return text.replace(/[\u2212\u2012\u2013\u2014]/g, '-');
}

/**
 * Pence a PDF's text layer sets apart from their amount ('1.234, 56', '1,234. 56'): joined again when
 * the amount before them is grouped in thousands, so a list of numbers ('12, 34') stays a list. The
 * space moves behind the pence, so offsets hold.
 */
function joinBrokenDecimals(text: string): string {
  return text.replace(
    /(?<![\d.,])(\d{1,3}(?:\.\d{3})+,|\d{1,3}(?:,\d{3})+\.)[ \u00a0](\d{2})(?![\d.,])/g,
    '$1$2 ',
  );
}

/**
 * Thousands set apart by an apostrophe, as Swiss bills print them ('1'068.45'): the apostrophe becomes
 * a comma, so the amount reads as grouped thousands and offsets hold.
 */
function normaliseApostrophes(text: string): string {
  return text.replace(/(?<![\w'’.,])\d{1,3}(?:['’]\d{3})+(?:\.\d+)?(?![\w'’])/g, (m) =>
    m.replace(/['’]/g, ','),
  );
}

/**
 * Thousands grouped by spaces with a decimal comma ('1 234,56') are one amount, as French and Dutch
 * bills print them; a count beside an amount with a decimal point ('31 100.00') is not.
 */
const SPACED_WITH_COMMA = /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+,\d{2}$/;

function validUnder(digits: string, sep: Separators): boolean {
  const parts = digits.split(sep.decimal);
  if (parts.length > 2) return false;
  const [int = '', frac] = parts;
  if (frac !== undefined && !/^\d+$/.test(frac)) return false;
  if (int === '') return frac !== undefined;
  if (sep.thousands === '') return /^\d+$/.test(int);
  const thousands = sep.thousands === ' ' ? /[ \u00a0\u202f]/ : sep.thousands;
  const groups = int.split(thousands);
  if (groups.length === 1) return /^\d+$/.test(int);
  return /^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/** Guesses the separators of a printed number, reading it the British way when it could go either way. */
export function guessSeparators(digits: string, currencyAfter = false): Separators {
  const compact = digits.replace(/[ \u00a0\u202f]/g, ' ');
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  const spaced = compact.includes(' ');
  if (lastDot >= 0 && lastComma >= 0) {
    return lastDot > lastComma ? { thousands: ',', decimal: '.' } : { thousands: '.', decimal: ',' };
  }
  if (lastComma >= 0) {
    const commas = compact.split(',').length - 1;
    if (commas > 1) return { thousands: ',', decimal: '.' };
    const after = compact.length - lastComma - 1;
    const before = compact.slice(0, lastComma).replace(/\D/g, '');
    if (currencyAfter || spaced) return { thousands: spaced ? ' ' : '.', decimal: ',' };
    return after === 3 && before !== '' && before !== '0'
      ? { thousands: ',', decimal: '.' }
      : { thousands: spaced ? ' ' : '', decimal: ',' };
  }
  if (lastDot >= 0) {
    const dots = compact.split('.').length - 1;
    if (dots > 1) return { thousands: '.', decimal: ',' };
    const after = compact.length - lastDot - 1;
    const before = compact.slice(0, lastDot).replace(/\D/g, '');
    if (currencyAfter && after === 3 && before !== '' && before !== '0' && !spaced) {
      return { thousands: '.', decimal: ',' };
    }
    return { thousands: spaced ? ' ' : '', decimal: '.' };
  }
  return { thousands: spaced ? ' ' : '', decimal: '.' };
}

/** The digits as a plain decimal string ('1234.56'), or undefined when they do not fit the separators. */
function toPlain(digits: string, sep: Separators): string | undefined {
  if (!validUnder(digits, sep)) return undefined;
  const noThousands =
    sep.thousands === ''
      ? digits
      : sep.thousands === ' '
        ? digits.replace(/[ \u00a0\u202f]/g, '')
        : digits.split(sep.thousands).join('');
  const plain = noThousands.replace(sep.decimal, '.');
  return /^(\d+(\.\d*)?|\.\d+)$/.test(plain) ? plain : undefined;
}

/** Moves the decimal point two places left without floating-point error: '25.123' becomes '0.25123'. */
export function penceToPoundsText(plain: string): string {
  const [int = '0', frac = ''] = plain.split('.');
  const padded = int.padStart(3, '0');
  return `${padded.slice(0, -2)}.${padded.slice(-2)}${frac}`;
}

function makeToken(match: RegExpExecArray, sep: Separators | undefined): NumberToken | undefined {
  const g = match.groups ?? {};
  const digits = g.num ?? '';
  const currency = g.cur ? 'before' : g.cur2 ? 'after' : undefined;
  let plain = sep ? toPlain(digits, sep) : undefined;
  plain ??= toPlain(digits, guessSeparators(digits, currency === 'after'));
  if (plain === undefined) return undefined;
  const open = g.open ?? g.open2;
  const bracketed = Boolean(open && g.close);
  const cr = (g.cr ?? '').trim().toUpperCase();
  const negative = bracketed || cr === 'CR' || cr === '-' || Boolean(g.sign?.startsWith('-') || g.sign2);
  const value = Number(plain);
  // A bracket that is not closed belongs to the surrounding text, not to the number.
  const start = match.index + (g.open && !g.close ? g.open.length : 0);
  const end = match.index + match[0].length - (g.close && !open ? g.close.length : 0);
  return {
    text: match.input.slice(start, end),
    start,
    end,
    digits,
    value: negative && value !== 0 ? -value : value,
    negative,
    ...(currency ? { currency } : {}),
    pence: Boolean(g.pence),
    percent: Boolean(g.pct),
  };
}

/**
 * Every number in a text, in order. With separators (a template's format) numbers are read that way
 * where they fit it; without, each number's separators are guessed.
 */
export function findNumbers(text: string, sep?: Separators): NumberToken[] {
  const source = joinBrokenDecimals(normaliseApostrophes(normaliseMinus(text)));
  const pattern = sep?.thousands === ' ' ? SPACED_PATTERN : PLAIN_PATTERN;
  const auto = sep === undefined;
  const tokens: NumberToken[] = [];
  for (const match of source.matchAll(auto ? SPACED_PATTERN : pattern)) {
    const g = match.groups ?? {};
    // Space-grouped digits are only one number when a currency sign vouches for it ('£1 234.56');
    // otherwise '31 100.00' is two.
    if (
      auto &&
      /[ \u00a0\u202f]/.test(g.num ?? '') &&
      !g.cur &&
      !g.cur2 &&
      !SPACED_WITH_COMMA.test(g.num ?? '')
    ) {
      const offset = match.index;
      for (const inner of match[0].matchAll(PLAIN_PATTERN)) {
        const shifted = Object.assign([...inner], {
          index: offset + inner.index,
          input: source,
          groups: inner.groups,
        }) as unknown as RegExpExecArray;
        const token = makeToken(shifted, undefined);
        if (token) tokens.push(token);
      }
      continue;
    }
    const token = makeToken(match, sep);
    if (token) tokens.push(token);
  }
  return tokens;
}

function priceSeparators(format?: string): Separators | undefined {
  if (!format) return undefined;
  const found = PRICE_FORMATS.find((f) => f.value === format);
  return found ? { thousands: found.thousands, decimal: found.decimal } : undefined;
}

/** The separators of a NUMBER_FORMATS (or PRICE_FORMATS) entry. */
export function numberSeparators(format?: string): Separators | undefined {
  if (!format) return undefined;
  const found =
    NUMBER_FORMATS.find((f) => f.value === format) ?? PRICE_FORMATS.find((f) => f.value === format);
  return found ? { thousands: found.thousands, decimal: found.decimal } : undefined;
}

export interface PriceOptions {
  /** Convert amounts marked as pence ('25.123p') to pounds. */
  penceToPounds?: boolean;
}

/** How likely a number is to be the amount of a text that holds several. */
function priceScore(token: NumberToken): number {
  let score = 0;
  if (token.currency) score += 4;
  if (token.pence) score += 3;
  const decimals = /[.,](\d+)$/.exec(token.digits)?.[1]?.length ?? 0;
  if (decimals > 0) score += 1;
  if (decimals === 2) score += 1;
  return score;
}

/** The amounts of a text (numbers that are not percentages), in order. */
export function findPrices(text: string, format?: string, options: PriceOptions = {}): NumberToken[] {
  return findNumbers(text, priceSeparators(format))
    .filter((t) => !t.percent && !/^[A-Za-z]/.test(text.slice(t.end)))
    .map((t) => (options.penceToPounds && t.pence ? toPounds(t) : t));
}

function toPounds(token: NumberToken): NumberToken {
  const abs = Math.abs(token.value);
  const [int, frac = ''] = String(abs).includes('e') ? [abs.toFixed(12)] : String(abs).split('.');
  const pounds = Number(penceToPoundsText(frac ? `${int}.${frac}` : (int ?? '0')));
  return { ...token, value: token.negative ? -pounds : pounds };
}

/**
 * The amount in a text as a number of pounds (or of the printed currency). The format is one of the ten
 * PRICE_FORMATS; without it the separators are guessed. Of several numbers the one that looks most like
 * an amount wins (a currency sign, pence, two decimals), the first on a tie; percentages never do.
 */
export function parsePrice(text: string, format?: string, options: PriceOptions = {}): number | null {
  return pickPrice(findPrices(text, format, options))?.value ?? null;
}

/** Of several numbers, the one that looks most like an amount; the first on a tie. */
export function pickPrice(tokens: readonly NumberToken[]): NumberToken | undefined {
  let best: NumberToken | undefined;
  for (const token of tokens) {
    if (!best || priceScore(token) > priceScore(best)) best = token;
  }
  return best;
}

/** The first number of a text: a read, a consumption, a rate of VAT. Units and percent signs may follow. */
export function parseNumber(text: string, format?: string): number | null {
  const first = findNumbers(text, numberSeparators(format))[0];
  return first ? first.value : null;
}
