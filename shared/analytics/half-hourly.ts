/**
 * Half-hourly meter data: 48 settlement periods a day in UK local time, 46 on the day clocks go forward
 * (last Sunday of March) and 50 on the day they go back (last Sunday of October), Europe/London rules since
 * 1996. Periods count from local midnight, so on the short day the hour from 01:00 does not exist and on
 * the long day the hour from 01:00 happens twice, once in BST and once in GMT.
 */
import { dayNumber, isoDate } from './dates.ts';

const HALF_HOUR_MS = 1_800_000;
const DAY_MS = 86_400_000;

function lastSunday(year: number, month: number): number {
  const last =
    dayNumber(`${year}-${String(month).padStart(2, '0')}-01`) +
    new Date(Date.UTC(year, month, 0)).getUTCDate() -
    1;
  // 1970-01-01 was a Thursday (weekday 4, Sunday 0).
  return last - ((last + 4) % 7);
}

/** Clocks change at 01:00 UTC on these days. */
function summerTimeDays(year: number): { begins: number; ends: number } {
  return { begins: lastSunday(year, 3), ends: lastSunday(year, 10) };
}

/** Settlement periods in the local day: 46, 48 or 50. */
export function settlementPeriods(date: string): 46 | 48 | 50 {
  const day = dayNumber(date);
  const { begins, ends } = summerTimeDays(Number(date.slice(0, 4)));
  if (day === begins) return 46;
  if (day === ends) return 50;
  return 48;
}

/** UTC offset in hours (0 or 1) at a UTC instant in ms. */
function londonOffsetAt(utcMs: number): 0 | 1 {
  const day = Math.floor(utcMs / DAY_MS);
  const { begins, ends } = summerTimeDays(Number(isoDate(day).slice(0, 4)));
  const from = begins * DAY_MS + 3_600_000;
  const to = ends * DAY_MS + 3_600_000;
  return utcMs >= from && utcMs < to ? 1 : 0;
}

/** Local midnight as a UTC instant: midnight is in BST on the day clocks go back, in GMT when they go forward. */
function localMidnightUtc(date: string): number {
  const utcMidnight = dayNumber(date) * DAY_MS;
  return utcMidnight - londonOffsetAt(utcMidnight - 3_600_000) * 3_600_000;
}

function localStamp(utcMs: number): string {
  const offset = londonOffsetAt(utcMs);
  const local = new Date(utcMs + offset * 3_600_000).toISOString().slice(0, 16);
  return `${local}+0${offset}:00`;
}

export interface HourlyValue {
  /** Start of the hour, UTC, e.g. 2025-10-26T00:00:00.000Z */
  utcStart: string;
  /** Start of the hour in London time with its offset, e.g. 2025-10-26T01:00+01:00 */
  localStart: string;
  value: number;
  /** Half hours of the hour with no reading */
  missing: number;
}

export interface HalfHourlyDay {
  /** YYYY-MM-DD, the local day */
  date: string;
  /** In settlement-period order; null for a missing reading */
  values: readonly (number | null)[];
}

/** Why a day's readings cannot be used, or undefined when the count suits the day. */
export function halfHourlyProblem(day: HalfHourlyDay): string | undefined {
  const expected = settlementPeriods(day.date);
  if (day.values.length !== expected) {
    return `${day.date} has ${day.values.length} half-hourly values; a day of ${expected} settlement periods was expected`;
  }
  return undefined;
}

function check(day: HalfHourlyDay): void {
  const problem = halfHourlyProblem(day);
  if (problem) throw new RangeError(problem);
}

/** Pairs of settlement periods summed into clock hours: 23 on the short day, 25 on the long day. */
export function halfHourlyToHourly(day: HalfHourlyDay): HourlyValue[] {
  check(day);
  const midnight = localMidnightUtc(day.date);
  const hours: HourlyValue[] = [];
  for (let i = 0; i < day.values.length; i += 2) {
    const pair = [day.values[i], day.values[i + 1]];
    const start = midnight + i * HALF_HOUR_MS;
    hours.push({
      utcStart: new Date(start).toISOString(),
      localStart: localStamp(start),
      value: pair.reduce<number>((sum, v) => sum + (v ?? 0), 0),
      missing: pair.filter((v) => v === null || v === undefined).length,
    });
  }
  return hours;
}

/** A day's total, with how many half hours were missing. */
export function halfHourlyToDaily(day: HalfHourlyDay): { date: string; value: number; missing: number } {
  check(day);
  return {
    date: day.date,
    value: day.values.reduce<number>((sum, v) => sum + (v ?? 0), 0),
    missing: day.values.filter((v) => v === null).length,
  };
}

/** Where each settlement period of a local day starts, in UTC and in London time with its offset. */
export function settlementPeriodStarts(date: string): { utcStart: string; localStart: string }[] {
  const midnight = localMidnightUtc(date);
  return Array.from({ length: settlementPeriods(date) }, (_, i) => {
    const start = midnight + i * HALF_HOUR_MS;
    return { utcStart: new Date(start).toISOString(), localStart: localStamp(start) };
  });
}
