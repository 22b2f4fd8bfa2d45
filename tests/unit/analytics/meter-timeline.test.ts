import { describe, expect, it } from 'vitest';
import type { BillRecord } from '../../../shared/analytics/calendarise.ts';
import { buildMeterTimeline, estimateBreakdown } from '../../../shared/analytics/meter-timeline.ts';

const sum = (values: readonly { quantity: number }[]) => values.reduce((t, v) => t + v.quantity, 0);

describe('a meter timeline from its bills', () => {
  it('takes each day from the bill covering it when bills cross month ends', () => {
    const bills: BillRecord[] = [
      // 31 days at 100 kWh a day, then 30 days at 50 kWh a day
      { id: 'a', start: '2025-01-15', end: '2025-02-14', quantity: 3100 },
      { id: 'b', start: '2025-02-15', end: '2025-03-16', quantity: 1500 },
    ];
    const feb = buildMeterTimeline(bills, { start: '2025-02-01', end: '2025-02-28' });
    expect(feb.days).toHaveLength(28);
    expect(feb.gaps).toEqual([]);
    // 14 days × 100 + 14 days × 50
    expect(sum(feb.days)).toBeCloseTo(2100, 9);
    expect(feb.days[13]).toMatchObject({
      date: '2025-02-14',
      billId: 'a',
      estimated: false,
      basis: 'actual-read',
    });
    expect(feb.days[14]).toMatchObject({ date: '2025-02-15', billId: 'b' });
  });

  it('fills a gap from the same days last year and labels it estimated', () => {
    const bills: BillRecord[] = [
      // 2024 is a leap year: 366 days at 10 kWh a day
      { id: 'ly', start: '2024-01-01', end: '2024-12-31', quantity: 3660 },
      { id: 'jan', start: '2025-01-01', end: '2025-01-31', quantity: 620 },
      { id: 'mar', start: '2025-03-01', end: '2025-03-31', quantity: 620 },
    ];
    const t = buildMeterTimeline(bills, { start: '2025-01-01', end: '2025-03-31' });
    expect(t.gaps).toEqual([{ start: '2025-02-01', end: '2025-02-28' }]);
    expect(t.fills).toEqual([
      {
        start: '2025-02-01',
        end: '2025-02-28',
        days: 28,
        basis: 'same-period-last-year',
        quantity: 280,
        cost: { net: 0, vat: 0, ccl: 0, standing: 0 },
      },
    ]);
    const filled = t.days.filter((d) => d.date.startsWith('2025-02'));
    expect(filled.every((d) => d.estimated && d.basis === 'same-period-last-year' && !d.billId)).toBe(true);
    expect(t.days).toHaveLength(90);

    const breakdown = estimateBreakdown(t.days);
    expect(breakdown.actual).toMatchObject({ days: 62, quantity: 1240 });
    expect(breakdown.estimated).toMatchObject({ days: 28, quantity: 280 });
    expect(breakdown.estimatedQuantityShare).toBeCloseTo(280 / 1520, 12);
  });

  it('scales last year by days when the gap spans a 29 February a year earlier', () => {
    const bills: BillRecord[] = [{ id: 'ly', start: '2024-01-01', end: '2024-12-31', quantity: 3660 }];
    // 1 February to 5 March 2025 is 33 days; the same dates in 2024 are 34 days holding 340 kWh
    const t = buildMeterTimeline(bills, { start: '2025-02-01', end: '2025-03-05' });
    expect(t.fills[0]).toMatchObject({ basis: 'same-period-last-year', days: 33 });
    expect(t.fills[0]?.quantity).toBeCloseTo((340 * 33) / 34, 9);
  });

  it("fills from the meter's average daily use when last year is not fully billed", () => {
    const bills: BillRecord[] = [
      { id: 'jan', start: '2025-01-01', end: '2025-01-31', quantity: 310, cost: { net: 31 } },
      { id: 'mar', start: '2025-03-01', end: '2025-03-31', quantity: 620, cost: { net: 62 } },
    ];
    const t = buildMeterTimeline(bills, { start: '2025-01-01', end: '2025-03-31' });
    // (310 + 620) kWh over 62 billed days = 15 kWh a day, £1.50 a day
    expect(t.fills[0]).toMatchObject({ basis: 'average-daily-use', days: 28 });
    expect(t.fills[0]?.quantity).toBeCloseTo(420, 9);
    expect(t.fills[0]?.cost.net).toBeCloseTo(42, 9);
    expect(estimateBreakdown(t.days).estimatedCostShare).toBeCloseTo(42 / 135, 12);
  });

  it('leaves a gap unfilled when the meter has no bill at all', () => {
    const t = buildMeterTimeline([], { start: '2025-01-01', end: '2025-01-10' });
    expect(t.days).toEqual([]);
    expect(t.unfilled).toEqual([{ start: '2025-01-01', end: '2025-01-10' }]);
    expect(estimateBreakdown(t.days).estimatedQuantityShare).toBe(0);
  });

  it('counts overlapping days once, from the later-starting bill, and reports the overlap', () => {
    const bills: BillRecord[] = [
      { id: 'x', start: '2025-01-01', end: '2025-01-31', quantity: 310 }, // 10 a day
      { id: 'y', start: '2025-01-20', end: '2025-02-10', quantity: 440 }, // 22 days, 20 a day
    ];
    const t = buildMeterTimeline(bills, { start: '2025-01-01', end: '2025-02-10' });
    expect(t.overlaps).toEqual([
      {
        start: '2025-01-20',
        end: '2025-01-31',
        days: 12,
        keptBillId: 'y',
        droppedBillId: 'x',
        droppedQuantity: 120,
        droppedCost: { net: 0, vat: 0, ccl: 0, standing: 0 },
      },
    ]);
    // 19 days of x at 10, then 22 days of y at 20: the 750 billed less the 120 dropped
    expect(sum(t.days)).toBeCloseTo(630, 9);
    expect(t.days.filter((d) => d.billId === 'x')).toHaveLength(19);
  });

  it('prefers an actual read over an estimated one whatever their dates', () => {
    const bills: BillRecord[] = [
      { id: 'actual', start: '2025-01-01', end: '2025-01-31', quantity: 310 },
      { id: 'estimate', start: '2025-01-10', end: '2025-01-31', quantity: 2200, estimatedRead: true },
    ];
    const t = buildMeterTimeline(bills, { start: '2025-01-01', end: '2025-01-31' });
    expect(t.overlaps[0]).toMatchObject({ keptBillId: 'actual', droppedBillId: 'estimate', days: 22 });
    expect(sum(t.days)).toBeCloseTo(310, 9);
    expect(t.days.some((d) => d.estimated)).toBe(false);
  });

  it('marks days on an estimated-read bill as estimated', () => {
    const bills: BillRecord[] = [
      { id: 'e', start: '2025-01-01', end: '2025-01-10', quantity: 100, estimatedRead: true },
      { id: 'a', start: '2025-01-11', end: '2025-01-20', quantity: 300 },
    ];
    const breakdown = estimateBreakdown(
      buildMeterTimeline(bills, { start: '2025-01-01', end: '2025-01-20' }).days,
    );
    expect(breakdown.estimated).toMatchObject({ days: 10, quantity: 100 });
    expect(breakdown.estimatedQuantityShare).toBeCloseTo(0.25, 12);
  });
});
