import { describe, expect, it } from 'vitest';
import { dateRangePresets, singleDatePresets, withRangeDay } from '../../web/lib/date-presets.ts';

const ranges = (now: Date) =>
  Object.fromEntries(dateRangePresets(now).map((p) => [p.label, `${p.start}..${p.end}`]));
const singles = (now: Date) => Object.fromEntries(singleDatePresets(now).map((p) => [p.label, p.date]));

describe('date range presets', () => {
  it('lists the presets of the specification in order, with the two previous calendar years', () => {
    expect(dateRangePresets(new Date(2026, 10, 22)).map((p) => p.label)).toEqual([
      'Current month',
      'Last month',
      'Past month to date',
      'Last 3 calendar months',
      'Last 12 calendar months',
      'Last Quarter',
      'Current year',
      'Past year to date',
      '2025',
      '2024',
    ]);
  });

  it('gives whole calendar months, quarters and years, inclusive of both ends', () => {
    expect(ranges(new Date(2026, 10, 22, 15, 30))).toEqual({
      'Current month': '2026-11-01..2026-11-30',
      'Last month': '2026-10-01..2026-10-31',
      'Past month to date': '2026-10-22..2026-11-22',
      'Last 3 calendar months': '2026-08-01..2026-10-31',
      'Last 12 calendar months': '2025-11-01..2026-10-31',
      'Last Quarter': '2026-07-01..2026-09-30',
      'Current year': '2026-01-01..2026-12-31',
      'Past year to date': '2025-11-22..2026-11-22',
      '2025': '2025-01-01..2025-12-31',
      '2024': '2024-01-01..2024-12-31',
    });
  });

  it('crosses into the previous year in January', () => {
    const january = ranges(new Date(2026, 0, 15));
    expect(january['Last month']).toBe('2025-12-01..2025-12-31');
    expect(january['Last Quarter']).toBe('2025-10-01..2025-12-31');
    expect(january['Last 3 calendar months']).toBe('2025-10-01..2025-12-31');
    expect(january['Last 12 calendar months']).toBe('2025-01-01..2025-12-31');
  });

  it('ends a month back on the shorter month’s last day, and knows leap years', () => {
    expect(ranges(new Date(2024, 2, 31))['Past month to date']).toBe('2024-02-29..2024-03-31');
    expect(ranges(new Date(2025, 2, 31))['Past month to date']).toBe('2025-02-28..2025-03-31');
    expect(ranges(new Date(2024, 1, 29))['Past year to date']).toBe('2023-02-28..2024-02-29');
    expect(ranges(new Date(2024, 1, 10))['Last month']).toBe('2024-01-01..2024-01-31');
    expect(ranges(new Date(2024, 2, 10))['Last month']).toBe('2024-02-01..2024-02-29');
  });
});

describe('single-date presets', () => {
  it('counts back from the local day', () => {
    expect(singles(new Date(2026, 0, 3, 0, 5))).toEqual({
      Today: '2026-01-03',
      Yesterday: '2026-01-02',
      '1 Week Ago': '2025-12-27',
      '1 Month Ago': '2025-12-03',
      '3 Months Ago': '2025-10-03',
      '6 Months Ago': '2025-07-03',
      '1 Year Ago': '2025-01-03',
    });
  });

  it('keeps to the last day of a shorter month', () => {
    expect(singles(new Date(2026, 4, 31))['3 Months Ago']).toBe('2026-02-28');
  });
});

describe('a period typed in by hand', () => {
  const range = { start: '2026-01-01', end: '2026-03-31' };

  it('moves the end typed in and keeps the other', () => {
    expect(withRangeDay(range, 'start', '2026-02-01')).toEqual({ start: '2026-02-01', end: '2026-03-31' });
    expect(withRangeDay(range, 'end', '2026-02-28')).toEqual({ start: '2026-01-01', end: '2026-02-28' });
  });

  it('never lets the ends cross: the other end follows', () => {
    expect(withRangeDay(range, 'start', '2026-05-01')).toEqual({ start: '2026-05-01', end: '2026-05-01' });
    expect(withRangeDay(range, 'end', '2025-12-01')).toEqual({ start: '2025-12-01', end: '2025-12-01' });
  });

  it('ignores an emptied input', () => {
    expect(withRangeDay(range, 'start', '')).toBe(range);
  });
});
