/**
 * Money, dates and quantities for the bill checks. Money is compared in whole pence so that sums of
 * lines never drift by fractions of a penny; dates are whole days since 1970-01-01 (UTC) so that period
 * arithmetic has no clock or time-zone in it.
 */

const MS_PER_DAY = 86_400_000;

// ---------------------------------------------------------------- money

/** Pounds to whole pence. The value goes through 12 significant digits first: 1.005 * 100 is 100.49999…. */
export function toPence(pounds: number): number {
  return Math.round(Number((pounds * 100).toPrecision(12)));
}

// Made on first use: the first Intl object of a process loads the locale data (~10 ms), which functions
// that import the bill checks but do not format money should not pay at a cold start.
let gbp: Intl.NumberFormat | undefined;

/** "£1,234.50", "-£12.00" */
export function money(pence: number): string {
  gbp ??= new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
  return gbp.format(pence / 100);
}

/** A price per unit with as many decimals as it has (up to 5), at least 2: "£0.285", "£0.00775". */
export function unitPrice(pounds: number, unit?: string): string {
  const [whole, decimals = ''] = Math.abs(pounds).toFixed(5).split('.');
  const trimmed = decimals.replace(/0+$/, '').padEnd(2, '0');
  const sign = pounds < 0 ? '-' : '';
  return `${sign}£${Number(whole).toLocaleString('en-GB')}.${trimmed}${unit ? `/${unit}` : ''}`;
}

// ---------------------------------------------------------------- numbers

export function quantity(value: number, unit?: string): string {
  const text = value.toLocaleString('en-GB', { maximumFractionDigits: 2 });
  return unit ? `${text} ${unit}` : text;
}

export function percent(value: number): string {
  return `${value.toLocaleString('en-GB', { maximumFractionDigits: 1 })}%`;
}

/** Rounds away binary noise (0.1 + 0.2) before a figure is reported. */
export function round(value: number, decimals = 4): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

// ---------------------------------------------------------------- dates

/** Whole days since 1970-01-01 of a YYYY-MM-DD date (a time after it is ignored), or undefined. */
export function dayNumber(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  return Date.UTC(y, mo - 1, d) / MS_PER_DAY;
}

export function isoOfDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Dates are shown DD/MM/YYYY. */
export function showDate(isoOrDay: string | number): string {
  const iso = typeof isoOrDay === 'number' ? isoOfDay(isoOrDay) : isoOrDay;
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2024-01" -> "Jan 2024" */
export function showMonth(month: string): string {
  return `${MONTH_NAMES[Number(month.slice(5, 7)) - 1] ?? month.slice(5, 7)} ${month.slice(0, 4)}`;
}

/** The same day n months later (earlier when negative), clamped to the end of a shorter month. */
export function addMonths(day: number, months: number): number {
  const d = new Date(day * MS_PER_DAY);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  const date = Math.min(d.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month - 1, date) / MS_PER_DAY;
}

export interface MonthShare {
  /** YYYY-MM */
  month: string;
  /** Days of the range in the month */
  days: number;
  daysInMonth: number;
}

/** The calendar months a range of days (inclusive) touches, with how many of its days fall in each. */
export function monthsOf(first: number, last: number): MonthShare[] {
  const out: MonthShare[] = [];
  let day = first;
  while (day <= last) {
    const d = new Date(day * MS_PER_DAY);
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    const length = daysInMonth(year, month);
    const monthEnd = day + (length - d.getUTCDate());
    const end = Math.min(monthEnd, last);
    out.push({
      month: `${year}-${String(month).padStart(2, '0')}`,
      days: end - day + 1,
      daysInMonth: length,
    });
    day = end + 1;
  }
  return out;
}

// ---------------------------------------------------------------- units

/** A unit's spelling reduced to a canonical form: "KWH" -> "kwh", "m3" -> "m³", "days" -> "day". */
export function unitKey(unit: string): string {
  const u = unit
    .trim()
    .toLowerCase()
    .replace(/^(per\s+|\/)/, '')
    .replace(/\s+/g, '');
  if (u === 'm3' || u === 'cubicmetres' || u === 'cubicmeters') return 'm³';
  if (u === 'days' || u === 'd') return 'day';
  if (u === 'months') return 'month';
  return u;
}

const ENERGY_IN_KWH: Readonly<Record<string, number>> = { wh: 0.001, kwh: 1, mwh: 1000 };

/** How many `to` units one `from` unit is (1 MWh is 1000 kWh), or undefined when they do not convert. */
export function unitFactor(from: string, to: string): number | undefined {
  const a = unitKey(from);
  const b = unitKey(to);
  if (a === b) return 1;
  const ea = ENERGY_IN_KWH[a];
  const eb = ENERGY_IN_KWH[b];
  return ea !== undefined && eb !== undefined ? ea / eb : undefined;
}

export function isEnergyUnit(unit: string): boolean {
  return ENERGY_IN_KWH[unitKey(unit)] !== undefined;
}

export function toKwh(value: number, unit: string): number | undefined {
  const f = unitFactor(unit, 'kWh');
  return f === undefined ? undefined : value * f;
}
