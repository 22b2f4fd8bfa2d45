import { describe, expect, it } from 'vitest';
import { bucketDaily, spreadMonthly, withoutCosts } from '../../../shared/analytics/aggregate.ts';
import { bucketOf, bucketsBetween, financialYearOf } from '../../../shared/analytics/calendars.ts';
import { daysInclusive } from '../../../shared/analytics/dates.ts';

const range = (b: { start: string; end: string }) => [b.start, b.end];

describe('standard calendar buckets', () => {
  it('uses calendar months, quarters and years', () => {
    expect(bucketOf('2025-03-31', 'monthly')).toEqual({
      key: '2025-03',
      label: 'Mar 2025',
      start: '2025-03-01',
      end: '2025-03-31',
    });
    expect(range(bucketOf('2024-02-10', 'monthly'))).toEqual(['2024-02-01', '2024-02-29']);
    expect(bucketOf('2025-03-31', 'quarterly')).toMatchObject({
      key: '2025-Q1',
      start: '2025-01-01',
      end: '2025-03-31',
    });
    expect(bucketOf('2025-04-01', 'quarterly').key).toBe('2025-Q2');
    expect(range(bucketOf('2025-07-04', 'yearly'))).toEqual(['2025-01-01', '2025-12-31']);
    expect(bucketOf('2025-07-04', 'daily').key).toBe('2025-07-04');
  });

  it('uses ISO weeks from Monday, a year-end week belonging to the year of its Thursday', () => {
    expect(bucketOf('2025-01-01', 'weekly')).toMatchObject({
      key: '2025-W01',
      start: '2024-12-30',
      end: '2025-01-05',
    });
    expect(bucketOf('2024-12-29', 'weekly')).toMatchObject({ key: '2024-W52', start: '2024-12-23' });
    expect(bucketOf('2021-01-03', 'weekly')).toMatchObject({
      key: '2020-W53',
      start: '2020-12-28',
      end: '2021-01-03',
    });
  });
});

describe('13-week periods of the UK financial year (4-4-5)', () => {
  const cal = 'thirteen-week' as const;

  it('starts the year on 1 April', () => {
    expect(financialYearOf('2025-03-31')).toBe(2024);
    expect(financialYearOf('2025-04-01')).toBe(2025);
    expect(bucketOf('2025-04-01', 'yearly', cal)).toEqual({
      key: 'FY2025',
      label: 'FY2025/26',
      start: '2025-04-01',
      end: '2026-03-31',
    });
  });

  it('cuts each quarter into periods of 4, 4 and 5 weeks', () => {
    expect(bucketOf('2025-04-28', 'monthly', cal)).toMatchObject({
      key: 'FY2025-P01',
      start: '2025-04-01',
      end: '2025-04-28',
    });
    expect(range(bucketOf('2025-04-29', 'monthly', cal))).toEqual(['2025-04-29', '2025-05-26']);
    expect(range(bucketOf('2025-06-30', 'monthly', cal))).toEqual(['2025-05-27', '2025-06-30']);
    expect(bucketOf('2025-07-01', 'monthly', cal).key).toBe('FY2025-P04');
  });

  it('has quarters of 13 weeks, the last taking the day left over to 31 March', () => {
    expect(range(bucketOf('2025-06-30', 'quarterly', cal))).toEqual(['2025-04-01', '2025-06-30']);
    expect(range(bucketOf('2025-09-29', 'quarterly', cal))).toEqual(['2025-07-01', '2025-09-29']);
    expect(bucketOf('2025-09-30', 'quarterly', cal).key).toBe('FY2025-Q3');
    const q4 = bucketOf('2026-03-31', 'quarterly', cal);
    expect(q4).toMatchObject({ key: 'FY2025-Q4', start: '2025-12-30', end: '2026-03-31' });
    expect(daysInclusive(q4.start, q4.end)).toBe(92);
    const p12 = bucketOf('2026-03-31', 'monthly', cal);
    expect(range(p12)).toEqual(['2026-02-24', '2026-03-31']);
    expect(daysInclusive(p12.start, p12.end)).toBe(36);
  });

  it('gives a year with 29 February two extra days in its last period', () => {
    const p12 = bucketOf('2024-03-31', 'monthly', cal);
    expect(p12.key).toBe('FY2023-P12');
    expect(daysInclusive(p12.start, p12.end)).toBe(37);
  });

  it('counts weeks from 1 April with the remainder in week 52', () => {
    expect(bucketOf('2025-04-07', 'weekly', cal)).toMatchObject({ key: 'FY2025-W01', start: '2025-04-01' });
    expect(bucketOf('2025-04-08', 'weekly', cal).key).toBe('FY2025-W02');
    expect(bucketOf('2026-03-31', 'weekly', cal)).toMatchObject({
      key: 'FY2025-W52',
      start: '2026-03-24',
      end: '2026-03-31',
    });
  });
});

describe('rail calendar', () => {
  const cal = 'rail' as const;

  it('has 13 four-week periods from 1 April, period 13 running to 31 March', () => {
    expect(range(bucketOf('2025-04-01', 'monthly', cal))).toEqual(['2025-04-01', '2025-04-28']);
    expect(range(bucketOf('2025-06-23', 'monthly', cal))).toEqual(['2025-05-27', '2025-06-23']);
    expect(bucketOf('2025-06-24', 'monthly', cal).key).toBe('FY2025-P04');
    const p13 = bucketOf('2026-03-31', 'monthly', cal);
    expect(p13).toMatchObject({
      key: 'FY2025-P13',
      label: 'FY2025/26 P13',
      start: '2026-03-03',
      end: '2026-03-31',
    });
    expect(bucketsBetween('2025-04-01', '2026-03-31', 'monthly', cal)).toHaveLength(13);
  });

  it('groups periods 1-3, 4-6, 7-9 and 10-13 into quarters', () => {
    expect(range(bucketOf('2025-04-01', 'quarterly', cal))).toEqual(['2025-04-01', '2025-06-23']);
    expect(range(bucketOf('2026-01-15', 'quarterly', cal))).toEqual(['2025-12-09', '2026-03-31']);
  });
});

describe('bucketing daily figures', () => {
  it('refuses a malformed date', () => {
    expect(() => bucketOf('2025-13-01', 'monthly')).toThrow(RangeError);
  });

  it('covers a window with buckets that neither gap nor overlap', () => {
    for (const calendar of ['standard', 'thirteen-week', 'rail'] as const) {
      for (const granularity of ['weekly', 'monthly', 'quarterly', 'yearly'] as const) {
        const buckets = bucketsBetween('2024-01-01', '2026-12-31', granularity, calendar);
        for (let i = 1; i < buckets.length; i++) {
          expect(daysInclusive(buckets[i - 1]?.end ?? '', buckets[i]?.start ?? '')).toBe(2);
        }
      }
    }
  });

  it('sums quantity, cost and the estimated part per bucket', () => {
    const cost = { net: 1, vat: 0.2, ccl: 0, standing: 0.5 };
    const totals = bucketDaily(
      [
        { date: '2025-03-31', quantity: 10, cost },
        { date: '2025-04-01', quantity: 20, cost, estimated: true },
        { date: '2025-04-02', quantity: 30, cost },
      ],
      'monthly',
    );
    expect(totals.map((t) => [t.key, t.days, t.quantity, t.estimatedQuantity])).toEqual([
      ['2025-03', 1, 10, 0],
      ['2025-04', 2, 50, 20],
    ]);
    expect(totals[1]?.cost).toEqual({ net: 2, vat: 0.4, ccl: 0, standing: 1 });
    expect(totals[1]?.estimatedCost).toEqual(cost);
    const hidden = withoutCosts(totals);
    expect(hidden[1]).toMatchObject({ key: '2025-04', quantity: 50 });
    expect(Object.keys(hidden[1] ?? {})).not.toContain('cost');
    expect(Object.keys(hidden[1] ?? {})).not.toContain('estimatedCost');
  });

  it('spreads monthly figures over their days to bucket them under a financial calendar', () => {
    // April 2025 (30 days, 300) and May 2025 (31 days, 620): P1 is 1-28 April, P2 29 April to 26 May.
    const days = spreadMonthly([
      { month: '2025-04', quantity: 300 },
      { month: '2025-05', quantity: 620, estimated: true },
    ]);
    const [p1, p2, p3] = bucketDaily(days, 'monthly', 'rail');
    expect(p1?.quantity).toBeCloseTo(280, 9);
    expect(p2?.quantity).toBeCloseTo(20 + 26 * 20, 9);
    expect(p2?.estimatedQuantity).toBeCloseTo(520, 9);
    expect(p3?.quantity).toBeCloseTo(100, 9);
  });
});
