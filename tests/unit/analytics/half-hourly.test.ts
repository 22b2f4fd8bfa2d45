import { describe, expect, it } from 'vitest';
import {
  halfHourlyProblem,
  halfHourlyToDaily,
  halfHourlyToHourly,
  settlementPeriods,
} from '../../../shared/analytics/half-hourly.ts';

const ones = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('half-hourly data in Europe/London', () => {
  it('knows the days with 46 and 50 settlement periods', () => {
    expect(settlementPeriods('2025-03-30')).toBe(46);
    expect(settlementPeriods('2025-10-26')).toBe(50);
    expect(settlementPeriods('2024-03-31')).toBe(46);
    expect(settlementPeriods('2024-10-27')).toBe(50);
    expect(settlementPeriods('2025-03-29')).toBe(48);
    expect(settlementPeriods('2025-06-01')).toBe(48);
  });

  it('makes 24 hours of a normal summer day, starting at local midnight in BST', () => {
    const hours = halfHourlyToHourly({ date: '2025-06-01', values: ones(48) });
    expect(hours).toHaveLength(24);
    expect(hours[0]).toEqual({
      utcStart: '2025-05-31T23:00:00.000Z',
      localStart: '2025-06-01T00:00+01:00',
      value: 3,
      missing: 0,
    });
  });

  it('makes 23 hours when clocks go forward, with no hour from 01:00', () => {
    const hours = halfHourlyToHourly({ date: '2025-03-30', values: ones(46) });
    expect(hours).toHaveLength(23);
    expect(hours[0]?.localStart).toBe('2025-03-30T00:00+00:00');
    expect(hours[1]).toMatchObject({
      utcStart: '2025-03-30T01:00:00.000Z',
      localStart: '2025-03-30T02:00+01:00',
      value: 7,
    });
    expect(hours[22]?.localStart).toBe('2025-03-30T23:00+01:00');
  });

  it('makes 25 hours when clocks go back, the hour from 01:00 twice', () => {
    const hours = halfHourlyToHourly({ date: '2025-10-26', values: ones(50) });
    expect(hours).toHaveLength(25);
    expect(hours.slice(0, 3).map((h) => [h.utcStart, h.localStart])).toEqual([
      ['2025-10-25T23:00:00.000Z', '2025-10-26T00:00+01:00'],
      ['2025-10-26T00:00:00.000Z', '2025-10-26T01:00+01:00'],
      ['2025-10-26T01:00:00.000Z', '2025-10-26T01:00+00:00'],
    ]);
    expect(hours[24]?.localStart).toBe('2025-10-26T23:00+00:00');
    expect(hours.reduce((t, h) => t + h.value, 0)).toBe((50 * 51) / 2);
  });

  it('sums a day and counts missing readings', () => {
    const values = ones(50).map((v, i) => (i === 3 ? null : v));
    expect(halfHourlyToDaily({ date: '2025-10-26', values })).toEqual({
      date: '2025-10-26',
      value: (50 * 51) / 2 - 4,
      missing: 1,
    });
    expect(halfHourlyToHourly({ date: '2025-10-26', values })[1]).toMatchObject({ value: 3, missing: 1 });
  });

  it('refuses a day whose count does not fit its clock', () => {
    expect(halfHourlyProblem({ date: '2025-03-30', values: ones(48) })).toMatch(/46 settlement periods/);
    expect(halfHourlyProblem({ date: '2025-03-30', values: ones(46) })).toBeUndefined();
    expect(() => halfHourlyToDaily({ date: '2025-06-01', values: ones(50) })).toThrow(RangeError);
  });
});
