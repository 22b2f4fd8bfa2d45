import { CCA_DISCOUNTS, CCL_RATES, type CclUtility, ccaDiscount, cclRate } from '../domain/ccl.ts';
import { DE_MINIMIS, energyVatRate, STANDARD_VAT_RATE } from '../domain/vat.ts';
import { type Bill, type Check, flagged, passed, skipped, thresholdOf } from './check-kit.ts';
import type { InvoiceFacts } from './facts.ts';
import {
  dayNumber,
  isoOfDay,
  money,
  percent,
  quantity,
  round,
  showDate,
  toPence,
  unitPrice,
} from './figures.ts';

/** Rounds half away from zero, so that a credit rounds like the bill it mirrors. */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** The levy charged, in pence: its lines when the bill has them, else the levy amount read. */
function cclChargedPence(f: InvoiceFacts): number | undefined {
  const lines = f.rates.filter((r) => r.kind === 'ccl' && r.amount !== undefined);
  if (lines.length > 0) return lines.reduce((a, r) => a + toPence(r.amount ?? 0), 0);
  return f.climateChangeLevy === undefined ? undefined : toPence(f.climateChangeLevy);
}

function energyUtility(bill: Bill): CclUtility | undefined {
  return bill.utility === 'electricity' || bill.utility === 'gas' ? bill.utility : undefined;
}

// ---------------------------------------------------------------- VAT

/** Why the supply gets the reduced rate whatever its size, if it does. */
function qualifyingUse(bill: Bill): string | undefined {
  const account = bill.context.account;
  if (account?.domestic) return 'the supply is domestic';
  if (account?.charity) return 'the supply is for charity non-business use';
  return undefined;
}

/** The rate the bill charges: as printed, or worked out from its amounts (the levy at the standard rate). */
function chargedRate(f: InvoiceFacts): { rate: number; derived: boolean } | undefined {
  if (f.vatRate !== undefined) return { rate: f.vatRate, derived: false };
  if (f.netTotal === undefined || f.vatTotal === undefined) return undefined;
  const ccl = (cclChargedPence(f) ?? 0) / 100;
  const base = f.netTotal - ccl;
  if (base === 0) return undefined;
  return { rate: round(((f.vatTotal - (ccl * STANDARD_VAT_RATE) / 100) / base) * 100, 1), derived: true };
}

export const vatRateCheck: Check = ({ bill }) => {
  const utility = energyUtility(bill);
  if (!utility) return skipped('The VAT rate is checked on electricity and gas bills only.');
  const charged = chargedRate(bill.facts);
  if (!charged) return skipped('No VAT rate or VAT amount on the bill.');
  let expected: number;
  let basis = qualifyingUse(bill);
  if (basis) {
    expected = energyVatRate({ utility, kwhPerDay: 0, qualifyingUse: true });
  } else {
    if (bill.kwh === undefined)
      return skipped('No consumption in kWh on the bill, so the de minimis cannot be worked out.');
    if (bill.days === undefined)
      return skipped('The bill has no valid period, so the de minimis cannot be worked out.');
    const kwh = Math.abs(bill.kwh);
    const perDay = kwhPerDay(bill) ?? 0;
    const limit = DE_MINIMIS[utility].kwhPerDay;
    expected = energyVatRate({ utility, kwhPerDay: perDay });
    const within = perDay <= limit;
    const from = bill.kwhFrom ? ` (${bill.kwhFrom})` : '';
    basis = `${quantity(round(kwh, 0), 'kWh')}${from} over ${bill.days} days is ${quantity(round(perDay, 1), 'kWh')} a day, ${
      within ? 'within' : 'above'
    } the ${utility} de minimis of ${quantity(limit, 'kWh')} a day${within ? '' : ', and the supply is not domestic or charity use'}`;
  }
  const what = charged.derived
    ? `VAT of ${money(toPence(bill.facts.vatTotal ?? 0))} on the net ${money(toPence(bill.facts.netTotal ?? 0))} is ${percent(charged.rate)}`
    : `VAT is charged at ${percent(charged.rate)}`;
  // A rate worked out from rounded amounts is only near the true one.
  const tolerance = charged.derived ? 0.5 : 0.001;
  const figures = {
    expected,
    actual: charged.rate,
    difference: round(charged.rate - expected, 2),
    unit: '%',
  };
  if (Math.abs(charged.rate - expected) > tolerance) {
    return flagged(`${what} but ${basis}, so the rate is ${percent(expected)}.`, figures);
  }
  return passed(`${what}, the right rate: ${basis}.`, figures);
};

export const vatAmount: Check = ({ bill, rule }) => {
  const f = bill.facts;
  if (f.vatTotal === undefined) return skipped('No VAT amount on the bill.');
  if (f.netTotal === undefined) return skipped('No net total on the bill.');
  if (f.vatRate === undefined) return skipped('No VAT rate on the bill to work the VAT out from.');
  const net = toPence(f.netTotal);
  const vat = toPence(f.vatTotal);
  const ccl = cclChargedPence(f) ?? 0;
  const split = ccl !== 0 && f.vatRate !== STANDARD_VAT_RATE;
  const expected = split
    ? roundHalfAway(((net - ccl) * f.vatRate) / 100 + (ccl * STANDARD_VAT_RATE) / 100)
    : roundHalfAway((net * f.vatRate) / 100);
  const of = split
    ? `${percent(f.vatRate)} of the supply ${money(net - ccl)} plus ${percent(STANDARD_VAT_RATE)} of the levy ${money(ccl)}`
    : `${percent(f.vatRate)} of the net ${money(net)}`;
  const diff = vat - expected;
  const figures = { expected: expected / 100, actual: vat / 100, difference: diff / 100, unit: '£' };
  if (Math.abs(diff) > toPence(thresholdOf(rule))) {
    return flagged(
      `VAT is ${money(vat)} but ${of} is ${money(expected)} (difference ${money(Math.abs(diff))}).`,
      figures,
    );
  }
  return passed(`VAT of ${money(vat)} is ${of}.`, figures);
};

// ---------------------------------------------------------------- Climate Change Levy

/** kWh a day the bill's consumption averages over its period, the measure of the de minimis. */
function kwhPerDay(bill: Bill): number | undefined {
  if (bill.kwh === undefined || bill.days === undefined) return undefined;
  return Math.abs(bill.kwh) / bill.days;
}

/**
 * Why no levy is due, if none is. Supplies under the VAT de minimis count as domestic use for the levy
 * too, so a small business supply at the reduced VAT rate bears no levy either.
 */
function cclExemption(bill: Bill, utility: CclUtility): string | undefined {
  const account = bill.context.account;
  if (account?.domestic) return 'domestic';
  if (account?.charity) return 'for charity non-business use';
  if (account?.cclExempt) return 'exempt from the levy';
  const perDay = kwhPerDay(bill);
  if (perDay !== undefined && perDay <= DE_MINIMIS[utility].kwhPerDay) {
    return `under the ${utility} de minimis (${quantity(round(perDay, 1), 'kWh')} a day), which the levy treats as domestic use`;
  }
  return undefined;
}

interface LevySegment {
  first: number;
  last: number;
  rate: number;
  /** The climate change agreement discount applied, 0 to 1 */
  discount?: number;
}

/** The period cut where the levy rate changes (each 1 April it may), with the rate of each part. */
function levySegments(
  utility: CclUtility,
  first: number,
  last: number,
  cca: boolean,
): LevySegment[] | { unknownFrom: number } {
  // Either the main rate or the agreement discount can change, each on a 1 April.
  const dates = [
    ...CCL_RATES.filter((r) => r.utility === utility).map((r) => r.from),
    ...(cca ? CCA_DISCOUNTS.filter((d) => d.utility === utility).map((d) => d.from) : []),
  ];
  const changes = [
    ...new Set(dates.map((d) => dayNumber(d) ?? 0).filter((d) => d > first && d <= last)),
  ].sort((a, b) => a - b);
  const starts = [first, ...changes];
  const out: LevySegment[] = [];
  for (const [i, s] of starts.entries()) {
    const rate = cclRate(utility, isoOfDay(s), { cca });
    if (rate === undefined) return { unknownFrom: s };
    const discount = cca ? ccaDiscount(utility, isoOfDay(s)) : undefined;
    out.push({
      first: s,
      last: (starts[i + 1] ?? last + 1) - 1,
      rate,
      ...(discount === undefined ? {} : { discount }),
    });
  }
  return out;
}

export const cclRateCheck: Check = ({ bill, rule }) => {
  const utility = energyUtility(bill);
  if (!utility) return skipped('The Climate Change Levy applies to electricity and gas only.');
  const charged = cclChargedPence(bill.facts);
  const exemption = cclExemption(bill, utility);
  if (exemption) {
    if (charged !== undefined && charged !== 0) {
      return flagged(
        `The bill charges ${money(charged)} of Climate Change Levy but the supply is ${exemption}, so none is due: ask the supplier to remove it.`,
        { expected: 0, actual: charged / 100, difference: charged / 100, unit: '£' },
      );
    }
    return passed(`No Climate Change Levy is charged, as the supply is ${exemption}.`);
  }
  if (bill.start === undefined || bill.end === undefined || bill.days === undefined) {
    return skipped('The bill has no valid period to find the levy rate for.');
  }
  const cca = bill.context.account?.climateChangeAgreement === true;
  const segments = levySegments(utility, bill.start, bill.end, cca);
  if (!Array.isArray(segments)) {
    return skipped(`No levy rate is known for ${utility} on ${showDate(segments.unknownFrom)}.`);
  }
  const cclLines = bill.facts.rates.filter((r) => r.kind === 'ccl');
  const lineKwh = cclLines.every((r) => r.units !== undefined && (!r.unit || r.unit.toLowerCase() === 'kwh'))
    ? cclLines.reduce((a, r) => a + (r.units ?? 0), 0)
    : undefined;
  const kwh = bill.kwh ?? (cclLines.length > 0 ? lineKwh : undefined);
  if (kwh === undefined) return skipped('No consumption in kWh on the bill to work the levy out on.');

  const days = bill.days;
  const expected = Math.round(
    segments.reduce((a, s) => a + (Math.abs(kwh) * (s.last - s.first + 1) * s.rate) / days, 0) * 100,
  );
  const rates =
    segments.length === 1
      ? unitPrice(segments[0]?.rate ?? 0, 'kWh')
      : segments
          .map((s) => `${unitPrice(s.rate, 'kWh')} from ${showDate(s.first)} to ${showDate(s.last)}`)
          .join(' and ');
  const discounts = [...new Set(segments.map((s) => s.discount ?? 0))];
  const ccaNote = cca
    ? ` (the climate change agreement rate, ${discounts.map((d) => percent(round(d * 100, 2))).join(' then ')} off the main rate)`
    : '';
  const due = `${quantity(Math.abs(kwh), 'kWh')} at ${rates}${ccaNote} is ${money(expected)}`;
  if (charged === undefined) {
    return skipped(
      `The bill shows no Climate Change Levy, though ${due}: check whether the supply is exempt, or ask the supplier.`,
    );
  }

  const problems: string[] = [];
  for (const line of cclLines) {
    if (line.unitRate === undefined) continue;
    const r = line.unitRate;
    if (!segments.some((s) => Math.abs(s.rate - r) < 0.000005)) {
      problems.push(
        `The levy is charged at ${unitPrice(r, 'kWh')} but the rate for the period is ${segments
          .map((s) => unitPrice(s.rate, 'kWh'))
          .join(' and ')}${ccaNote}.`,
      );
    }
  }
  const actual = Math.abs(charged);
  const diff = actual - expected;
  const figures = { expected: expected / 100, actual: actual / 100, difference: diff / 100, unit: '£' };
  if (Math.abs(diff) > toPence(thresholdOf(rule))) {
    problems.unshift(
      `The levy charged is ${money(actual)} but ${due} (difference ${money(Math.abs(diff))}).`,
    );
  }
  if (problems.length > 0) return flagged(problems.join(' '), figures);
  return passed(`The levy of ${money(actual)} is right: ${due}.`, figures);
};
