import { type Check, flagged, passed, skipped, thresholdOf } from './check-kit.ts';
import { addMonths, percent, quantity, round, showDate } from './figures.ts';

export const periodOrder: Check = ({ bill }) => {
  if (bill.start === undefined || bill.end === undefined)
    return skipped('The bill has no period start or end date.');
  if (bill.end < bill.start) {
    return flagged(
      `The bill period ends on ${showDate(bill.end)}, before it starts on ${showDate(bill.start)}: the dates were probably misread or swapped.`,
      { actual: bill.end - bill.start + 1, unit: 'days' },
    );
  }
  return passed(`The bill period runs from ${showDate(bill.start)} to ${showDate(bill.end)}.`);
};

export const periodTooLong: Check = ({ bill, rule }) => {
  if (bill.days === undefined) return skipped('The bill has no valid period.');
  const cycle = bill.billingCycle;
  if (!cycle) return skipped('The account has no billing cycle and no earlier bill to take one from.');
  const share = thresholdOf(rule);
  const allowed = (cycle.days * share) / 100;
  const cycleText =
    cycle.from === 'account'
      ? `the ${cycle.days}-day billing cycle`
      : `the ${cycle.days}-day period of the previous bill`;
  const figures = {
    expected: round(allowed, 1),
    actual: bill.days,
    difference: round(bill.days - allowed, 1),
    unit: 'days',
  };
  if (bill.days > allowed) {
    return flagged(
      `The bill covers ${bill.days} days, more than the ${quantity(allowed)} days allowed (${percent(share)} of ${cycleText}): check whether it bills several periods at once, or its dates were misread.`,
      figures,
    );
  }
  return passed(`The bill covers ${bill.days} days, within ${percent(share)} of ${cycleText}.`, figures);
};

export const periodInFuture: Check = ({ bill }) => {
  if (bill.today === undefined) return skipped("Today's date is not known.");
  if (bill.invoiceDay !== undefined && bill.invoiceDay > bill.today) {
    return flagged(
      `The bill is dated ${showDate(bill.invoiceDay)}, after today (${showDate(bill.today)}): the date was probably misread.`,
      {
        expected: showDate(bill.today),
        actual: showDate(bill.invoiceDay),
      },
    );
  }
  if (bill.end === undefined) return skipped('No period end date on the bill.');
  const issued = bill.invoiceDay ?? bill.today;
  const when =
    bill.invoiceDay !== undefined
      ? `the bill was issued on ${showDate(issued)}`
      : `today (${showDate(issued)})`;
  if (bill.end > issued) {
    return flagged(
      `The bill period ends on ${showDate(bill.end)}, after ${when}: it charges for ${bill.end - issued} days not yet supplied.`,
      { expected: showDate(issued), actual: showDate(bill.end), difference: bill.end - issued, unit: 'days' },
    );
  }
  return passed(`The bill period ends on ${showDate(bill.end)}, not after ${when}.`);
};

export const backBilling: Check = ({ bill, rule }) => {
  if (bill.facts.isCreditNote) return skipped('A credit note is not a back-bill.');
  const account = bill.context.account;
  const who = account?.domestic
    ? 'a domestic customer'
    : account?.microbusiness
      ? 'a microbusiness'
      : undefined;
  if (!who)
    return skipped(
      'Back-billing protection applies to domestic and microbusiness supplies; this account is neither.',
    );
  if (bill.start === undefined) return skipped('No period start date on the bill.');
  if (bill.invoiceDay === undefined) return skipped('No invoice date on the bill.');
  const months = thresholdOf(rule);
  const cutoff = addMonths(bill.invoiceDay, -Math.round(months));
  if (bill.start < cutoff) {
    const lastBarred = Math.min(cutoff - 1, bill.end ?? cutoff - 1);
    return flagged(
      `The bill charges for energy from ${showDate(bill.start)}, more than ${months} months before it was issued on ${showDate(
        bill.invoiceDay,
      )}: ${who} cannot be billed for energy used before ${showDate(cutoff)}, so the ${lastBarred - bill.start + 1} days to ${showDate(
        lastBarred,
      )} should come off the bill.`,
      {
        expected: showDate(cutoff),
        actual: showDate(bill.start),
        difference: cutoff - bill.start,
        unit: 'days',
      },
    );
  }
  return passed(`The bill charges for no energy used more than ${months} months before it was issued.`);
};
