import { describe, expect, it } from 'vitest';
import type { BillRecord } from '../../../shared/analytics/calendarise.ts';
import { findOutliers, meterDataQuality } from '../../../shared/analytics/data-quality.ts';

const months = (daily: number[]) =>
  daily.map((d, i) => ({ month: `2025-${String(i + 1).padStart(2, '0')}`, quantity: d * 30, days: 30 }));

describe('outlying months', () => {
  it('flags a month over 3 times the median of its neighbours', () => {
    expect(findOutliers(months([10, 12, 40, 9, 10]))).toEqual([
      { month: '2025-03', dailyUse: 40, neighbourMedian: 10, ratio: 4, direction: 'high' },
    ]);
  });

  it('flags a month under a third of the median, and not one at exactly 3 times', () => {
    expect(findOutliers(months([10, 10, 2, 10, 10])).map((o) => [o.month, o.direction])).toEqual([
      ['2025-03', 'low'],
    ]);
    expect(findOutliers(months([10, 10, 30, 10, 10]))).toEqual([]);
  });

  it('judges use per day, so a short February is not low', () => {
    const use = [
      { month: '2025-01', quantity: 310, days: 31 },
      { month: '2025-02', quantity: 280, days: 28 },
      { month: '2025-03', quantity: 310, days: 31 },
    ];
    expect(findOutliers(use)).toEqual([]);
  });

  it('does not judge a month with too few neighbours or a zero median', () => {
    expect(findOutliers(months([10, 100]))).toEqual([]);
    // March has only zero neighbours, so no ratio; January (neighbours 0 and 5, median 2.5) is low.
    const flagged = findOutliers(months([0, 0, 5, 0, 0])).map((o) => o.month);
    expect(flagged).not.toContain('2025-03');
    expect(flagged).toContain('2025-01');
  });
});

describe('meter data quality', () => {
  it('reports gaps, overlaps, estimates and coverage', () => {
    const bills: BillRecord[] = [
      { id: 'jan', start: '2025-01-01', end: '2025-01-31', quantity: 310 },
      { id: 'feb', start: '2025-01-25', end: '2025-02-20', quantity: 270, estimatedRead: true },
      { id: 'mar', start: '2025-03-01', end: '2025-03-31', quantity: 310 },
    ];
    const q = meterDataQuality(bills, { start: '2025-01-01', end: '2025-03-31' });
    expect(q.gaps).toEqual([{ start: '2025-02-21', end: '2025-02-28' }]);
    expect(q.gapDays).toBe(8);
    expect(q.coverage).toBeCloseTo(82 / 90, 12);
    // The actual January bill keeps 25-31 January over the estimated one
    expect(q.overlaps).toMatchObject([
      { start: '2025-01-25', end: '2025-01-31', keptBillId: 'jan', droppedBillId: 'feb' },
    ]);
    expect(q.overlapDays).toBe(7);
    expect(q.estimatedReadBills).toEqual(['feb']);
    // 20 days of the estimated bill plus the 8 filled
    expect(q.estimatedDays).toBe(28);
    expect(q.fills[0]).toMatchObject({ basis: 'average-daily-use', days: 8 });
  });

  it('finds an outlying month in billed use', () => {
    const bills: BillRecord[] = ['01', '02', '03', '04', '05'].map((m, i) => ({
      id: m,
      start: `2025-${m}-01`,
      end: `2025-${m}-28`,
      quantity: i === 2 ? 28 * 50 : 28 * 10,
    }));
    const q = meterDataQuality(bills, { start: '2025-01-01', end: '2025-05-28' });
    expect(q.outliers.map((o) => [o.month, o.direction, o.ratio])).toEqual([['2025-03', 'high', 5]]);
  });
});
