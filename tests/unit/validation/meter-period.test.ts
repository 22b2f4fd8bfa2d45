import { describe, expect, it } from 'vitest';
import {
  check,
  electricityBill,
  electricityContext,
  gasBill,
  gasContext,
  MPAN,
  prior,
  rulesWith,
} from './bill-fixtures.ts';

const ctx = electricityContext();

describe('estimated reads', () => {
  it('warns on a bill marked estimated, naming the estimated reads', () => {
    expect(check('estimated-reads', electricityBill({ isEstimate: true }), ctx).status).toBe('warning');
    const bill = electricityBill({
      isEstimate: undefined,
      readings: [
        { register: 'day', meterSerialNumber: 'E10BG12345', closingRead: 32500, readType: 'estimated' },
        { register: 'night', meterSerialNumber: 'E10BG12345', closingRead: 16300, readType: 'actual' },
      ],
    });
    const r = check('estimated-reads', bill, ctx);
    expect(r.status).toBe('warning');
    expect(r.reason).toBe(
      'The bill is based on estimated reads (register day, meter E10BG12345, read 32,500): submit an actual read and ask the supplier to re-bill on it.',
    );
  });

  it('passes actual reads and is skipped when the bill does not say', () => {
    expect(check('estimated-reads', electricityBill(), ctx).status).toBe('passed');
    expect(check('estimated-reads', electricityBill({ isEstimate: undefined }), ctx).status).toBe('skipped');
  });

  it('can fail the bill when the company says so', () => {
    const rules = rulesWith({ 'estimated-reads': { severity: 'failed' } });
    expect(check('estimated-reads', electricityBill({ isEstimate: true }), ctx, rules).status).toBe('failed');
  });
});

describe('meter number', () => {
  it('matches a full MPAN on the bill to the account’s core', () => {
    expect(check('meter-number', electricityBill(), ctx)).toMatchObject({ status: 'passed', actual: MPAN });
  });

  it('fails an MPAN whose check digit is wrong, giving the right one', () => {
    const r = check('meter-number', electricityBill({ meterPointNumber: '13 1234 5678 901' }), ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'The MPAN 1312345678901 on the bill fails its check digit (the last digit should be 7): it was probably misread.',
    );
  });

  it('fails a valid MPAN that is not the account’s', () => {
    const r = check('meter-number', electricityBill({ meterPointNumber: '2099999999993' }), ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      "The bill is for MPAN 2099999999993 but the account's MPAN is 1312345678907: the bill may belong to another supply.",
    );
  });

  it('checks an MPRN on a gas bill', () => {
    expect(check('meter-number', gasBill(), gasContext()).status).toBe('passed');
    expect(check('meter-number', gasBill({ meterPointNumber: '7412345678' }), gasContext()).status).toBe(
      'failed',
    );
    expect(check('meter-number', gasBill({ meterPointNumber: '12345' }), gasContext()).reason).toContain(
      'is not 6 to 11 digits',
    );
  });

  it('falls back to the meter serial number, and is skipped with neither', () => {
    const noMpan = electricityBill({ meterPointNumber: undefined, meterSerialNumber: 'E10BG99999' });
    expect(check('meter-number', noMpan, ctx).status).toBe('failed');
    const nothing = electricityBill({ meterPointNumber: undefined, meterSerialNumber: undefined });
    expect(check('meter-number', nothing, ctx)).toMatchObject({
      status: 'skipped',
      reason: 'No meter point number on the bill.',
    });
  });
});

describe('period sanity', () => {
  it('fails a period that ends before it starts', () => {
    const r = check('period-order', electricityBill({ startDate: '2025-01-31', endDate: '2025-01-01' }), ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toContain('ends on 01/01/2025, before it starts on 31/01/2025');
    expect(check('period-order', electricityBill(), ctx).status).toBe('passed');
  });

  it('warns of a period over twice the billing cycle', () => {
    const long = electricityBill({ startDate: '2024-10-01', endDate: '2025-01-31' });
    const r = check('period-too-long', long, electricityContext({ previousInvoices: [] }));
    expect(r.status).toBe('warning');
    expect(r.reason).toContain(
      'The bill covers 123 days, more than the 60 days allowed (200% of the 30-day billing cycle)',
    );
    const quarterly = electricityContext({ previousInvoices: [], billingCycleDays: 91 });
    expect(check('period-too-long', long, quarterly).status).toBe('passed');
  });

  it('takes the billing cycle from the previous bill when the account has none', () => {
    const long = electricityBill({
      startDate: '2025-01-01',
      endDate: '2025-03-31',
      invoiceDate: '2025-04-04',
    });
    const r = check(
      'period-too-long',
      long,
      electricityContext({ billingCycleDays: undefined, today: '2025-04-10' }),
    );
    expect(r.status).toBe('warning');
    expect(r.reason).toContain('the 31-day period of the previous bill');
    expect(
      check(
        'period-too-long',
        long,
        electricityContext({ billingCycleDays: undefined, previousInvoices: [] }),
      ).status,
    ).toBe('skipped');
  });

  it('fails a period ending after the bill was issued, and a bill dated after today', () => {
    const early = electricityBill({ invoiceDate: '2025-01-25' });
    const r = check('period-in-future', early, ctx);
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'The bill period ends on 31/01/2025, after the bill was issued on 25/01/2025: it charges for 6 days not yet supplied.',
    );
    const future = check('period-in-future', electricityBill({ invoiceDate: '2025-03-07' }), ctx);
    expect(future.reason).toContain('The bill is dated 07/03/2025, after today (10/02/2025)');
    expect(check('period-in-future', electricityBill({ invoiceDate: undefined }), ctx).status).toBe('passed');
  });

  it('warns of back-billing beyond 12 months for a microbusiness only', () => {
    const late = electricityBill({ startDate: '2023-11-01', endDate: '2025-01-31' });
    const micro = electricityContext({
      account: { utilityType: 'electricity', meterPointNumber: MPAN, microbusiness: true },
      previousInvoices: [],
    });
    const r = check('back-billing', late, micro);
    expect(r.status).toBe('warning');
    expect(r.reason).toBe(
      'The bill charges for energy from 01/11/2023, more than 12 months before it was issued on 07/02/2025: a microbusiness cannot be billed for energy used before 07/02/2024, so the 98 days to 06/02/2024 should come off the bill.',
    );
    expect(check('back-billing', electricityBill(), micro).status).toBe('passed');
    expect(check('back-billing', late, electricityContext({ previousInvoices: [] })).status).toBe('skipped');
  });

  it('honours a shorter back-billing limit in months', () => {
    const micro = electricityContext({
      account: { utilityType: 'electricity', meterPointNumber: MPAN, microbusiness: true },
      previousInvoices: [prior('x', electricityBill({ startDate: '2024-06-01', endDate: '2024-06-30' }))],
    });
    const bill = electricityBill({ startDate: '2024-07-01' });
    expect(check('back-billing', bill, micro).status).toBe('passed');
    const rules = rulesWith({ 'back-billing': { threshold: { value: 6, unit: 'months' } } });
    expect(check('back-billing', bill, micro, rules).status).toBe('warning');
  });
});
