import type { ExtractedReading } from '../capture/model.ts';
import {
  amountOf,
  type Bill,
  type Check,
  cancelledIds,
  describeBill,
  flagged,
  passed,
  skipped,
  thresholdOf,
} from './check-kit.ts';
import type { PriorInvoice } from './facts.ts';
import {
  addMonths,
  dayNumber,
  isoOfDay,
  money,
  monthsOf,
  percent,
  quantity,
  round,
  showDate,
  showMonth,
  toPence,
  unitFactor,
} from './figures.ts';

// ---------------------------------------------------------------- continuity

const sameMeter = (a?: string, b?: string) =>
  !a || !b || a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();

function readGap(opening: number, closing: number, what: string, prev: string): string {
  const diff = round(opening - closing);
  const shown = quantity(Math.abs(diff));
  return diff > 0
    ? `${what} is ${quantity(opening)} but the previous ${prev} closed at ${quantity(closing)}: ${shown} units between the two bills are not billed.`
    : `${what} is ${quantity(opening)} but the previous ${prev} closed at ${quantity(closing)}: ${shown} units are billed twice.`;
}

/** Reads of a register on each bill, when both bills list their registers. */
function registerPairs(
  current: ExtractedReading[],
  previous: ExtractedReading[],
): { register: string; opening: number; closing: number }[] {
  const pairs: { register: string; opening: number; closing: number }[] = [];
  for (const r of current) {
    if (!r.register || r.openingRead === undefined) continue;
    const p = previous.find(
      (q) =>
        q.register === r.register &&
        q.closingRead !== undefined &&
        sameMeter(q.meterSerialNumber, r.meterSerialNumber),
    );
    if (p?.closingRead !== undefined)
      pairs.push({ register: r.register, opening: r.openingRead, closing: p.closingRead });
  }
  return pairs;
}

export const readContinuity: Check = ({ bill }) => {
  const f = bill.facts;
  if (f.isCreditNote) return skipped('Reads are not compared on a credit note.');
  const prev = bill.previous;
  if (!prev) return skipped('No earlier bill of the account to compare the opening read with.');
  const prevName = describeBill(prev);
  if (!sameMeter(f.meterSerialNumber, prev.facts.meterSerialNumber)) {
    return skipped(
      `The meter changed since the previous ${prevName} (serial ${prev.facts.meterSerialNumber} to ${f.meterSerialNumber}), so the reads do not continue.`,
    );
  }
  const pairs = registerPairs(f.readings, prev.facts.readings);
  if (pairs.length > 0) {
    const problems = pairs
      .filter((p) => round(p.opening - p.closing) !== 0)
      .map((p) => readGap(p.opening, p.closing, `The opening read of register ${p.register}`, prevName));
    const first = pairs.find((p) => round(p.opening - p.closing) !== 0);
    if (first) {
      return flagged(problems.join(' '), {
        expected: first.closing,
        actual: first.opening,
        difference: round(first.opening - first.closing),
      });
    }
    return passed(
      `The opening reads of ${pairs.length} registers are the closing reads of the previous ${prevName}.`,
    );
  }
  if (f.openingRead === undefined) return skipped('No opening read on the bill.');
  if (prev.facts.closingRead === undefined) return skipped(`The previous ${prevName} has no closing read.`);
  const figures = {
    expected: prev.facts.closingRead,
    actual: f.openingRead,
    difference: round(f.openingRead - prev.facts.closingRead),
  };
  if (figures.difference !== 0) {
    return flagged(readGap(f.openingRead, prev.facts.closingRead, 'The opening read', prevName), figures);
  }
  return passed(
    `The opening read ${quantity(f.openingRead)} is the closing read of the previous ${prevName}.`,
    figures,
  );
};

export const periodContinuity: Check = ({ bill, rule }) => {
  if (bill.facts.isCreditNote)
    return skipped('The period of a credit note is not compared with other bills.');
  if (bill.start === undefined) return skipped('No period start date on the bill.');
  const prev = bill.previous;
  if (!prev) return skipped('No earlier bill of the account to compare the period with.');
  const prevEnd = dayNumber(prev.facts.endDate);
  if (prevEnd === undefined) return skipped(`The previous ${describeBill(prev)} has no end date.`);
  const gap = bill.start - prevEnd - 1;
  const figures = { expected: 0, actual: gap, difference: gap, unit: 'days' };
  const prevName = describeBill(prev);
  const starts = `The bill starts on ${showDate(bill.start)}`;
  if (gap > thresholdOf(rule)) {
    return flagged(
      `${starts} but the previous ${prevName} ended on ${showDate(prevEnd)}: ${gap} days (${showDate(prevEnd + 1)} to ${showDate(bill.start - 1)}) are not billed.`,
      figures,
    );
  }
  if (-gap > thresholdOf(rule)) {
    const overlapEnd = Math.min(prevEnd, bill.end ?? prevEnd);
    return flagged(
      `${starts} but the previous ${prevName} ran to ${showDate(prevEnd)}: ${-gap} days (${showDate(bill.start)} to ${showDate(overlapEnd)}) are billed twice.`,
      figures,
    );
  }
  return passed(
    gap === 0
      ? `${starts}, the day after the previous ${prevName} ended.`
      : `${starts}, within ${quantity(thresholdOf(rule))} days of the end of the previous ${prevName} (${showDate(prevEnd)}).`,
    figures,
  );
};

// ---------------------------------------------------------------- duplicates

/** Numbers are compared on their letters and digits: OCR and templates differ on spaces, dashes and case. */
const invoiceNumberKey = (n: string) => n.replace(/[^0-9a-z]/gi, '').toUpperCase();

function statusNote(p: PriorInvoice): string {
  return p.status === 'pending' ? 'not validated yet' : `validation ${p.status}`;
}

export const duplicateInvoiceNumber: Check = ({ bill }) => {
  const f = bill.facts;
  const { context } = bill;
  if (!f.invoiceNumber) return skipped('No invoice number on the bill.');
  const key = invoiceNumberKey(f.invoiceNumber);
  const seen = new Set<string>();
  const matches = [...context.sameNumberInvoices, ...context.previousInvoices].filter((p) => {
    if (p.id === context.invoiceId || seen.has(p.id)) return false;
    seen.add(p.id);
    const o = p.facts;
    return (
      o.invoiceNumber !== undefined &&
      invoiceNumberKey(o.invoiceNumber) === key &&
      o.isCreditNote === f.isCreditNote &&
      (!f.supplierId || !o.supplierId || f.supplierId === o.supplierId)
    );
  });
  const kind = f.isCreditNote ? 'credit note' : 'bill';
  const first = matches[0];
  if (!first) return passed(`No other ${kind} from this supplier has invoice number ${f.invoiceNumber}.`);
  const total = amountOf(first.facts);
  const others = matches.length > 1 ? ` and ${matches.length - 1} more` : '';
  return flagged(
    `Invoice number ${f.invoiceNumber} is already on another ${describeBill(first)}${
      total !== undefined ? ` of ${money(toPence(total))}` : ''
    } from this supplier (${statusNote(first)})${others}: remove the copy, or ask the supplier why the number was reused.`,
    { actual: f.invoiceNumber },
  );
};

export const duplicatePeriodAmount: Check = ({ bill }) => {
  const f = bill.facts;
  const { context } = bill;
  const amount = amountOf(f);
  if (!f.startDate || !f.endDate) return skipped('The bill has no full period to compare.');
  if (amount === undefined) return skipped('No total on the bill to compare.');
  const cancelled = cancelledIds(context.previousInvoices);
  const match = context.previousInvoices.find((p) => {
    const o = p.facts;
    const other = amountOf(o);
    return (
      p.id !== context.invoiceId &&
      !cancelled.has(p.id) &&
      o.isCreditNote === f.isCreditNote &&
      o.startDate === f.startDate &&
      o.endDate === f.endDate &&
      other !== undefined &&
      toPence(other) === toPence(amount)
    );
  });
  const period = `${showDate(f.startDate)} to ${showDate(f.endDate)}`;
  if (!match)
    return passed(`No other bill of the account covers ${period} with a total of ${money(toPence(amount))}.`);
  return flagged(
    `The ${describeBill(match)} (${statusNote(match)}) has the same period and the same total ${money(
      toPence(amount),
    )}: the bill looks like a copy of it.`,
    { expected: 0, actual: 1 },
  );
};

// ---------------------------------------------------------------- consumption

/** The account's monthly consumption in the bill's unit; months in units that do not convert are left out. */
function historyIn(bill: Bill, unit: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of bill.context.consumptionHistory) {
    const factor = unitFactor(m.unit, unit);
    if (factor === undefined) continue;
    out.set(m.month, (out.get(m.month) ?? 0) + m.consumption * factor);
  }
  return out;
}

/** A bill's consumption against an expected figure; skips first when the bill has nothing to compare. */
function needsConsumption(bill: Bill) {
  if (bill.facts.isCreditNote) return skipped('Consumption is not compared on a credit note.');
  if (bill.consumption === undefined || !bill.unit) return skipped('No consumption on the bill.');
  if (bill.start === undefined || bill.end === undefined) return skipped('The bill has no full period.');
  if (bill.days === undefined) return skipped('The bill period ends before it starts.');
  return undefined;
}

function deviation(actual: number, expected: number, allowed: number, unit: string, against: string) {
  const figures = { expected: round(expected, 2), actual: round(actual, 2), unit };
  if (round(expected, 2) === 0) {
    return actual === 0
      ? passed(`No consumption, as ${against}.`, { ...figures, difference: 0 })
      : flagged(`Consumption is ${quantity(actual, unit)} but ${against} it was none.`, {
          ...figures,
          difference: round(actual, 2),
        });
  }
  const pct = ((actual - expected) / expected) * 100;
  const direction = pct >= 0 ? 'more' : 'less';
  const sentence = `Consumption of ${quantity(actual, unit)} is ${percent(Math.abs(pct))} ${direction} than the ${quantity(
    expected,
    unit,
  )} ${against}`;
  const result = { ...figures, difference: round(actual - expected, 2) };
  if (Math.abs(pct) > allowed) {
    return flagged(
      `${sentence}; the allowed deviation is ${percent(allowed)}. Check the reads and the meter before accepting it.`,
      result,
    );
  }
  return passed(`${sentence}, within the allowed ${percent(allowed)}.`, result);
}

export const consumptionVsLastYear: Check = ({ bill, rule }) => {
  const early = needsConsumption(bill);
  if (early) return early;
  const start = addMonths(bill.start ?? 0, -12);
  const end = addMonths(bill.end ?? 0, -12);
  const history = historyIn(bill, bill.unit ?? '');
  const months = monthsOf(start, end);
  const missing = months.filter((m) => !history.has(m.month));
  if (missing.length > 0) {
    return skipped(
      `The account has no consumption for ${missing.map((m) => showMonth(m.month)).join(', ')} to compare the same period last year with.`,
    );
  }
  const expected = months.reduce((a, m) => a + ((history.get(m.month) ?? 0) * m.days) / m.daysInMonth, 0);
  return deviation(
    bill.consumption ?? 0,
    expected,
    thresholdOf(rule),
    bill.unit ?? '',
    `used in the same period last year (${showDate(start)} to ${showDate(end)})`,
  );
};

/** Fewer months than this make a poor average: one odd month would set the bar. */
const MIN_AVERAGE_MONTHS = 3;

export const consumptionVsAverage: Check = ({ bill, rule }) => {
  const early = needsConsumption(bill);
  if (early) return early;
  const firstOfStart = dayNumber(`${isoOfDay(bill.start ?? 0).slice(0, 7)}-01`) ?? 0;
  const window = monthsOf(addMonths(firstOfStart, -12), firstOfStart - 1);
  const history = historyIn(bill, bill.unit ?? '');
  const known = window.filter((m) => history.has(m.month));
  if (known.length < MIN_AVERAGE_MONTHS) {
    return skipped(
      known.length === 0
        ? 'The account has no consumption for the 12 months before the bill to average.'
        : `The account has consumption for ${known.length} of the 12 months before the bill; at least ${MIN_AVERAGE_MONTHS} are needed for an average.`,
    );
  }
  const total = known.reduce((a, m) => a + (history.get(m.month) ?? 0), 0);
  const days = known.reduce((a, m) => a + m.daysInMonth, 0);
  const perDay = total / days;
  const expected = perDay * (bill.days ?? 0);
  return deviation(
    bill.consumption ?? 0,
    expected,
    thresholdOf(rule),
    bill.unit ?? '',
    `the average of the last ${known.length} months (${quantity(perDay, bill.unit)} a day) gives for ${bill.days} days`,
  );
};

// ---------------------------------------------------------------- missing bills

export const missingBills: Check = ({ bill, rule }) => {
  if (bill.facts.isCreditNote) return skipped('Missing bills are looked for from bills, not credit notes.');
  if (bill.start === undefined) return skipped('No period start date on the bill.');
  const prev = bill.previous;
  if (!prev) return skipped('No earlier bill of the account to measure the gap from.');
  const prevEnd = dayNumber(prev.facts.endDate);
  if (prevEnd === undefined) return skipped(`The previous ${describeBill(prev)} has no end date.`);
  const cycle = bill.billingCycle;
  if (!cycle) return skipped('The account has no billing cycle.');
  const gap = bill.start - prevEnd - 1;
  const allowed = (cycle.days * thresholdOf(rule)) / 100;
  const cycleText =
    cycle.from === 'account'
      ? `the ${cycle.days}-day billing cycle`
      : `the ${cycle.days}-day period of the previous bill`;
  const figures = { expected: round(allowed, 1), actual: Math.max(gap, 0), unit: 'days' };
  if (gap > 0 && gap >= allowed) {
    const count = Math.max(1, Math.round(gap / cycle.days));
    return flagged(
      `No bill covers ${showDate(prevEnd + 1)} to ${showDate(bill.start - 1)} (${gap} days) between the previous ${describeBill(
        prev,
      )} and this one: about ${count} ${count === 1 ? 'bill' : 'bills'} of ${cycleText} ${
        count === 1 ? 'is' : 'are'
      } missing. Ask the supplier for ${count === 1 ? 'it' : 'them'}.`,
      { ...figures, difference: round(gap - allowed, 1) },
    );
  }
  return passed(
    gap > 0
      ? `The gap of ${gap} days since the previous ${describeBill(prev)} is shorter than ${percent(thresholdOf(rule))} of ${cycleText}.`
      : `The bill follows on from the previous ${describeBill(prev)}.`,
    figures,
  );
};
