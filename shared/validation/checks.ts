import { linesSumToNet, netPlusVatIsTotal, unitsTimesRate } from './arithmetic-checks.ts';
import { billOf, type Check, type CheckResult, type Verdict } from './check-kit.ts';
import { contractRates } from './contract-checks.ts';
import type { InvoiceFacts, ValidationContext } from './facts.ts';
import {
  consumptionVsAverage,
  consumptionVsLastYear,
  duplicateInvoiceNumber,
  duplicatePeriodAmount,
  missingBills,
  periodContinuity,
  readContinuity,
} from './history-checks.ts';
import { estimatedReads, meterNumber } from './meter-checks.ts';
import { backBilling, periodInFuture, periodOrder, periodTooLong } from './period-checks.ts';
import { DEFAULT_VALIDATION_RULES, type ValidationRule, type ValidationRuleKey } from './rules.ts';
import { cclRateCheck, vatAmount, vatRateCheck } from './tax-checks.ts';

export type { CheckResult, CheckStatus } from './check-kit.ts';
export type {
  AccountFacts,
  ConsumptionMonth,
  ContractRate,
  ExtractExtras,
  InvoiceFacts,
  PriorInvoice,
  ValidationContext,
  ValidationStatus,
} from './facts.ts';
export { factsFromExtract } from './facts.ts';

/** One check per rule, in the order the rules are listed. */
const CHECKS: Readonly<Record<ValidationRuleKey, Check>> = {
  'lines-sum-to-net': linesSumToNet,
  'net-plus-vat-is-total': netPlusVatIsTotal,
  'units-times-rate': unitsTimesRate,
  'read-continuity': readContinuity,
  'period-continuity': periodContinuity,
  'duplicate-invoice-number': duplicateInvoiceNumber,
  'duplicate-period-amount': duplicatePeriodAmount,
  'consumption-vs-last-year': consumptionVsLastYear,
  'consumption-vs-average': consumptionVsAverage,
  'contract-rates': contractRates,
  'vat-rate': vatRateCheck,
  'vat-amount': vatAmount,
  'ccl-rate': cclRateCheck,
  'estimated-reads': estimatedReads,
  'meter-number': meterNumber,
  'period-order': periodOrder,
  'period-too-long': periodTooLong,
  'period-in-future': periodInFuture,
  'back-billing': backBilling,
  'missing-bills': missingBills,
};

export type OutcomeStatus = 'passed' | 'warning' | 'failed' | 'error';

export interface ValidationOutcome {
  status: OutcomeStatus;
  /** Why the bill could not be validated (status error only). */
  reason?: string;
  results: CheckResult[];
  summary: { passed: number; warning: number; failed: number; skipped: number };
}

/** The company's rule for each check; a check whose rule is missing from the list runs with the default. */
function rulesByKey(rules: ValidationRule[]): [ValidationRuleKey, ValidationRule][] {
  return DEFAULT_VALIDATION_RULES.map((d) => [d.key, rules.find((r) => r.key === d.key) ?? d]);
}

function resultOf(key: ValidationRuleKey, rule: ValidationRule, verdict: Verdict): CheckResult {
  const { status, ...rest } = verdict;
  return {
    key,
    group: rule.group,
    name: rule.name,
    status: status === 'flagged' ? rule.severity : status,
    ...rest,
  };
}

function summaryOf(results: CheckResult[]): ValidationOutcome['summary'] {
  const summary = { passed: 0, warning: 0, failed: 0, skipped: 0 };
  for (const r of results) summary[r.status]++;
  return summary;
}

/**
 * Runs the company's bill checks on a bill. The outcome is failed when any check failed, warning when
 * any warned, passed otherwise; error (with a reason, and no results) only when the bill cannot be
 * validated at all: amounts in another currency than pounds, no account, or neither a total nor a
 * consumption.
 */
export function validateInvoice(
  invoice: InvoiceFacts,
  context: ValidationContext,
  rules: ValidationRule[],
): ValidationOutcome {
  const empty = { passed: 0, warning: 0, failed: 0, skipped: 0 };
  // Tariffs, VAT limits and levies are in pounds: euros judged against them pass or fail by accident.
  if (invoice.currency && invoice.currency !== 'GBP') {
    return {
      status: 'error',
      reason: `The bill is in ${invoice.currency}, not pounds, so its amounts cannot be checked against sterling contracts, tax and levies: check it by hand.`,
      results: [],
      summary: empty,
    };
  }
  if (!context.account) {
    return {
      status: 'error',
      reason:
        'No account matched the bill, so it cannot be validated: assign it to an account and validate it again.',
      results: [],
      summary: empty,
    };
  }
  if (
    invoice.grossTotal === undefined &&
    invoice.netTotal === undefined &&
    invoice.consumption === undefined
  ) {
    return {
      status: 'error',
      reason:
        'No total and no consumption were read from the bill, so it cannot be validated: check its capture and enter them.',
      results: [],
      summary: empty,
    };
  }
  const bill = billOf(invoice, context);
  const results = rulesByKey(rules).map(([key, rule]) =>
    rule.enabled
      ? resultOf(key, rule, CHECKS[key]({ bill, rule }))
      : resultOf(key, rule, { status: 'skipped', reason: "Turned off in the company's validation rules." }),
  );
  const summary = summaryOf(results);
  const status: OutcomeStatus = summary.failed > 0 ? 'failed' : summary.warning > 0 ? 'warning' : 'passed';
  return { status, results, summary };
}
