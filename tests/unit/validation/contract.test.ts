import { describe, expect, it } from 'vitest';
import { check, electricityBill, electricityContext, line, rulesWith } from './bill-fixtures.ts';

const ctx = electricityContext();

describe('unit rates and standing charge against the contract', () => {
  it('passes day, night and standing rates that are the contract’s', () => {
    expect(check('contract-rates', electricityBill(), ctx)).toMatchObject({
      status: 'passed',
      reason: 'All 3 rates on the bill match the contract within 1%.',
    });
  });

  it('fails a day rate above the contract, telling day from night by name', () => {
    const bill = electricityBill();
    bill.rates[0] = line('unit', 'Day units', 2400, 'kWh', 0.26, 624);
    const r = check('contract-rates', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'Day units is charged at £0.26/kWh but the contract rate "Day" is £0.245/kWh (6.1% higher; allowed 1%).',
    );
    expect(r).toMatchObject({ expected: 0.245, actual: 0.26, difference: 0.015, unit: '£/kWh' });
  });

  it('catches day and night rates swapped on the bill', () => {
    const bill = electricityBill();
    bill.rates[0] = line('unit', 'Day units', 2400, 'kWh', 0.182, 436.8);
    bill.rates[1] = line('unit', 'Night units', 1100, 'kWh', 0.245, 269.5);
    const r = check('contract-rates', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toContain('Day units is charged at £0.182/kWh');
    expect(r.reason).toContain('Night units is charged at £0.245/kWh');
  });

  it('honours the tolerance', () => {
    const bill = electricityBill();
    bill.rates[0] = line('unit', 'Day units', 2400, 'kWh', 0.247, 592.8);
    expect(check('contract-rates', bill, ctx).status).toBe('passed');
    const strict = rulesWith({ 'contract-rates': { threshold: { value: 0.5, unit: '%' } } });
    expect(check('contract-rates', bill, ctx, strict).status).toBe('failed');
  });

  it('works out the daily standing charge from its amount, and converts a contract priced per MWh', () => {
    const bill = electricityBill({
      rates: [line('unit', 'Electricity', 3500, 'kWh', 0.2252, 788.2)],
      standingCharge: 24.8,
    });
    const context = electricityContext({
      contractRates: [
        { name: 'Single rate', kind: 'unit', rate: 225.2, unit: 'MWh' },
        { name: 'Standing charge', kind: 'standing', rate: 0.65, unit: 'day' },
      ],
    });
    const r = check('contract-rates', bill, context);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'The standing charge (£24.80 over 31 days) is charged at £0.80/day but the contract rate "Standing charge" is £0.65/day (23.1% higher; allowed 1%).',
    );
  });

  it('only uses contract rates in force during the bill period', () => {
    const expired = electricityContext({
      contractRates: [
        { name: 'Day', kind: 'unit', rate: 0.2, unit: 'kWh', validFrom: '2023-10-01', validTo: '2024-09-30' },
      ],
    });
    const r = check('contract-rates', electricityBill(), expired);
    expect(r.status).toBe('skipped');
    expect(r.reason).toContain('No contract rate in force for 01/01/2025 to 31/01/2025');
  });

  it('is skipped when the account has no contract rates', () => {
    expect(check('contract-rates', electricityBill(), electricityContext({ contractRates: [] })).reason).toBe(
      'The account has no contract rates to compare with.',
    );
  });
});
