import { describe, expect, it } from 'vitest';
import * as service from '../../../functions/invoices/invoice-validation-rules.ts';
import type { ExtractedValues } from '../../../shared/capture/model.ts';
import { factsFromExtract, validateInvoice } from '../../../shared/validation/checks.ts';
import { DEFAULT_VALIDATION_RULES, VALIDATION_RULE_KEYS } from '../../../shared/validation/rules.ts';
import {
  electricityBill,
  electricityContext,
  gasBill,
  gasContext,
  line,
  prior,
  resultOf,
  rulesWith,
} from './bill-fixtures.ts';

function values(v: Record<string, string | number | boolean>): ExtractedValues {
  return Object.fromEntries(
    Object.entries(v).map(([k, value]) => [k, { value, text: String(value), confidence: 95 }]),
  ) as ExtractedValues;
}

describe('a realistic business electricity bill', () => {
  it('passes every check it has facts for, with a reason for each', () => {
    const outcome = validateInvoice(electricityBill(), electricityContext(), rulesWith());
    expect(outcome.status).toBe('passed');
    expect(outcome.results.map((r) => r.key)).toEqual([...VALIDATION_RULE_KEYS]);
    expect(outcome.summary).toEqual({ passed: 17, warning: 0, failed: 0, skipped: 3 });
    for (const r of outcome.results) expect(r.reason).toMatch(/^[A-Z].*[.]$/);
  });

  it('fails when any check fails, and only warns when the worst is a warning', () => {
    const failing = validateInvoice(electricityBill({ vatTotal: 170 }), electricityContext(), rulesWith());
    expect(failing.status).toBe('failed');
    expect(failing.summary.failed).toBe(2);
    expect(failing.results.filter((r) => r.status === 'failed').map((r) => r.key)).toEqual([
      'net-plus-vat-is-total',
      'vat-amount',
    ]);
    const warning = validateInvoice(electricityBill({ isEstimate: true }), electricityContext(), rulesWith());
    expect(warning.status).toBe('warning');
    expect(warning.summary).toMatchObject({ warning: 1, failed: 0 });
  });

  it('leaves a turned-off check out of the outcome', () => {
    const rules = rulesWith({ 'estimated-reads': { enabled: false } });
    const outcome = validateInvoice(electricityBill({ isEstimate: true }), electricityContext(), rules);
    expect(outcome.status).toBe('passed');
    expect(resultOf(outcome, 'estimated-reads')).toMatchObject({
      status: 'skipped',
      reason: "Turned off in the company's validation rules.",
    });
  });

  it('runs a check with its default rule when the company list lacks it', () => {
    const rules = rulesWith().filter((r) => r.key !== 'vat-amount');
    const outcome = validateInvoice(
      electricityBill({ vatTotal: 170, grossTotal: 1005.48 }),
      electricityContext(),
      rules,
    );
    expect(resultOf(outcome, 'vat-amount').status).toBe('failed');
  });
});

describe('a small business gas bill under the de minimis', () => {
  it('passes at 5% VAT with no levy', () => {
    const outcome = validateInvoice(gasBill(), gasContext(), rulesWith());
    expect(outcome.status).toBe('passed');
    expect(resultOf(outcome, 'vat-rate')).toMatchObject({ status: 'passed', expected: 5, actual: 5 });
    expect(resultOf(outcome, 'vat-amount')).toMatchObject({ status: 'passed', expected: 10.54 });
    expect(resultOf(outcome, 'ccl-rate').status).toBe('passed');
  });
});

describe('bills that cannot be validated', () => {
  it('is an error without an account', () => {
    const outcome = validateInvoice(
      electricityBill(),
      electricityContext({ account: undefined }),
      rulesWith(),
    );
    expect(outcome).toMatchObject({ status: 'error', results: [] });
    expect(outcome.reason).toContain('No account matched the bill');
  });

  it('is an error with neither a total nor a consumption', () => {
    const bill = electricityBill({ netTotal: undefined, grossTotal: undefined, consumption: undefined });
    const outcome = validateInvoice(bill, electricityContext(), rulesWith());
    expect(outcome.status).toBe('error');
    expect(outcome.reason).toContain('No total and no consumption');
    const consumptionOnly = validateInvoice(
      { ...bill, consumption: 3500 },
      electricityContext(),
      rulesWith(),
    );
    expect(consumptionOnly.status).not.toBe('error');
  });
});

describe('a credit note', () => {
  const extracted = factsFromExtract(
    values({
      invoiceNumber: 'CR-0042',
      invoiceDate: '2025-02-20',
      startDate: '2025-01-01',
      endDate: '2025-01-31',
      meterPointNumber: '1312345678907',
      consumption: 3500,
      netTotal: 835.48,
      vatRate: 20,
      vatTotal: 167.1,
      grossTotal: 1002.58,
    }),
    [
      line('unit', 'Day units', 2400, 'kWh', 0.245, 588),
      line('unit', 'Night units', 1100, 'kWh', 0.182, 200.2),
      line('standing', 'Standing charge', 31, 'day', 0.65, 20.15),
      line('ccl', 'Climate Change Levy', 3500, 'kWh', 0.00775, 27.13),
    ],
    [],
    { supplierId: 'sup-edf', utilityType: 'electricity', accountId: 'acc-1', isCreditNote: true },
  );

  it('turns a credit printed in positive figures into negative amounts', () => {
    expect(extracted).toMatchObject({
      isCreditNote: true,
      netTotal: -835.48,
      vatTotal: -167.1,
      grossTotal: -1002.58,
    });
    expect(extracted.rates.map((r) => r.amount)).toEqual([-588, -200.2, -20.15, -27.13]);
    expect(extracted.rates[0]?.units).toBe(2400);
  });

  it('still checks the arithmetic and taxes, skips consumption and continuity, and is not a duplicate of its bill', () => {
    const context = electricityContext({
      invoiceId: 'cr-jan',
      previousInvoices: [prior('inv-jan', electricityBill())],
      consumptionHistory: [{ month: '2024-01', consumption: 100, unit: 'kWh' }],
      today: '2025-02-25',
    });
    const outcome = validateInvoice(extracted, context, rulesWith());
    expect(outcome.status).toBe('passed');
    for (const key of [
      'lines-sum-to-net',
      'net-plus-vat-is-total',
      'units-times-rate',
      'vat-amount',
      'ccl-rate',
    ]) {
      expect(resultOf(outcome, key).status, key).toBe('passed');
    }
    for (const key of [
      'consumption-vs-last-year',
      'consumption-vs-average',
      'read-continuity',
      'missing-bills',
    ]) {
      expect(resultOf(outcome, key).status, key).toBe('skipped');
    }
    expect(resultOf(outcome, 'duplicate-period-amount').status).toBe('passed');
    expect(resultOf(outcome, 'vat-amount').expected).toBe(-167.1);
  });

  it('still fails a credit note whose lines do not add up', () => {
    const broken = { ...extracted, netTotal: -800 };
    const outcome = validateInvoice(broken, electricityContext({ invoiceId: 'cr-jan' }), rulesWith());
    expect(resultOf(outcome, 'lines-sum-to-net').reason).toBe(
      'The 4 charge lines add up to -£835.48 but the net total is -£800.00 (difference £35.48).',
    );
    expect(outcome.status).toBe('failed');
  });
});

describe('facts from an extract', () => {
  it('reads the values and fills gaps from the lines and readings', () => {
    const facts = factsFromExtract(
      values({
        invoiceNumber: ' G-55120 ',
        startDate: '2025-03-01',
        endDate: '2025-03-31',
        vatRate: 0.05,
        isEstimate: 'E',
      }),
      [
        line('unit', 'Gas units', 3100, 'kWh', 0.065, 201.5),
        line('vat', 'VAT at 5%', undefined, undefined, undefined, 10.54),
      ],
      [{ meterSerialNumber: 'G4A00123', openingRead: 10233, closingRead: 10510, readType: 'estimated' }],
      { utilityType: 'gas', meterPointNumber: '1234567890' },
    );
    expect(facts).toMatchObject({
      invoiceNumber: 'G-55120',
      vatRate: 5,
      vatTotal: 10.54,
      consumption: 3100,
      consumptionUnit: 'kWh',
      openingRead: 10233,
      closingRead: 10510,
      meterSerialNumber: 'G4A00123',
      meterPointNumber: '1234567890',
      isEstimate: true,
      isCreditNote: false,
    });
  });

  it('takes a negative total as a credit note and leaves its signs alone', () => {
    const facts = factsFromExtract(values({ netTotal: -50, grossTotal: -60 }), [], []);
    expect(facts).toMatchObject({ isCreditNote: true, netTotal: -50, grossTotal: -60 });
  });

  it('ignores dates and numbers that are not normalised', () => {
    const facts = factsFromExtract(
      values({ startDate: '01/03/2025', netTotal: '£1,200.00', consumption: '3100' }),
      [],
      [],
    );
    expect(facts.startDate).toBeUndefined();
    expect(facts.netTotal).toBeUndefined();
    expect(facts.consumption).toBe(3100);
  });
});

describe('the rules', () => {
  it('have one rule per check, served unchanged by the company rules service', () => {
    expect(DEFAULT_VALIDATION_RULES.map((r) => r.key)).toEqual([...VALIDATION_RULE_KEYS]);
    expect(service.DEFAULT_VALIDATION_RULES).toBe(DEFAULT_VALIDATION_RULES);
    expect(
      service.applyRuleChanges({ 'back-billing': { threshold: 6 } }).find((r) => r.key === 'back-billing'),
    ).toMatchObject({ threshold: { value: 6, unit: 'months' } });
  });
});
