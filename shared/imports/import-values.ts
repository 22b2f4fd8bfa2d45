/**
 * Values as spreadsheets write them: numbers with pound signs and thousands separators, dates day first
 * unless the file proves otherwise, months written many ways, and times of day.
 */

export const DATE_FORMATS = ['DMY', 'MDY', 'YMD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A number, allowing £, thousands separators, spaces and a trailing unit; undefined when it is not one. */
export function parseNumber(text: string): number | undefined {
  let t = text.trim().replace(/^£|^GBP\s*/i, '');
  if (t === '') return undefined;
  const negative = /^\(.*\)$/.test(t);
  if (negative) t = t.slice(1, -1);
  t = t
    .replace(/£/g, '')
    .replace(/,(?=\d{3}(\D|$))/g, '')
    .replace(/\s+/g, '')
    .replace(/(kwh|m3|m³|l)$/i, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? (negative ? -n : n) : undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

function validDate(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** A calendar date as YYYY-MM-DD; the text may carry a time after it, which is ignored here. */
export function parseDate(text: string, format: DateFormat = 'DMY'): string | undefined {
  const t = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s].*)?$/.exec(t);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{2,4})(?:[T\s].*)?$/.exec(t);
  if (m) {
    const [a, b, c] = [m[1] as string, m[2] as string, m[3] as string];
    if (a.length === 4) return validDate(Number(a), Number(b), Number(c));
    if (format === 'MDY') return validDate(fullYear(c), Number(a), Number(b));
    return validDate(fullYear(c), Number(b), Number(a));
  }
  m = /^(\d{1,2})[\s-]([A-Za-z]{3,9})[\s-](\d{2,4})$/.exec(t);
  if (m) {
    const month = MONTH_NAMES.indexOf((m[2] as string).slice(0, 3).toLowerCase()) + 1;
    return month > 0 ? validDate(fullYear(m[3] as string), month, Number(m[1])) : undefined;
  }
  return undefined;
}

/** A month as YYYY-MM: 2025-01, 01/2025, Jan-25, January 2025, or any date within it. */
export function parseMonth(text: string, format: DateFormat = 'DMY'): string | undefined {
  const t = text.trim();
  let m = /^(\d{4})-(\d{1,2})$/.exec(t) ?? /^(\d{4})(\d{2})$/.exec(t);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${m[1]}-${pad(Number(m[2]))}` : undefined;
  m = /^(\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) return Number(m[1]) >= 1 && Number(m[1]) <= 12 ? `${m[2]}-${pad(Number(m[1]))}` : undefined;
  m = /^([A-Za-z]{3,9})[\s-](\d{2,4})$/.exec(t);
  if (m) {
    const month = MONTH_NAMES.indexOf((m[1] as string).slice(0, 3).toLowerCase()) + 1;
    const year = fullYear(m[2] as string);
    return month > 0 && year >= 1900 ? `${year}-${pad(month)}` : undefined;
  }
  return parseDate(t, format)?.slice(0, 7);
}

/** A time of day HH:MM at the end of a timestamp, with the UTC offset when it says one. */
export function parseTime(text: string): { minutes: number; offsetMinutes?: number } | undefined {
  const m = /(?:^|[T\s])(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59 || (h === 24 && min !== 0)) return undefined;
  const zone = m[3];
  const offsetMinutes =
    zone === undefined
      ? undefined
      : zone === 'Z'
        ? 0
        : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  return { minutes: h * 60 + min, ...(offsetMinutes !== undefined ? { offsetMinutes } : {}) };
}

/** The date order a column's values prove: a first part above 12 is a day, a second part above 12 too. */
export function guessDateFormat(values: readonly string[]): DateFormat {
  let dayFirst = false;
  let monthFirst = false;
  let yearFirst = false;
  for (const v of values) {
    const m = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{2,4})/.exec(v.trim());
    if (!m) continue;
    if ((m[1] as string).length === 4) yearFirst = true;
    else if (Number(m[1]) > 12) dayFirst = true;
    else if (Number(m[2]) > 12) monthFirst = true;
  }
  if (monthFirst && !dayFirst) return 'MDY';
  if (yearFirst && !dayFirst && !monthFirst) return 'YMD';
  return 'DMY';
}

/**
 * A cell as it may be written to a CSV that a spreadsheet opens: text starting with =, +, - or @ (or a tab
 * or carriage return) would be run as a formula, so it is prefixed with a quote and kept as text.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A name as rows and stored items are matched by: whatever its case and surrounding spaces. */
export function caseless(value: unknown): string {
  return String(value ?? '')
    .trim()
    .toLowerCase();
}
