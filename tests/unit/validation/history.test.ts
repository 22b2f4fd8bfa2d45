import { describe, expect, it } from 'vitest';
import {
  check,
  decemberBill,
  electricityBill,
  electricityContext,
  prior,
  rulesWith,
} from './bill-fixtures.ts';

const ctx = electricityContext();

describe('opening read against the previous closing read', () => {
  it('passes when January opens where December closed', () => {
    expect(check('read-continuity', electricityBill(), ctx)).toMatchObject({
      status: 'passed',
      expected: 45210,
      actual: 45210,
    });
  });

  it('warns when units between the bills are not billed', () => {
    const r = check('read-continuity', electricityBill({ openingRead: 45300 }), ctx);
    expect(r.status).toBe('warning');
    expect(r.reason).toBe(
      'The opening read is 45,300 but the previous bill INV-099870 for 01/12/2024 to 31/12/2024 closed at 45,210: 90 units between the two bills are not billed.',
    );
    expect(r.difference).toBe(90);
    expect(check('read-continuity', electricityBill({ openingRead: 45100 }), ctx).reason).toContain(
      '110 units are billed twice',
    );
  });

  it('compares register by register when both bills list their registers', () => {
    const dec = decemberBill({
      readings: [
        { register: 'day', closingRead: 30100, readType: 'actual' },
        { register: 'night', closingRead: 15110, readType: 'actual' },
      ],
    });
    const jan = electricityBill({
      readings: [
        { register: 'day', openingRead: 30100, closingRead: 32500, readType: 'actual' },
        { register: 'night', openingRead: 15200, closingRead: 16300, readType: 'actual' },
      ],
    });
    const r = check('read-continuity', jan, electricityContext({ previousInvoices: [dec] }));
    expect(r.status).toBe('warning');
    expect(r.reason).toContain('The opening read of register night is 15,200');
    expect(r.reason).not.toContain('register day');
  });

  it('is skipped without an opening read, without an earlier bill, or after a meter exchange', () => {
    expect(check('read-continuity', electricityBill({ openingRead: undefined }), ctx)).toMatchObject({
      status: 'skipped',
      reason: 'No opening read on the bill.',
    });
    expect(
      check('read-continuity', electricityBill(), electricityContext({ previousInvoices: [] })).status,
    ).toBe('skipped');
    const exchanged = electricityBill({ meterSerialNumber: 'E12Z99887', openingRead: 0 });
    expect(check('read-continuity', exchanged, ctx).reason).toContain('The meter changed');
  });

  it('follows on from the bill before a credited one', () => {
    const nov = prior(
      'inv-nov',
      electricityBill({
        invoiceNumber: 'INV-098100',
        startDate: '2024-11-01',
        endDate: '2024-11-30',
        closingRead: 41500,
      }),
    );
    const dec = decemberBill();
    const credit = prior(
      'cr-dec',
      electricityBill({
        invoiceNumber: 'CR-0042',
        startDate: '2024-12-01',
        endDate: '2024-12-31',
        grossTotal: -1063.12,
        isCreditNote: true,
      }),
    );
    const jan = electricityBill({ openingRead: 41500, startDate: '2024-12-01' });
    const r = check('read-continuity', jan, electricityContext({ previousInvoices: [nov, dec, credit] }));
    expect(r.status).toBe('passed');
    expect(r.reason).toContain('INV-098100');
  });
});

describe('gap or overlap with the previous bill', () => {
  it('passes a bill starting the day after the previous one ended', () => {
    expect(check('period-continuity', electricityBill(), ctx)).toMatchObject({ status: 'passed', actual: 0 });
  });

  it('warns of days not billed and of days billed twice', () => {
    const gap = check('period-continuity', electricityBill({ startDate: '2025-01-05' }), ctx);
    expect(gap.status).toBe('warning');
    expect(gap.reason).toBe(
      'The bill starts on 05/01/2025 but the previous bill INV-099870 for 01/12/2024 to 31/12/2024 ended on 31/12/2024: 4 days (01/01/2025 to 04/01/2025) are not billed.',
    );
    const overlap = check('period-continuity', electricityBill({ startDate: '2024-12-20' }), ctx);
    expect(overlap.reason).toContain('12 days (20/12/2024 to 31/12/2024) are billed twice');
    expect(overlap.actual).toBe(-12);
  });

  it('allows the threshold in days', () => {
    const oneDay = electricityBill({ startDate: '2025-01-02' });
    expect(check('period-continuity', oneDay, ctx).status).toBe('passed');
    const fourDays = electricityBill({ startDate: '2025-01-05' });
    const rules = rulesWith({ 'period-continuity': { threshold: { value: 5, unit: 'days' } } });
    expect(check('period-continuity', fourDays, ctx, rules).status).toBe('passed');
  });
});

describe('duplicates', () => {
  it('fails an invoice number already received from the same supplier, from any account', () => {
    const copy = prior('inv-other', electricityBill({ accountId: 'acc-2' }), 'passed');
    const r = check(
      'duplicate-invoice-number',
      electricityBill(),
      electricityContext({ sameNumberInvoices: [copy] }),
    );
    expect(r.status).toBe('failed');
    expect(r.reason).toBe(
      'Invoice number INV-100245 is already on another bill INV-100245 for 01/01/2025 to 31/01/2025 of £1,002.58 from this supplier (validation passed): remove the copy, or ask the supplier why the number was reused.',
    );
  });

  it('passes the same number from another supplier, the bill itself, and a credit note', () => {
    const otherSupplier = prior('inv-x', electricityBill({ supplierId: 'sup-octopus' }));
    const itself = prior('inv-jan', electricityBill());
    const credit = prior('cr-1', electricityBill({ isCreditNote: true, grossTotal: -1002.58 }));
    const r = check(
      'duplicate-invoice-number',
      electricityBill(),
      electricityContext({ sameNumberInvoices: [otherSupplier, itself, credit] }),
    );
    expect(r.status).toBe('passed');
  });

  it('matches numbers however they are spaced or cased', () => {
    const copy = prior('inv-other', electricityBill({ invoiceNumber: 'inv 100245' }));
    expect(
      check('duplicate-invoice-number', electricityBill(), electricityContext({ sameNumberInvoices: [copy] }))
        .status,
    ).toBe('failed');
  });

  it('fails another bill of the account with the same period and total', () => {
    const copy = prior('inv-copy', electricityBill({ invoiceNumber: 'INV-100246' }), 'pending');
    const r = check(
      'duplicate-period-amount',
      electricityBill(),
      electricityContext({ previousInvoices: [decemberBill(), copy] }),
    );
    expect(r.status).toBe('failed');
    expect(r.reason).toContain(
      'bill INV-100246 for 01/01/2025 to 31/01/2025 (not validated yet) has the same period',
    );
  });

  it('passes when the earlier copy was credited, or the totals differ', () => {
    const copy = prior('inv-copy', electricityBill({ invoiceNumber: 'INV-100246' }));
    const credit = prior(
      'cr-1',
      electricityBill({ invoiceNumber: 'CR-1', isCreditNote: true, grossTotal: -1002.58 }),
    );
    expect(
      check(
        'duplicate-period-amount',
        electricityBill(),
        electricityContext({ previousInvoices: [copy, credit] }),
      ).status,
    ).toBe('passed');
    const different = prior('inv-copy', electricityBill({ grossTotal: 990 }));
    expect(
      check(
        'duplicate-period-amount',
        electricityBill(),
        electricityContext({ previousInvoices: [different] }),
      ).status,
    ).toBe('passed');
  });

  it('is skipped without an invoice number', () => {
    expect(check('duplicate-invoice-number', electricityBill({ invoiceNumber: undefined }), ctx).status).toBe(
      'skipped',
    );
  });
});

describe('missing bills', () => {
  const october = prior(
    'inv-oct',
    electricityBill({
      invoiceNumber: 'INV-097000',
      startDate: '2024-10-01',
      endDate: '2024-10-31',
      closingRead: 45210,
    }),
  );

  it('warns when whole billing cycles have no bill', () => {
    const r = check('missing-bills', electricityBill(), electricityContext({ previousInvoices: [october] }));
    expect(r.status).toBe('warning');
    expect(r.reason).toBe(
      'No bill covers 01/11/2024 to 31/12/2024 (61 days) between the previous bill INV-097000 for 01/10/2024 to 31/10/2024 and this one: about 2 bills of the 30-day billing cycle are missing. Ask the supplier for them.',
    );
  });

  it('counts a missing February on a monthly account', () => {
    const jan = prior('inv-jan', electricityBill());
    const march = electricityBill({
      invoiceNumber: 'INV-101999',
      startDate: '2025-03-01',
      endDate: '2025-03-31',
      invoiceDate: '2025-04-04',
    });
    const r = check(
      'missing-bills',
      march,
      electricityContext({ invoiceId: 'inv-mar', previousInvoices: [jan], today: '2025-04-10' }),
    );
    expect(r.status).toBe('warning');
    expect(r.reason).toContain('about 1 bill of the 30-day billing cycle is missing');
  });

  it('passes a short gap and takes the cycle from the previous bill when the account has none', () => {
    const short = electricityBill({ startDate: '2025-01-10' });
    expect(check('missing-bills', short, ctx).status).toBe('passed');
    const r = check(
      'missing-bills',
      electricityBill(),
      electricityContext({ previousInvoices: [october], billingCycleDays: undefined }),
    );
    expect(r.status).toBe('warning');
    expect(r.reason).toContain('the 31-day period of the previous bill');
  });

  it('honours its share of the cycle', () => {
    const rules = rulesWith({ 'missing-bills': { threshold: { value: 250, unit: '%' } } });
    expect(
      check('missing-bills', electricityBill(), electricityContext({ previousInvoices: [october] }), rules)
        .status,
    ).toBe('passed');
  });

  it('is skipped without an earlier bill', () => {
    expect(
      check('missing-bills', electricityBill(), electricityContext({ previousInvoices: [] })).status,
    ).toBe('skipped');
  });
});
