import { describe, expect, it } from 'vitest';
import { check, electricityBill, electricityContext, line, rulesWith } from './bill-fixtures.ts';

const ctx = electricityContext();

describe('lines add up to the net amount', () => {
  it('passes when the charge lines (VAT aside) make the net total', () => {
    const r = check('lines-sum-to-net', electricityBill(), ctx);
    expect(r).toMatchObject({ status: 'passed', expected: 835.48, actual: 835.48, difference: 0 });
  });

  it('fails with the figures when a line was charged but not carried into the net', () => {
    const bill = electricityBill({ netTotal: 815.33, vatTotal: 163.07, grossTotal: 978.4 });
    const r = check('lines-sum-to-net', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'The 4 charge lines add up to £835.48 but the net total is £815.33 (difference £20.15).',
    );
    expect(r).toMatchObject({ expected: 815.33, actual: 835.48, difference: 20.15, unit: '£' });
  });

  it('passes lines printed with their VAT, which add up to the total rather than the net', () => {
    // £1,823.33 net and £364.67 VAT: lines that include VAT come to the £2,188.00 total.
    const bill = electricityBill({
      netTotal: 1823.33,
      vatTotal: 364.67,
      grossTotal: 2188,
      rates: [
        line('unit', 'Units (incl. VAT)', 7000, 'kWh', 0.3, 2100),
        line('standing', 'Standing charge (incl. VAT)', 31, 'day', undefined, 88),
      ],
    });
    const r = check('lines-sum-to-net', bill, ctx);
    expect(r).toMatchObject({ status: 'passed', expected: 2188, actual: 2188 });
    expect(r.reason).toBe(
      'The 2 charge lines add up to £2,188.00, the total with VAT: the lines include VAT.',
    );
    // Lines that match neither the net nor the total are still flagged.
    expect(check('lines-sum-to-net', { ...bill, grossTotal: 2190 }, ctx).status).toBe('failed');
  });

  it('tolerates pennies of rounding up to the threshold, and no more', () => {
    const bill = electricityBill({ netTotal: 835.45 });
    expect(check('lines-sum-to-net', bill, ctx).status).toBe('passed');
    expect(check('lines-sum-to-net', electricityBill({ netTotal: 835.4 }), ctx).status).toBe('failed');
    const looser = rulesWith({ 'lines-sum-to-net': { threshold: { value: 0.1, unit: '£' } } });
    expect(check('lines-sum-to-net', electricityBill({ netTotal: 835.4 }), ctx, looser).status).toBe(
      'passed',
    );
  });

  it('counts the standing charge and levy amounts when no line carries them', () => {
    const bill = electricityBill({
      rates: [
        line('unit', 'Day units', 2400, 'kWh', 0.245, 588),
        line('unit', 'Night units', 1100, 'kWh', 0.182, 200.2),
      ],
      standingCharge: 20.15,
      climateChangeLevy: 27.13,
    });
    const r = check('lines-sum-to-net', bill, ctx);
    expect(r.status).toBe('passed');
    expect(r.reason).toContain(
      'The 2 charge lines, the standing charge and the Climate Change Levy add up to £835.48',
    );
  });

  it('adds money in pence, so many small lines do not drift', () => {
    const rates = Array.from({ length: 30 }, (_, i) => line('standing', `Day ${i + 1}`, 1, 'day', 0.1, 0.1));
    const bill = electricityBill({
      rates,
      netTotal: 3,
      standingCharge: undefined,
      climateChangeLevy: undefined,
    });
    expect(
      check(
        'lines-sum-to-net',
        bill,
        ctx,
        rulesWith({ 'lines-sum-to-net': { threshold: { value: 0, unit: '£' } } }),
      ),
    ).toMatchObject({ status: 'passed', difference: 0 });
  });

  it('is skipped without a net total or without line amounts', () => {
    expect(check('lines-sum-to-net', electricityBill({ netTotal: undefined }), ctx)).toMatchObject({
      status: 'skipped',
      reason: 'No net total on the bill.',
    });
    expect(check('lines-sum-to-net', electricityBill({ rates: [] }), ctx).status).toBe('skipped');
  });
});

describe('net plus VAT equals the total', () => {
  it('passes on the electricity bill', () => {
    expect(check('net-plus-vat-is-total', electricityBill(), ctx).status).toBe('passed');
  });

  it('fails when the total is not net plus VAT', () => {
    const bill = electricityBill({ netTotal: 200, vatTotal: 40, grossTotal: 241.2, rates: [] });
    const r = check('net-plus-vat-is-total', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'Net £200.00 plus VAT £40.00 is £240.00 but the total is £241.20 (difference £1.20).',
    );
    expect(r.difference).toBe(1.2);
  });

  it('takes a zero VAT rate as no VAT, and skips when the VAT amount is unknown', () => {
    const zeroRated = electricityBill({ netTotal: 100, vatRate: 0, vatTotal: undefined, grossTotal: 100 });
    expect(check('net-plus-vat-is-total', zeroRated, ctx).status).toBe('passed');
    expect(check('net-plus-vat-is-total', electricityBill({ vatTotal: undefined }), ctx)).toMatchObject({
      status: 'skipped',
      reason: 'No VAT amount on the bill.',
    });
  });
});

describe('units times rate equals each line', () => {
  it('passes when every line multiplies out', () => {
    expect(check('units-times-rate', electricityBill(), ctx).status).toBe('passed');
  });

  it('names the line that does not multiply out, with its figures', () => {
    const bill = electricityBill();
    bill.rates[0] = line('unit', 'Day units', 2400, 'kWh', 0.245, 598);
    const r = check('units-times-rate', bill, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'Day units: 2,400 kWh at £0.245/kWh is £588.00 but the line says £598.00 (difference £10.00).',
    );
    expect(r).toMatchObject({ expected: 588, actual: 598, difference: 10 });
  });

  it('accepts a credit line printed with a negative amount', () => {
    const bill = electricityBill({
      rates: [line('unit', 'Credit: day units re-billed', 100, 'kWh', 0.245, -24.5)],
    });
    expect(check('units-times-rate', bill, ctx).status).toBe('passed');
  });

  it('is skipped when no line has units, a rate and an amount', () => {
    const bill = electricityBill({
      rates: [line('other', 'Meter rental', undefined, undefined, undefined, 5)],
    });
    expect(check('units-times-rate', bill, ctx).status).toBe('skipped');
  });
});
