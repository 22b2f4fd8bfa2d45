import { describe, expect, it } from 'vitest';
import type { AccountFacts } from '../../../shared/validation/checks.ts';
import {
  check,
  electricityBill,
  electricityContext,
  gasBill,
  gasContext,
  line,
  rulesWith,
} from './bill-fixtures.ts';

const ctx = electricityContext();
const withAccount = (over: Partial<AccountFacts>) =>
  electricityContext({ account: { utilityType: 'electricity', meterPointNumber: '1312345678907', ...over } });

describe('VAT rate', () => {
  it('accepts 20% on a business electricity supply over the de minimis', () => {
    const r = check('vat-rate', electricityBill(), ctx);
    expect(r).toMatchObject({ status: 'passed', expected: 20, actual: 20 });
  });

  it('fails the reduced rate on a supply over the de minimis', () => {
    const r = check('vat-rate', electricityBill({ vatRate: 5 }), ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'VAT is charged at 5% but 3,500 kWh over 31 days is 112.9 kWh a day, above the electricity de minimis of 33 kWh a day, and the supply is not domestic or charity use, so the rate is 20%.',
    );
  });

  it('accepts 5% on a gas supply under the de minimis and fails 20% on it', () => {
    expect(check('vat-rate', gasBill(), gasContext())).toMatchObject({ status: 'passed', expected: 5 });
    const r = check('vat-rate', gasBill({ vatRate: 20 }), gasContext());
    expect(r.status).toBe('failed');
    expect(r.reason).toContain('100 kWh a day, within the gas de minimis of 145 kWh a day');
    expect(r.reason).toContain('so the rate is 5%');
  });

  it('passes 5% on a 31-day bill of 1,020 kWh electricity (32.9 a day) or 4,480 kWh gas (144.5 a day)', () => {
    const electricity = electricityBill({
      consumption: 1020,
      vatRate: 5,
      rates: [line('unit', 'Units', 1020, 'kWh', 0.245, 249.9)],
    });
    expect(check('vat-rate', electricity, ctx)).toMatchObject({ status: 'passed', expected: 5 });
    expect(check('vat-rate', electricityBill({ consumption: 1030, vatRate: 5 }), ctx).status).toBe('failed');
    const gas = gasBill({ consumption: 4480 });
    const r = check('vat-rate', gas, gasContext());
    expect(r).toMatchObject({ status: 'passed', expected: 5 });
    expect(r.reason).toContain('144.5 kWh a day, within the gas de minimis of 145 kWh a day');
    expect(check('vat-rate', gasBill({ consumption: 4500 }), gasContext()).status).toBe('failed');
  });

  it('converts gas read in m³ or hundreds of cubic feet to kWh at the calorific value, so VAT is checked', () => {
    // 1,000 m³ × 39.2 MJ/m³ × 1.02264 ÷ 3.6 = 11,135.4 kWh over 31 days: 359.2 kWh a day, above 145.
    const metric = gasBill({ consumption: 1000, consumptionUnit: 'm³', calorificValue: 39.2 });
    const r = check('vat-rate', metric, gasContext());
    expect(r).toMatchObject({ status: 'failed', expected: 20 });
    expect(r.reason).toContain('11,135 kWh (1,000 m³ of gas at a calorific value of 39.2 MJ/m³)');
    // 40 hundreds of cubic feet = 113.27 m³; at the assumed 39.5 MJ/m³ that is 1,270.9 kWh, 41 a day.
    const imperial = gasBill({ consumption: 40, consumptionUnit: 'hcf' });
    const i = check('vat-rate', imperial, gasContext());
    expect(i).toMatchObject({ status: 'passed', expected: 5 });
    expect(i.reason).toContain('41 kWh a day');
    expect(i.reason).toContain('assumed');
    const feet = check('vat-rate', gasBill({ consumption: 4000, consumptionUnit: 'ft³' }), gasContext());
    expect(feet.reason).toContain('41 kWh a day');
  });

  it('measures the de minimis by the day, so a quarter of a small supply still qualifies', () => {
    const quarter = gasBill({ startDate: '2025-01-01', endDate: '2025-03-31', consumption: 12000 });
    expect(check('vat-rate', quarter, gasContext()).status).toBe('passed');
    const monthOfIt = gasBill({ consumption: 12000 });
    expect(check('vat-rate', monthOfIt, gasContext()).status).toBe('failed');
  });

  it('gives domestic and charity supplies the reduced rate whatever their size', () => {
    const bill = electricityBill({ vatRate: 5 });
    expect(check('vat-rate', bill, withAccount({ domestic: true }))).toMatchObject({ status: 'passed' });
    expect(check('vat-rate', bill, withAccount({ charity: true })).reason).toContain(
      'charity non-business use',
    );
    expect(check('vat-rate', electricityBill(), withAccount({ domestic: true })).status).toBe('failed');
  });

  it('works the rate out from the amounts when the bill does not print it', () => {
    const bill = electricityBill({ vatRate: undefined, vatTotal: 45.85 });
    const r = check('vat-rate', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.actual).toBe(5);
    expect(check('vat-rate', electricityBill({ vatRate: undefined }), ctx).status).toBe('passed');
  });

  it('is skipped for other utilities and without a consumption to measure', () => {
    const water = electricityBill({ utilityType: 'water', consumptionUnit: 'm³' });
    expect(check('vat-rate', water, ctx).status).toBe('skipped');
    expect(check('vat-rate', electricityBill({ consumption: undefined }), ctx)).toMatchObject({
      status: 'skipped',
      reason: 'No consumption in kWh on the bill, so the de minimis cannot be worked out.',
    });
  });
});

describe('VAT amount', () => {
  it('fails a VAT amount that is not the rate of the net, saying by how much', () => {
    const bill = electricityBill({ netTotal: 200, vatTotal: 41.2, grossTotal: 241.2, rates: [] });
    const r = check('vat-amount', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe('VAT is £41.20 but 20% of the net £200.00 is £40.00 (difference £1.20).');
    expect(r).toMatchObject({ expected: 40, actual: 41.2, difference: 1.2, unit: '£' });
  });

  it('passes within pennies of rounding', () => {
    expect(check('vat-amount', electricityBill(), ctx)).toMatchObject({ status: 'passed', expected: 167.1 });
    expect(check('vat-amount', electricityBill({ vatTotal: 167.13 }), ctx).status).toBe('passed');
    expect(check('vat-amount', electricityBill({ vatTotal: 167.16 }), ctx).status).toBe('failed');
  });

  it('charges the levy at the standard rate on a reduced-rate supply', () => {
    const bill = electricityBill({
      netTotal: 110,
      vatRate: 5,
      vatTotal: 7,
      grossTotal: 117,
      rates: [line('unit', 'Units', 800, 'kWh', 0.125, 100), line('ccl', 'CCL', 1290.32, 'kWh', 0.00775, 10)],
    });
    const r = check('vat-amount', bill, ctx);
    expect(r.status).toBe('passed');
    expect(r.reason).toBe('VAT of £7.00 is 5% of the supply £100.00 plus 20% of the levy £10.00.');
    expect(check('vat-amount', { ...bill, vatTotal: 5.5 }, ctx).status).toBe('failed');
  });

  it('is skipped without a VAT rate', () => {
    expect(check('vat-amount', electricityBill({ vatRate: undefined }), ctx).status).toBe('skipped');
  });
});

describe('Climate Change Levy', () => {
  it('passes the levy at £0.00775/kWh in January 2025', () => {
    const r = check('ccl-rate', electricityBill(), ctx);
    expect(r.status).toBe('passed');
    expect(r.reason).toBe('The levy of £27.13 is right: 3,500 kWh at £0.00775/kWh is £27.13.');
  });

  it('fails a levy charged at next year’s rate, naming both problems', () => {
    const bill = electricityBill();
    bill.rates[3] = line('ccl', 'Climate Change Levy', 3500, 'kWh', 0.00801, 28.04);
    const r = check('ccl-rate', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toContain(
      'The levy charged is £28.04 but 3,500 kWh at £0.00775/kWh is £27.13 (difference £0.91).',
    );
    expect(r.reason).toContain(
      'The levy is charged at £0.00801/kWh but the rate for the period is £0.00775/kWh.',
    );
    expect(r).toMatchObject({ expected: 27.13, actual: 28.04, difference: 0.91 });
  });

  it('splits a period across the April rate change', () => {
    const bill = electricityBill({
      startDate: '2026-03-01',
      endDate: '2026-04-30',
      invoiceDate: '2026-05-06',
      consumption: 6710,
      rates: [line('ccl', 'Climate Change Levy', 6710, 'kWh', undefined, 52.86)],
    });
    const r = check('ccl-rate', bill, electricityContext({ today: '2026-05-10' }));
    expect(r).toMatchObject({ status: 'passed', expected: 52.86 });
    expect(r.reason).toContain(
      '£0.00775/kWh from 01/03/2026 to 31/03/2026 and £0.00801/kWh from 01/04/2026 to 30/04/2026',
    );
  });

  it('expects the reduced levy of a climate change agreement holder', () => {
    const cca = withAccount({ climateChangeAgreement: true });
    expect(check('ccl-rate', electricityBill(), cca).status).toBe('failed');
    const bill = electricityBill();
    bill.rates[3] = line('ccl', 'Climate Change Levy (CCA)', 3500, 'kWh', 0.00062, 2.17);
    const r = check('ccl-rate', bill, cca);
    expect(r).toMatchObject({ status: 'passed', expected: 2.17 });
    expect(r.reason).toContain('92% off the main rate');
  });

  it('charges a gas agreement holder the discount of the levy year, split across 1 April', () => {
    const cca = gasContext({
      account: {
        id: 'acc-gas',
        utilityType: 'gas',
        meterPointNumber: '1234567890',
        climateChangeAgreement: true,
      },
      today: '2023-07-10',
    });
    // June 2023: 100,000 kWh at 12% of £0.00672 (88% off) is £80.64; 89% off would be £73.92.
    const june = gasBill({
      startDate: '2023-06-01',
      endDate: '2023-06-30',
      invoiceDate: '2023-07-05',
      consumption: 100_000,
      vatRate: 20,
      rates: [line('ccl', 'Climate Change Levy (CCA)', 100_000, 'kWh', 0.0008064, 80.64)],
    });
    const r = check('ccl-rate', june, cca);
    expect(r).toMatchObject({ status: 'passed', expected: 80.64 });
    expect(r.reason).toContain('88% off the main rate');
    // March and April 2023: 31,000 kWh at 14% of £0.00568 (£24.65) and 30,000 kWh at 12% of £0.00672 (£24.19).
    const spanning = gasBill({
      startDate: '2023-03-01',
      endDate: '2023-04-30',
      invoiceDate: '2023-05-05',
      consumption: 61_000,
      vatRate: 20,
      rates: [line('ccl', 'Climate Change Levy (CCA)', 61_000, 'kWh', undefined, 48.84)],
    });
    const s = check('ccl-rate', spanning, cca);
    expect(s).toMatchObject({ status: 'passed', expected: 48.84 });
    expect(s.reason).toContain('86% then 88% off the main rate');
  });

  it('fails a levy on a domestic or exempt supply and passes its absence', () => {
    const r = check('ccl-rate', electricityBill(), withAccount({ domestic: true }));
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'The bill charges £27.13 of Climate Change Levy but the supply is domestic, so none is due: ask the supplier to remove it.',
    );
    const noLevy = electricityBill({ rates: electricityBill().rates.slice(0, 3) });
    expect(check('ccl-rate', noLevy, withAccount({ cclExempt: true })).status).toBe('passed');
  });

  it('fails a levy on a gas supply under the de minimis', () => {
    const bill = gasBill({ climateChangeLevy: 24.03 });
    const r = check('ccl-rate', bill, gasContext());
    expect(r.status).toBe('failed');
    expect(r.reason).toContain('under the gas de minimis');
  });

  it('is skipped, with what is due, when a business bill shows no levy', () => {
    const noLevy = electricityBill({ rates: electricityBill().rates.slice(0, 3) });
    const r = check('ccl-rate', noLevy, ctx);
    expect(r.status).toBe('skipped');
    expect(r.reason).toContain('3,500 kWh at £0.00775/kWh is £27.13');
  });

  it('honours its £ threshold and severity', () => {
    const bill = electricityBill();
    bill.rates[3] = line('ccl', 'Climate Change Levy', 3500, 'kWh', undefined, 27.4);
    expect(check('ccl-rate', bill, ctx).status).toBe('failed');
    const rules = rulesWith({ 'ccl-rate': { threshold: { value: 0.5, unit: '£' } } });
    expect(check('ccl-rate', bill, ctx, rules).status).toBe('passed');
    const warnOnly = rulesWith({ 'ccl-rate': { severity: 'warning' } });
    expect(check('ccl-rate', bill, ctx, warnOnly).status).toBe('warning');
  });
});
