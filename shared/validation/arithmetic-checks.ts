import type { ExtractedRate } from '../capture/model.ts';
import { type Check, flagged, passed, skipped, thresholdOf } from './check-kit.ts';
import { money, quantity, toPence, unitPrice } from './figures.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The charge lines (VAT aside) and, when no line carries them, the standing charge and levy amounts. */
export const linesSumToNet: Check = ({ bill, rule }) => {
  const f = bill.facts;
  if (f.netTotal === undefined) return skipped('No net total on the bill.');
  const lines = f.rates.filter((r) => r.kind !== 'vat' && r.amount !== undefined);
  if (lines.length === 0) return skipped('No charge lines with amounts were read from the bill.');
  let sum = lines.reduce((a, r) => a + toPence(r.amount ?? 0), 0);
  const parts = [plural(lines.length, 'charge line')];
  if (f.standingCharge !== undefined && !lines.some((r) => r.kind === 'standing')) {
    sum += toPence(f.standingCharge);
    parts.push('the standing charge');
  }
  if (f.climateChangeLevy !== undefined && !lines.some((r) => r.kind === 'ccl')) {
    sum += toPence(f.climateChangeLevy);
    parts.push('the Climate Change Levy');
  }
  const what =
    parts.length === 1 ? `The ${parts[0]}` : `The ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const net = toPence(f.netTotal);
  const diff = sum - net;
  const figures = { expected: net / 100, actual: sum / 100, difference: diff / 100, unit: '£' };
  const tolerance = toPence(thresholdOf(rule));
  // Some suppliers print each line with its VAT: such lines add up to the total, not the net.
  const grossPounds = f.grossTotal ?? (f.vatTotal !== undefined ? f.netTotal + f.vatTotal : undefined);
  const gross = grossPounds === undefined ? undefined : toPence(grossPounds);
  if (
    Math.abs(diff) > tolerance &&
    gross !== undefined &&
    gross !== net &&
    Math.abs(sum - gross) <= tolerance
  ) {
    return passed(`${what} add up to ${money(sum)}, the total with VAT: the lines include VAT.`, {
      expected: gross / 100,
      actual: sum / 100,
      difference: (sum - gross) / 100,
      unit: '£',
    });
  }
  if (Math.abs(diff) > tolerance) {
    return flagged(
      `${what} add up to ${money(sum)} but the net total is ${money(net)} (difference ${money(Math.abs(diff))}).`,
      figures,
    );
  }
  return passed(`${what} add up to ${money(sum)}, the net total.`, figures);
};

export const netPlusVatIsTotal: Check = ({ bill, rule }) => {
  const f = bill.facts;
  if (f.netTotal === undefined) return skipped('No net total on the bill.');
  if (f.grossTotal === undefined) return skipped('No total on the bill.');
  const vatPounds = f.vatTotal ?? (f.vatRate === 0 ? 0 : undefined);
  if (vatPounds === undefined) return skipped('No VAT amount on the bill.');
  const net = toPence(f.netTotal);
  const vat = toPence(vatPounds);
  const gross = toPence(f.grossTotal);
  const sum = net + vat;
  const diff = gross - sum;
  const figures = { expected: sum / 100, actual: gross / 100, difference: diff / 100, unit: '£' };
  if (Math.abs(diff) > toPence(thresholdOf(rule))) {
    return flagged(
      `Net ${money(net)} plus VAT ${money(vat)} is ${money(sum)} but the total is ${money(gross)} (difference ${money(Math.abs(diff))}).`,
      figures,
    );
  }
  return passed(`Net ${money(net)} plus VAT ${money(vat)} is the total ${money(gross)}.`, figures);
};

function lineName(r: ExtractedRate): string {
  return r.description.trim() || `The ${r.kind} line`;
}

/** Magnitudes are compared: a credit line may print its units and rate positive and its amount negative. */
export const unitsTimesRate: Check = ({ bill, rule }) => {
  const lines = bill.facts.rates.filter(
    (r) => r.units !== undefined && r.unitRate !== undefined && r.amount !== undefined,
  );
  if (lines.length === 0) return skipped('No charge line on the bill has units, a rate and an amount.');
  const tolerance = toPence(thresholdOf(rule));
  const problems: string[] = [];
  let first: { expected: number; actual: number; difference: number } | undefined;
  for (const r of lines) {
    const units = r.units ?? 0;
    const rate = r.unitRate ?? 0;
    const expected = Math.abs(toPence(units * rate));
    const actual = Math.abs(toPence(r.amount ?? 0));
    const diff = actual - expected;
    if (Math.abs(diff) <= tolerance) continue;
    first ??= { expected: expected / 100, actual: actual / 100, difference: diff / 100 };
    problems.push(
      `${lineName(r)}: ${quantity(units, r.unit)} at ${unitPrice(rate, r.unit)} is ${money(expected)} but the line says ${money(actual)} (difference ${money(Math.abs(diff))}).`,
    );
  }
  if (first) return flagged(problems.join(' '), { ...first, unit: '£' });
  return passed(
    lines.length === 1
      ? `The line ${lineName(lines[0] as ExtractedRate)} is its units times its rate.`
      : `Each of the ${lines.length} lines with units and a rate is its units times its rate.`,
  );
};
