import type { ExtractedRate } from '../../../shared/capture/model.ts';
import {
  type CheckResult,
  type InvoiceFacts,
  type PriorInvoice,
  type ValidationContext,
  type ValidationOutcome,
  validateInvoice,
} from '../../../shared/validation/checks.ts';
import { DEFAULT_VALIDATION_RULES, type ValidationRule } from '../../../shared/validation/rules.ts';

/** Valid MPAN core (check digit 7) and an MPRN. */
export const MPAN = '1312345678907';
export const MPRN = '1234567890';

let lineId = 0;
export function line(
  kind: ExtractedRate['kind'],
  description: string,
  units: number | undefined,
  unit: string | undefined,
  unitRate: number | undefined,
  amount: number | undefined,
): ExtractedRate {
  lineId++;
  return { _id: `r${lineId}`, kind, description, units, unit, unitRate, amount };
}

/**
 * A business electricity bill for January 2025: day and night units, standing charge, the levy at
 * £0.00775/kWh and VAT at 20%. Net £835.48, VAT £167.10, total £1,002.58.
 */
export function electricityBill(over: Partial<InvoiceFacts> = {}): InvoiceFacts {
  return {
    invoiceNumber: 'INV-100245',
    supplierId: 'sup-edf',
    utilityType: 'electricity',
    accountId: 'acc-1',
    meterPointNumber: `S 02 801 100 ${MPAN}`,
    meterSerialNumber: 'E10BG12345',
    invoiceDate: '2025-02-07',
    startDate: '2025-01-01',
    endDate: '2025-01-31',
    openingRead: 45210,
    closingRead: 48710,
    isEstimate: false,
    consumption: 3500,
    consumptionUnit: 'kWh',
    netTotal: 835.48,
    vatRate: 20,
    vatTotal: 167.1,
    grossTotal: 1002.58,
    rates: [
      line('unit', 'Day units', 2400, 'kWh', 0.245, 588.0),
      line('unit', 'Night units', 1100, 'kWh', 0.182, 200.2),
      line('standing', 'Standing charge', 31, 'day', 0.65, 20.15),
      line('ccl', 'Climate Change Levy', 3500, 'kWh', 0.00775, 27.13),
    ],
    readings: [],
    isCreditNote: false,
    ...over,
  };
}

/**
 * A small business gas bill for March 2025 under the de minimis (3,100 kWh in 31 days): VAT at 5% and
 * no levy. Net £210.80, VAT £10.54, total £221.34.
 */
export function gasBill(over: Partial<InvoiceFacts> = {}): InvoiceFacts {
  return {
    invoiceNumber: 'G-55120',
    supplierId: 'sup-bg',
    utilityType: 'gas',
    accountId: 'acc-gas',
    meterPointNumber: MPRN,
    invoiceDate: '2025-04-05',
    startDate: '2025-03-01',
    endDate: '2025-03-31',
    openingRead: 10233,
    closingRead: 10510,
    isEstimate: false,
    consumption: 3100,
    consumptionUnit: 'kWh',
    netTotal: 210.8,
    vatRate: 5,
    vatTotal: 10.54,
    grossTotal: 221.34,
    rates: [
      line('unit', 'Gas units', 3100, 'kWh', 0.065, 201.5),
      line('standing', 'Standing charge', 31, 'day', 0.3, 9.3),
    ],
    readings: [],
    isCreditNote: false,
    ...over,
  };
}

export function prior(
  id: string,
  facts: InvoiceFacts,
  status: PriorInvoice['status'] = 'passed',
): PriorInvoice {
  return { id, status, facts };
}

/** December 2024's bill, which January's follows on from. */
export function decemberBill(over: Partial<InvoiceFacts> = {}): PriorInvoice {
  return prior(
    'inv-dec',
    electricityBill({
      invoiceNumber: 'INV-099870',
      invoiceDate: '2025-01-08',
      startDate: '2024-12-01',
      endDate: '2024-12-31',
      openingRead: 41500,
      closingRead: 45210,
      consumption: 3710,
      grossTotal: 1063.12,
      ...over,
    }),
  );
}

export function electricityContext(over: Partial<ValidationContext> = {}): ValidationContext {
  return {
    invoiceId: 'inv-jan',
    account: {
      id: 'acc-1',
      utilityType: 'electricity',
      meterPointNumber: MPAN,
      meterSerialNumber: 'E10BG12345',
    },
    previousInvoices: [decemberBill()],
    sameNumberInvoices: [],
    consumptionHistory: [],
    contractRates: [
      { name: 'Day', kind: 'unit', rate: 0.245, unit: 'kWh', validFrom: '2024-10-01', validTo: '2026-09-30' },
      {
        name: 'Night',
        kind: 'unit',
        rate: 0.182,
        unit: 'kWh',
        validFrom: '2024-10-01',
        validTo: '2026-09-30',
      },
      { name: 'Standing charge', kind: 'standing', rate: 0.65, unit: 'day', validFrom: '2024-10-01' },
    ],
    billingCycleDays: 30,
    today: '2025-02-10',
    ...over,
  };
}

export function gasContext(over: Partial<ValidationContext> = {}): ValidationContext {
  return {
    invoiceId: 'inv-gas-mar',
    account: { id: 'acc-gas', utilityType: 'gas', meterPointNumber: MPRN },
    previousInvoices: [],
    sameNumberInvoices: [],
    consumptionHistory: [],
    contractRates: [],
    billingCycleDays: 30,
    today: '2025-04-10',
    ...over,
  };
}

/** The default rules with changes to some of them. */
export function rulesWith(changes: Record<string, Partial<ValidationRule>> = {}): ValidationRule[] {
  return DEFAULT_VALIDATION_RULES.map((r) => ({ ...r, ...(changes[r.key] ?? {}) }));
}

export function resultOf(outcome: ValidationOutcome, key: string): CheckResult {
  const r = outcome.results.find((x) => x.key === key);
  if (!r) throw new Error(`No result for ${key}`);
  return r;
}

/** Runs the checks with the default rules (or given ones) and returns the one result asked for. */
export function check(
  key: string,
  invoice: InvoiceFacts,
  context: ValidationContext,
  rules: ValidationRule[] = rulesWith(),
): CheckResult {
  return resultOf(validateInvoice(invoice, context, rules), key);
}
