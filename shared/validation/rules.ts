import * as z from 'zod';
import { onFirstUse } from '../schemas/on-first-use.ts';

/**
 * The bill validation checks a company can configure, with their defaults: the checks used in the
 * industry (arithmetic, continuity, duplicates, consumption against history, contract rates, taxes,
 * estimated reads, meter number, period sanity, back-billing, missing bills). `validateInvoice` runs one
 * check per rule.
 */
export const VALIDATION_RULE_GROUPS = [
  'arithmetic',
  'continuity',
  'duplicate',
  'consumption',
  'contract',
  'tax',
  'reads',
  'period',
] as const;
export type ValidationRuleGroup = (typeof VALIDATION_RULE_GROUPS)[number];

/** '%' on the period rules is a share of the account's billing cycle. */
export type ThresholdUnit = '£' | '%' | 'days' | 'months';

export interface ValidationRule {
  key: string;
  group: ValidationRuleGroup;
  name: string;
  description: string;
  enabled: boolean;
  /** A failing check marks the bill failed, or only warns. */
  severity: 'failed' | 'warning';
  threshold?: { value: number; unit: ThresholdUnit };
}

export const VALIDATION_RULE_KEYS = [
  'lines-sum-to-net',
  'net-plus-vat-is-total',
  'units-times-rate',
  'read-continuity',
  'period-continuity',
  'duplicate-invoice-number',
  'duplicate-period-amount',
  'consumption-vs-last-year',
  'consumption-vs-average',
  'contract-rates',
  'vat-rate',
  'vat-amount',
  'ccl-rate',
  'estimated-reads',
  'meter-number',
  'period-order',
  'period-too-long',
  'period-in-future',
  'back-billing',
  'missing-bills',
] as const;
export type ValidationRuleKey = (typeof VALIDATION_RULE_KEYS)[number];

export const DEFAULT_VALIDATION_RULES: readonly (ValidationRule & { key: ValidationRuleKey })[] = [
  {
    key: 'lines-sum-to-net',
    group: 'arithmetic',
    name: 'Lines add up to the net amount',
    description: 'The charge lines of the bill sum to its net total.',
    enabled: true,
    severity: 'failed',
    threshold: { value: 0.05, unit: '£' },
  },
  {
    key: 'net-plus-vat-is-total',
    group: 'arithmetic',
    name: 'Net plus VAT equals the total',
    description: 'The net amount and the VAT add up to the total due.',
    enabled: true,
    severity: 'failed',
    threshold: { value: 0.05, unit: '£' },
  },
  {
    key: 'units-times-rate',
    group: 'arithmetic',
    name: 'Units times rate equals each line',
    description: 'Each charge line is its units multiplied by its rate.',
    enabled: true,
    severity: 'failed',
    threshold: { value: 0.05, unit: '£' },
  },
  {
    key: 'read-continuity',
    group: 'continuity',
    name: 'Opening read matches the previous closing read',
    description: "The bill's opening meter read equals the closing read of the account's previous bill.",
    enabled: true,
    severity: 'warning',
  },
  {
    key: 'period-continuity',
    group: 'continuity',
    name: 'No gap or overlap with the previous bill',
    description: "The bill's period starts the day after the previous bill's period ended.",
    enabled: true,
    severity: 'warning',
    threshold: { value: 1, unit: 'days' },
  },
  {
    key: 'duplicate-invoice-number',
    group: 'duplicate',
    name: 'Duplicate invoice number',
    description: 'No other bill from the same supplier has the same invoice number.',
    enabled: true,
    severity: 'failed',
  },
  {
    key: 'duplicate-period-amount',
    group: 'duplicate',
    name: 'Duplicate period and amount',
    description: 'No other bill of the account has the same period and the same amount.',
    enabled: true,
    severity: 'failed',
  },
  {
    key: 'consumption-vs-last-year',
    group: 'consumption',
    name: 'Consumption against the same period last year',
    description: 'Consumption is within the allowed deviation from the same period a year earlier.',
    enabled: true,
    severity: 'warning',
    threshold: { value: 30, unit: '%' },
  },
  {
    key: 'consumption-vs-average',
    group: 'consumption',
    name: 'Consumption against the rolling average',
    description: 'Consumption is within the allowed deviation from the average of the last twelve months.',
    enabled: true,
    severity: 'warning',
    threshold: { value: 50, unit: '%' },
  },
  {
    key: 'contract-rates',
    group: 'contract',
    name: 'Unit rates and standing charge match the contract',
    description: "The bill's unit rates and standing charge are those of the account's contract.",
    enabled: true,
    severity: 'failed',
    threshold: { value: 1, unit: '%' },
  },
  {
    key: 'vat-rate',
    group: 'tax',
    name: 'VAT rate',
    description: 'VAT is charged at the standard rate, or the reduced rate where the de minimis applies.',
    enabled: true,
    severity: 'failed',
  },
  {
    key: 'vat-amount',
    group: 'tax',
    name: 'VAT amount',
    description: 'The VAT is the VAT rate applied to the net amount, with the levy at the standard rate.',
    enabled: true,
    severity: 'failed',
    threshold: { value: 0.05, unit: '£' },
  },
  {
    key: 'ccl-rate',
    group: 'tax',
    name: 'Climate Change Levy',
    description: 'The levy is charged at the current rate, and not where the supply is exempt.',
    enabled: true,
    severity: 'failed',
    threshold: { value: 0.05, unit: '£' },
  },
  {
    key: 'estimated-reads',
    group: 'reads',
    name: 'Estimated reads',
    description: 'The bill is based on actual rather than estimated reads.',
    enabled: true,
    severity: 'warning',
  },
  {
    key: 'meter-number',
    group: 'reads',
    name: 'Meter number matches the account',
    description: "The meter point number on the bill is the account's, and its check digit is right.",
    enabled: true,
    severity: 'failed',
  },
  {
    key: 'period-order',
    group: 'period',
    name: 'Bill period ends after it starts',
    description: 'The end date of the bill period is not before its start date.',
    enabled: true,
    severity: 'failed',
  },
  {
    key: 'period-too-long',
    group: 'period',
    name: 'Bill period too long',
    description: "The bill covers no more than the allowed share of the account's billing cycle.",
    enabled: true,
    severity: 'warning',
    threshold: { value: 200, unit: '%' },
  },
  {
    key: 'period-in-future',
    group: 'period',
    name: 'Bill period in the future',
    description: 'The bill period does not end after the date the bill was issued.',
    enabled: true,
    severity: 'failed',
  },
  {
    key: 'back-billing',
    group: 'period',
    name: 'Back-billing',
    description:
      'A domestic or microbusiness supply is not billed for energy used more than the allowed months before the bill.',
    enabled: true,
    severity: 'warning',
    threshold: { value: 12, unit: 'months' },
  },
  {
    key: 'missing-bills',
    group: 'period',
    name: 'Missing bills',
    description:
      "The gap since the account's previous bill is shorter than the allowed share of its billing cycle.",
    enabled: true,
    severity: 'warning',
    // Under a whole cycle, so that a missing February (28 days) on a 30-day monthly cycle is found.
    threshold: { value: 80, unit: '%' },
  },
];

const ruleChange = onFirstUse(() =>
  z
    .object({
      enabled: z.boolean().optional(),
      severity: z.enum(['failed', 'warning']).optional(),
      threshold: z.number().nonnegative().max(1_000_000).optional(),
    })
    .strict(),
);

export type RuleChange = z.infer<typeof ruleChange>;

/** A change for each rule named by key; a key that is not a rule is a field error. */
export const ruleChangesSchema = onFirstUse(() =>
  z
    .record(z.string(), ruleChange)
    .refine(
      (changes) => Object.keys(changes).every((k) => DEFAULT_VALIDATION_RULES.some((r) => r.key === k)),
      {
        message: 'Unknown validation rule',
      },
    ),
);

/** The company's rules: the defaults with its changes applied. A threshold is only set on rules that have one. */
export function applyRuleChanges(changes: Record<string, unknown>): ValidationRule[] {
  return DEFAULT_VALIDATION_RULES.map((rule) => {
    const parsed = ruleChange.safeParse(changes[rule.key]);
    if (!parsed.success) return { ...rule };
    const change = parsed.data;
    return {
      ...rule,
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      ...(change.severity ? { severity: change.severity } : {}),
      ...(change.threshold !== undefined && rule.threshold
        ? { threshold: { ...rule.threshold, value: change.threshold } }
        : {}),
    };
  });
}
