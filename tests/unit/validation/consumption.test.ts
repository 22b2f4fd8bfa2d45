import { describe, expect, it } from 'vitest';
import type { ConsumptionMonth } from '../../../shared/validation/checks.ts';
import { check, electricityBill, electricityContext, rulesWith } from './bill-fixtures.ts';

/** Twelve months of 2024 at about 110 kWh a day. */
const year2024: ConsumptionMonth[] = [
  ['2024-01', 2500],
  ['2024-02', 3190],
  ['2024-03', 3410],
  ['2024-04', 3300],
  ['2024-05', 3410],
  ['2024-06', 3300],
  ['2024-07', 3410],
  ['2024-08', 3410],
  ['2024-09', 3300],
  ['2024-10', 3410],
  ['2024-11', 3300],
  ['2024-12', 3410],
].map(([month, consumption]) => ({ month: String(month), consumption: Number(consumption), unit: 'kWh' }));

const ctx = electricityContext({ consumptionHistory: year2024 });

describe('consumption against the same period last year', () => {
  it('warns when consumption is further from last year than allowed', () => {
    const r = check('consumption-vs-last-year', electricityBill(), ctx);
    expect(r.status).toBe('warning');
    expect(r.reason).toBe(
      'Consumption of 3,500 kWh is 40% more than the 2,500 kWh used in the same period last year (01/01/2024 to 31/01/2024); the allowed deviation is 30%. Check the reads and the meter before accepting it.',
    );
    expect(r).toMatchObject({ expected: 2500, actual: 3500, difference: 1000, unit: 'kWh' });
  });

  it('passes within a wider threshold', () => {
    const rules = rulesWith({ 'consumption-vs-last-year': { threshold: { value: 45, unit: '%' } } });
    expect(check('consumption-vs-last-year', electricityBill(), ctx, rules).status).toBe('passed');
  });

  it('prorates the months a bill period straddles', () => {
    // 17 days of January 2024 and 14 of February 2024
    const bill = electricityBill({
      startDate: '2025-01-15',
      endDate: '2025-02-14',
      invoiceDate: '2025-02-20',
    });
    const r = check(
      'consumption-vs-last-year',
      bill,
      electricityContext({ consumptionHistory: year2024, today: '2025-02-25' }),
    );
    const expected = (2500 * 17) / 31 + (3190 * 14) / 29;
    expect(r.expected).toBeCloseTo(expected, 2);
    expect(r.status).toBe('passed');
  });

  it('converts history kept in MWh', () => {
    const inMwh = year2024.map((m) => ({ ...m, consumption: m.consumption / 1000, unit: 'MWh' }));
    const r = check(
      'consumption-vs-last-year',
      electricityBill(),
      electricityContext({ consumptionHistory: inMwh }),
    );
    expect(r).toMatchObject({ expected: 2500, status: 'warning' });
  });

  it('is skipped when last year is not in the history, and on a credit note', () => {
    const r = check(
      'consumption-vs-last-year',
      electricityBill(),
      electricityContext({ consumptionHistory: year2024.slice(1) }),
    );
    expect(r).toMatchObject({
      status: 'skipped',
      reason: 'The account has no consumption for Jan 2024 to compare the same period last year with.',
    });
    const credit = electricityBill({
      isCreditNote: true,
      netTotal: -835.48,
      vatTotal: -167.1,
      grossTotal: -1002.58,
    });
    expect(check('consumption-vs-last-year', credit, ctx).reason).toBe(
      'Consumption is not compared on a credit note.',
    );
  });
});

describe('consumption against the rolling average', () => {
  it('passes consumption near the average of the last twelve months', () => {
    const r = check('consumption-vs-average', electricityBill(), ctx);
    const perDay = year2024.reduce((a, m) => a + m.consumption, 0) / 366;
    expect(r.expected).toBeCloseTo(perDay * 31, 1);
    expect(r.status).toBe('passed');
    expect(r.reason).toContain('the average of the last 12 months');
  });

  it('warns of a spike beyond the allowed deviation', () => {
    const r = check('consumption-vs-average', electricityBill({ consumption: 7800 }), ctx);
    expect(r.status).toBe('warning');
    expect(r.reason).toMatch(
      /^Consumption of 7,800 kWh is 1\d\d(\.\d)?% more than the 3,3\d\d(\.\d+)? kWh the average/,
    );
  });

  it('fails instead when the company makes it a failure', () => {
    const rules = rulesWith({ 'consumption-vs-average': { severity: 'failed' } });
    expect(check('consumption-vs-average', electricityBill({ consumption: 100 }), ctx, rules).status).toBe(
      'failed',
    );
  });

  it('is skipped with fewer than three months of history', () => {
    const r = check(
      'consumption-vs-average',
      electricityBill(),
      electricityContext({ consumptionHistory: year2024.slice(10) }),
    );
    expect(r).toMatchObject({
      status: 'skipped',
      reason:
        'The account has consumption for 2 of the 12 months before the bill; at least 3 are needed for an average.',
    });
  });

  it('is skipped without consumption on the bill', () => {
    expect(check('consumption-vs-average', electricityBill({ consumption: undefined }), ctx).reason).toBe(
      'No consumption on the bill.',
    );
  });
});
