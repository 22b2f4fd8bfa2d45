import { describe, expect, it } from 'vitest';
import { calendariseBill, costTotal, dailyRate } from '../../../shared/analytics/calendarise.ts';

describe('a bill shared over calendar months', () => {
  // 15 January to 14 February is 31 days: 17 in January, 14 in February.
  const bill = {
    id: 'b1',
    start: '2025-01-15',
    end: '2025-02-14',
    quantity: 3100,
    cost: { net: 310, vat: 62, ccl: 24.025, standing: 31 },
  };

  it('gives each month its days share of the quantity and of every cost part', () => {
    const [jan, feb] = calendariseBill(bill);
    expect(jan).toMatchObject({ billId: 'b1', month: '2025-01', days: 17 });
    expect(feb).toMatchObject({ billId: 'b1', month: '2025-02', days: 14 });
    expect(jan?.quantity).toBeCloseTo(1700, 9);
    expect(feb?.quantity).toBeCloseTo(1400, 9);
    expect(jan?.cost.net).toBeCloseTo(170, 9);
    expect(jan?.cost.vat).toBeCloseTo(34, 9);
    expect(jan?.cost.ccl).toBeCloseTo(13.175, 9);
    expect(jan?.cost.standing).toBeCloseTo(17, 9);
    expect(feb?.cost.standing).toBeCloseTo(14, 9);
  });

  it('adds back to the bill, so nothing is lost or counted twice', () => {
    const shares = calendariseBill(bill);
    expect(shares.reduce((t, s) => t + s.quantity, 0)).toBeCloseTo(3100, 9);
    expect(shares.reduce((t, s) => t + costTotal(s.cost), 0)).toBeCloseTo(310 + 62 + 24.025 + 31, 9);
  });

  it('splits a bill over a year end into both years', () => {
    const shares = calendariseBill({ id: 'b2', start: '2024-12-17', end: '2025-01-15', quantity: 3000 });
    expect(shares.map((s) => [s.month, s.days, s.quantity])).toEqual([
      ['2024-12', 15, 1500],
      ['2025-01', 15, 1500],
    ]);
    expect(shares[0]?.cost).toEqual({ net: 0, vat: 0, ccl: 0, standing: 0 });
  });

  it('knows the use per day of a bill', () => {
    expect(dailyRate(bill).quantity).toBe(100);
    expect(dailyRate(bill).cost.net).toBe(10);
    expect(dailyRate({ id: 'x', start: '2025-02-01', end: '2025-01-31', quantity: 5 }).quantity).toBe(0);
  });
});
