import { gasVolumeToKwh } from '../domain/gas-volume.ts';
import { defaultUnit } from '../domain/units.ts';
import type { UtilityType } from '../schemas/common.ts';
import type { InvoiceFacts, PriorInvoice, ValidationContext } from './facts.ts';
import { dayNumber, quantity, showDate, toKwh, toPence } from './figures.ts';
import { DEFAULT_VALIDATION_RULES, type ValidationRule, type ValidationRuleKey } from './rules.ts';

export type CheckStatus = 'passed' | 'warning' | 'failed' | 'skipped';

export interface CheckResult {
  key: ValidationRuleKey;
  group: ValidationRule['group'];
  name: string;
  status: CheckStatus;
  /** A sentence a person can act on, with the figures. */
  reason: string;
  expected?: number | string;
  actual?: number | string;
  /** actual - expected, in `unit` */
  difference?: number;
  /** The unit of expected, actual and difference: '£', 'kWh', '%', 'days', ... */
  unit?: string;
}

/** What a check finds; the rule's severity turns `flagged` into warning or failed. */
export interface Verdict {
  status: 'passed' | 'flagged' | 'skipped';
  reason: string;
  expected?: number | string;
  actual?: number | string;
  difference?: number;
  unit?: string;
}

export const passed = (reason: string, figures: Omit<Verdict, 'status' | 'reason'> = {}): Verdict => ({
  status: 'passed',
  reason,
  ...figures,
});
export const flagged = (reason: string, figures: Omit<Verdict, 'status' | 'reason'> = {}): Verdict => ({
  status: 'flagged',
  reason,
  ...figures,
});
export const skipped = (reason: string): Verdict => ({ status: 'skipped', reason });

/** The facts every check reads, worked out once. */
export interface Bill {
  facts: InvoiceFacts;
  context: ValidationContext;
  utility: UtilityType | undefined;
  /** Consumption and its unit (the utility's default unit when the bill names none) */
  consumption: number | undefined;
  unit: string | undefined;
  /** Consumption in kWh when its unit is one of energy, or gas read by volume */
  kwh: number | undefined;
  /** How a gas volume became kWh, for the reasons that quote the kWh */
  kwhFrom: string | undefined;
  start: number | undefined;
  end: number | undefined;
  /** Days of the period, inclusive; undefined when a date is missing or the period runs backwards */
  days: number | undefined;
  invoiceDay: number | undefined;
  today: number | undefined;
  /** The account's bill immediately before this one (credit notes and credited bills aside) */
  previous: PriorInvoice | undefined;
  billingCycle: { days: number; from: 'account' | 'previous bill' } | undefined;
}

export interface CheckInput {
  bill: Bill;
  rule: ValidationRule;
}

export type Check = (input: CheckInput) => Verdict;

/** The rule's threshold value, or the default rule's when a stored rule lost it. */
export function thresholdOf(rule: ValidationRule): number {
  return (
    rule.threshold?.value ?? DEFAULT_VALIDATION_RULES.find((r) => r.key === rule.key)?.threshold?.value ?? 0
  );
}

export function describeBill(p: PriorInvoice): string {
  const f = p.facts;
  const number = f.invoiceNumber ? ` ${f.invoiceNumber}` : '';
  const period = f.startDate && f.endDate ? ` for ${showDate(f.startDate)} to ${showDate(f.endDate)}` : '';
  return `${f.isCreditNote ? 'credit note' : 'bill'}${number}${period}`;
}

/** The amount two bills are compared on: the total, or the net when the total was not read. */
export function amountOf(f: InvoiceFacts): number | undefined {
  return f.grossTotal ?? f.netTotal;
}

/** Bills of the account that a credit note of the same period and amount has cancelled. */
export function cancelledIds(invoices: PriorInvoice[]): Set<string> {
  const out = new Set<string>();
  for (const credit of invoices.filter((p) => p.facts.isCreditNote)) {
    const amount = amountOf(credit.facts);
    if (amount === undefined) continue;
    const bill = invoices.find(
      (p) =>
        !p.facts.isCreditNote &&
        !out.has(p.id) &&
        p.facts.startDate === credit.facts.startDate &&
        p.facts.endDate === credit.facts.endDate &&
        amountOf(p.facts) !== undefined &&
        Math.abs(toPence(amountOf(p.facts) ?? 0)) === Math.abs(toPence(amount)),
    );
    if (bill) out.add(bill.id);
  }
  return out;
}

function previousBill(facts: InvoiceFacts, context: ValidationContext): PriorInvoice | undefined {
  const start = dayNumber(facts.startDate);
  if (start === undefined) return undefined;
  const cancelled = cancelledIds(context.previousInvoices);
  let best: { p: PriorInvoice; start: number; end: number } | undefined;
  for (const p of context.previousInvoices) {
    if (p.id === context.invoiceId || p.facts.isCreditNote || cancelled.has(p.id)) continue;
    const s = dayNumber(p.facts.startDate);
    const e = dayNumber(p.facts.endDate) ?? s;
    if (s === undefined || e === undefined || s >= start) continue;
    if (!best || s > best.start || (s === best.start && e > best.end)) best = { p, start: s, end: e };
  }
  return best?.p;
}

/** kWh of the consumption: as billed in energy, or a gas volume converted at the calorific value. */
function energyOf(
  utility: UtilityType | undefined,
  consumption: number | undefined,
  unit: string | undefined,
  calorificValue: number | undefined,
): { kwh: number | undefined; kwhFrom: string | undefined } {
  if (consumption === undefined || !unit) return { kwh: undefined, kwhFrom: undefined };
  const kwh = toKwh(consumption, unit);
  if (kwh !== undefined || utility !== 'gas') return { kwh, kwhFrom: undefined };
  const gas = gasVolumeToKwh(consumption, unit, calorificValue);
  if (!gas) return { kwh: undefined, kwhFrom: undefined };
  const cv = `${gas.calorificValue} MJ/m³${gas.assumed ? ' (assumed: the bill prints no calorific value)' : ''}`;
  return {
    kwh: gas.kwh,
    kwhFrom: `${quantity(consumption, unit)} of gas at a calorific value of ${cv}`,
  };
}

export function billOf(facts: InvoiceFacts, context: ValidationContext): Bill {
  const utility = facts.utilityType ?? context.account?.utilityType;
  const unit = facts.consumptionUnit ?? (utility ? defaultUnit(utility) : undefined);
  const consumption = facts.consumption;
  const start = dayNumber(facts.startDate);
  const end = dayNumber(facts.endDate);
  const days = start !== undefined && end !== undefined && end >= start ? end - start + 1 : undefined;
  const previous = previousBill(facts, context);
  const ps = dayNumber(previous?.facts.startDate);
  const pe = dayNumber(previous?.facts.endDate);
  const previousDays = ps !== undefined && pe !== undefined && pe >= ps ? pe - ps + 1 : undefined;
  const billingCycle =
    context.billingCycleDays && context.billingCycleDays > 0
      ? { days: context.billingCycleDays, from: 'account' as const }
      : previousDays
        ? { days: previousDays, from: 'previous bill' as const }
        : undefined;
  return {
    facts,
    context,
    utility,
    consumption,
    unit,
    ...energyOf(utility, consumption, unit, facts.calorificValue),
    start,
    end,
    days,
    invoiceDay: dayNumber(facts.invoiceDate),
    today: dayNumber(context.today),
    previous,
    billingCycle,
  };
}
