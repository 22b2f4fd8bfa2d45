/**
 * Dates as invoices print them, read to ISO YYYY-MM-DD. Without a format, a numeric date is read day
 * first (the British way) unless only the other order makes a date.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/**
 * French, German and Dutch month names (and their usual abbreviations) that do not begin with the
 * English name's first three letters, by month number, accents optional.
 */
const OTHER_MONTHS: readonly [RegExp, number][] = [
  [/^janv/, 1],
  [/^f[ée]v/, 2],
  [/^mars$/, 3],
  [/^avr/, 4],
  [/^mai$/, 5],
  [/^juin$/, 6],
  [/^juil/, 7],
  [/^ao[uû]/, 8],
  [/^d[ée]c/, 12],
  [/^m(?:[äa]|ae)rz$|^maart$/, 3],
  [/^mei$/, 5],
  [/^okt/, 10],
  [/^dez/, 12],
];
const MONTH = String.raw`(?<![a-zà-ÿ])(jan(?:uary|vier|uar|uari|v)?|feb(?:ruary|ruar|ruari)?|f[ée]v(?:rier|r)?|mar(?:ch|s)?|m(?:[äa]|ae)rz|maart|apr(?:il)?|avr(?:il)?|may|mai|mei|jun[ei]?|juin|jul[iy]?|juil(?:let|l)?|aug(?:ust|ustus)?|ao[uû]t?|sept?(?:ember|embre)?|o[ck]t(?:ober|obre)?|nov(?:ember|embre)?|d[ée]c(?:ember|embre)?|dez(?:ember)?)\.?(?![a-zà-ÿ])`;
const ORDINAL = '(?:st|nd|rd|th|er)?';

export interface DateToken {
  /** YYYY-MM-DD */
  iso: string;
  text: string;
  start: number;
  end: number;
  /** Only a month and year were printed ('Jan 2025'); the date is its first day, or last with monthEnd. */
  monthOnly: boolean;
}

export interface DateOptions {
  /** A month without a day ('Jan-25') means its last day rather than its first (the end of a period). */
  monthEnd?: boolean;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function fullYear(text: string): number {
  const n = Number(text);
  if (text.length === 4) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

function monthOf(name: string): number {
  const lower = name.toLowerCase();
  const other = OTHER_MONTHS.find(([pattern]) => pattern.test(lower));
  if (other) return other[1];
  return MONTHS.indexOf(lower.slice(0, 3)) + 1;
}

function iso(year: number, month: number, day: number): string | undefined {
  if (year < 1900 || year > 2199 || month < 1 || month > 12) return undefined;
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

type Reader = (m: RegExpExecArray, options: DateOptions) => { iso: string; monthOnly: boolean } | undefined;

interface Shape {
  pattern: RegExp;
  read: Reader;
}

const full = (value: string | undefined) => (value ? { iso: value, monthOnly: false } : undefined);

const monthOnly = (year: number, month: number, options: DateOptions) => {
  const value = iso(year, month, options.monthEnd ? daysInMonth(year, month) : 1);
  return value ? { iso: value, monthOnly: true } : undefined;
};

/** The shapes tried without a format; where two match at the same place the longer wins. */
const SHAPES: Shape[] = [
  {
    pattern: /(?<!\d)(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)/g,
    read: (m) => full(iso(Number(m[1]), Number(m[3]), Number(m[4]))),
  },
  {
    pattern: /(?<![\d/.])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?!\d)/g,
    read: (m) => {
      const a = Number(m[1]);
      const b = Number(m[3]);
      const year = fullYear(m[4] ?? '');
      return full(iso(year, b, a) ?? iso(year, a, b));
    },
  },
  {
    pattern: new RegExp(
      String.raw`(?<!\d)(\d{1,2})${ORDINAL}(?:\s+of)?[\s/.,-]*${MONTH}[\s/.,'’-]*(\d{4}|\d{2})(?!\d)`,
      'gi',
    ),
    read: (m) => full(iso(fullYear(m[3] ?? ''), monthOf(m[2] ?? ''), Number(m[1]))),
  },
  {
    pattern: new RegExp(String.raw`${MONTH}\s+(\d{1,2})${ORDINAL}\s*,?\s+(\d{4})(?!\d)`, 'gi'),
    read: (m) => full(iso(Number(m[3]), monthOf(m[1] ?? ''), Number(m[2]))),
  },
  {
    pattern: new RegExp(String.raw`${MONTH}[\s/.,'’-]*(\d{4}|\d{2})(?!\d)`, 'gi'),
    read: (m, options) => monthOnly(fullYear(m[2] ?? ''), monthOf(m[1] ?? ''), options),
  },
];

function collect(text: string, shapes: Shape[], options: DateOptions): DateToken[] {
  const found: DateToken[] = [];
  for (const shape of shapes) {
    for (const m of text.matchAll(shape.pattern)) {
      const read = shape.read(m, options);
      if (!read) continue;
      found.push({ ...read, text: m[0], start: m.index, end: m.index + m[0].length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const chosen: DateToken[] = [];
  for (const token of found) {
    const last = chosen[chosen.length - 1];
    if (last && token.start < last.end) continue;
    chosen.push(token);
  }
  return chosen;
}

/** A DATE_FORMATS layout ('DD/MM/YYYY', 'D MMMM YYYY', ...) as a shape that reads it. */
function formatShape(format: string): Shape | undefined {
  const parts = format.match(/YYYY|YY|MMMM|MMM|MM|DD|D|[^A-Za-z]+/g);
  if (!parts) return undefined;
  const order: ('day' | 'month' | 'monthName' | 'year2' | 'year4')[] = [];
  let source = '(?<!\\d)';
  parts.forEach((part, i) => {
    const prevName = /^MMM/.test(parts[i - 1] ?? '');
    const nextName = /^MMM/.test(parts[i + 1] ?? '');
    switch (part) {
      case 'YYYY':
        order.push('year4');
        source += '(\\d{4})';
        break;
      case 'YY':
        order.push('year2');
        source += '(\\d{2})';
        break;
      case 'MMMM':
      case 'MMM':
        order.push('monthName');
        source += MONTH;
        break;
      case 'MM':
        order.push('month');
        source += '(\\d{1,2})';
        break;
      case 'DD':
      case 'D':
        order.push('day');
        source += `(\\d{1,2})${ORDINAL}`;
        break;
      default:
        source += prevName || nextName ? "[\\s/.,'’-]*" : '\\s*[\\s/.-]\\s*';
    }
  });
  source += '(?!\\d)';
  const pattern = new RegExp(source, 'gi');
  return {
    pattern,
    read: (m, options) => {
      let day: number | undefined;
      let month = 0;
      let year = 0;
      order.forEach((kind, i) => {
        const value = m[i + 1] ?? '';
        if (kind === 'day') day = Number(value);
        else if (kind === 'month') month = Number(value);
        else if (kind === 'monthName') month = monthOf(value);
        else year = fullYear(value);
      });
      if (day === undefined) return monthOnly(year, month, options);
      return full(iso(year, month, day));
    },
  };
}

const formatShapes = new Map<string, Shape | undefined>();

/** Every date in a text, in order. A format of DATE_FORMATS is tried first; other layouts still count. */
export function findDates(text: string, format?: string, options: DateOptions = {}): DateToken[] {
  if (!/\d/.test(text)) return [];
  if (format) {
    if (!formatShapes.has(format)) formatShapes.set(format, formatShape(format));
    const shape = formatShapes.get(format);
    if (shape) {
      const byFormat = collect(text, [shape], options);
      if (byFormat.length > 0) return byFormat;
    }
  }
  const key = `${options.monthEnd ? 1 : 0}${text}`;
  let found = recent.get(key);
  if (!found) {
    found = collect(text, SHAPES, options);
    // The same texts are searched for dates many times over while one document is read.
    if (recent.size >= 2000) recent.clear();
    recent.set(key, found);
  }
  return found.map((d) => ({ ...d }));
}

const recent = new Map<string, DateToken[]>();

/** The first date of a text as YYYY-MM-DD, or null. */
export function parseDate(text: string, format?: string, options: DateOptions = {}): string | null {
  return findDates(text, format, options)[0]?.iso ?? null;
}
