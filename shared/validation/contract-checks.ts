import { type Bill, type Check, flagged, passed, skipped, thresholdOf } from './check-kit.ts';
import type { ContractRate } from './facts.ts';
import { dayNumber, money, percent, round, showDate, toPence, unitFactor, unitPrice } from './figures.ts';

interface BillRate {
  label: string;
  kind: 'unit' | 'standing';
  /** Pounds per unit */
  rate: number;
  unit: string | undefined;
  first: number | undefined;
  last: number | undefined;
}

/** The rates the bill charges: its unit and standing lines, else the single unit rate and standing charge. */
function billRates(bill: Bill): BillRate[] {
  const f = bill.facts;
  const out: BillRate[] = [];
  for (const r of f.rates) {
    if ((r.kind !== 'unit' && r.kind !== 'standing') || r.unitRate === undefined) continue;
    out.push({
      label: r.description.trim() || (r.kind === 'unit' ? 'The unit rate' : 'The standing charge'),
      kind: r.kind,
      rate: Math.abs(r.unitRate),
      unit: r.unit ?? (r.kind === 'unit' ? bill.unit : 'day'),
      first: dayNumber(r.startDate) ?? bill.start,
      last: dayNumber(r.endDate) ?? bill.end,
    });
  }
  if (!out.some((r) => r.kind === 'unit') && f.unitRate !== undefined) {
    out.push({
      label: 'The unit rate',
      kind: 'unit',
      rate: Math.abs(f.unitRate),
      unit: bill.unit,
      first: bill.start,
      last: bill.end,
    });
  }
  if (!out.some((r) => r.kind === 'standing') && f.standingCharge !== undefined && bill.days) {
    out.push({
      label: `The standing charge (${money(toPence(Math.abs(f.standingCharge)))} over ${bill.days} days)`,
      kind: 'standing',
      rate: Math.abs(f.standingCharge) / bill.days,
      unit: 'day',
      first: bill.start,
      last: bill.end,
    });
  }
  return out;
}

const IGNORED_WORDS = new Set([
  'rate',
  'rates',
  'unit',
  'units',
  'charge',
  'charges',
  'kwh',
  'the',
  'of',
  'per',
]);
const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !IGNORED_WORDS.has(w));

/** The contract rate a bill rate is charged under, in the bill rate's unit. */
function contractFor(
  rate: BillRate,
  contract: ContractRate[],
): { c: ContractRate; perUnit: number } | undefined {
  const candidates = contract
    .filter((c) => c.kind === rate.kind)
    .filter((c) => {
      const from = dayNumber(c.validFrom);
      const to = dayNumber(c.validTo);
      return (
        (from === undefined || rate.last === undefined || from <= rate.last) &&
        (to === undefined || rate.first === undefined || to >= rate.first)
      );
    })
    .flatMap((c) => {
      const factor = rate.unit ? unitFactor(c.unit, rate.unit) : 1;
      return factor === undefined ? [] : [{ c, perUnit: c.rate / factor }];
    });
  if (candidates.length <= 1) return candidates[0];
  // Day and night rates are told apart by name; when no name fits, the nearest rate is the one meant.
  const label = new Set(words(rate.label));
  const named = candidates.filter((x) => words(x.c.name).every((w) => label.has(w)));
  const pool = named.length > 0 ? named : candidates;
  return pool.reduce((best, x) =>
    Math.abs(x.perUnit - rate.rate) < Math.abs(best.perUnit - rate.rate) ? x : best,
  );
}

export const contractRates: Check = ({ bill, rule }) => {
  if (bill.context.contractRates.length === 0)
    return skipped('The account has no contract rates to compare with.');
  const rates = billRates(bill);
  if (rates.length === 0) return skipped('No unit rate or standing charge on the bill.');
  const allowed = thresholdOf(rule);
  const problems: string[] = [];
  const unmatched: string[] = [];
  let checked = 0;
  let first: { expected: number; actual: number; difference: number; unit: string } | undefined;
  for (const r of rates) {
    const match = contractFor(r, bill.context.contractRates);
    if (!match) {
      unmatched.push(r.label);
      continue;
    }
    checked++;
    const perUnit = match.perUnit;
    const dev =
      perUnit === 0 ? (r.rate === 0 ? 0 : Number.POSITIVE_INFINITY) : ((r.rate - perUnit) / perUnit) * 100;
    if (Math.abs(dev) <= allowed) continue;
    first ??= {
      expected: round(perUnit, 6),
      actual: round(r.rate, 6),
      difference: round(r.rate - perUnit, 6),
      unit: `£/${r.unit ?? 'unit'}`,
    };
    const how = Number.isFinite(dev)
      ? ` (${percent(Math.abs(dev))} ${dev > 0 ? 'higher' : 'lower'}; allowed ${percent(allowed)})`
      : '';
    problems.push(
      `${r.label} is charged at ${unitPrice(r.rate, r.unit)} but the contract rate "${match.c.name}" is ${unitPrice(perUnit, r.unit)}${how}.`,
    );
  }
  const period =
    bill.start !== undefined && bill.end !== undefined
      ? ` for ${showDate(bill.start)} to ${showDate(bill.end)}`
      : '';
  if (checked === 0) {
    return skipped(
      `No contract rate in force${period} matches the rates on the bill (${unmatched.join(', ')}).`,
    );
  }
  const notCompared = unmatched.length > 0 ? ` No contract rate for: ${unmatched.join(', ')}.` : '';
  if (first) return flagged(`${problems.join(' ')}${notCompared}`, first);
  return passed(
    `${checked === 1 ? 'The rate' : `All ${checked} rates`} on the bill match the contract within ${percent(allowed)}.${notCompared}`,
  );
};
