import {
  addCost,
  type BillRecord,
  type CostParts,
  costTotal,
  dailyRate,
  scaleCost,
  ZERO_COST,
} from './calendarise.ts';
import { addMonths, type DateRange, dayNumber, daysInclusive, eachDay, isoDate, runsOf } from './dates.ts';

/** Where a day's figure came from. */
export type DayBasis = 'actual-read' | 'estimated-read' | 'same-period-last-year' | 'average-daily-use';

export interface DailyValue {
  /** YYYY-MM-DD */
  date: string;
  quantity: number;
  cost: CostParts;
  /** True for a day on an estimated-read bill and for a day filled in for lack of a bill. */
  estimated: boolean;
  basis: DayBasis;
  /** The bill the day's figure was taken from; absent for a filled day. */
  billId?: string;
}

/** Days that two bills both cover; the day's figure is taken from `keptBillId` only. */
export interface BillOverlap extends DateRange {
  days: number;
  keptBillId: string;
  droppedBillId: string;
  /** What the dropped bill would have added for these days, left out so nothing counts twice. */
  droppedQuantity: number;
  droppedCost: CostParts;
}

export interface GapFill extends DateRange {
  days: number;
  basis: 'same-period-last-year' | 'average-daily-use';
  quantity: number;
  cost: CostParts;
}

export interface MeterTimeline {
  window: DateRange;
  /** One per day of the window that has a figure, in date order. */
  days: DailyValue[];
  /** Runs of days in the window that no bill covers, before filling. */
  gaps: DateRange[];
  fills: GapFill[];
  /** Gaps left empty because the meter has no billed day at all to estimate from. */
  unfilled: DateRange[];
  overlaps: BillOverlap[];
}

/**
 * Which bill a day covered by several bills is taken from: an actual read before an estimated one (an
 * actual bill usually replaces an estimate), then the bill starting later (a bill starting inside another's
 * period is the more specific, often a re-bill), then the shorter period, then the id, so the choice never
 * depends on input order.
 */
function precedence(a: BillRecord, b: BillRecord): number {
  const estimated = Number(a.estimatedRead ?? false) - Number(b.estimatedRead ?? false);
  if (estimated !== 0) return estimated;
  if (a.start !== b.start) return a.start > b.start ? -1 : 1;
  const length = daysInclusive(a.start, a.end) - daysInclusive(b.start, b.end);
  if (length !== 0) return length;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function assignDays(bills: readonly BillRecord[]): {
  owner: Map<number, BillRecord>;
  overlaps: BillOverlap[];
} {
  const owner = new Map<number, BillRecord>();
  const clashes = new Map<string, { kept: BillRecord; dropped: BillRecord; days: string[] }>();
  for (const bill of [...bills].sort(precedence)) {
    for (let d = dayNumber(bill.start); d <= dayNumber(bill.end); d++) {
      const kept = owner.get(d);
      if (!kept) {
        owner.set(d, bill);
        continue;
      }
      const key = `${kept.id}\u0000${bill.id}`;
      const clash = clashes.get(key) ?? { kept, dropped: bill, days: [] };
      clash.days.push(isoDate(d));
      clashes.set(key, clash);
    }
  }
  const overlaps: BillOverlap[] = [];
  for (const { kept, dropped, days } of clashes.values()) {
    const rate = dailyRate(dropped);
    for (const run of runsOf(days)) {
      const n = daysInclusive(run.start, run.end);
      overlaps.push({
        ...run,
        days: n,
        keptBillId: kept.id,
        droppedBillId: dropped.id,
        droppedQuantity: rate.quantity * n,
        droppedCost: scaleCost(rate.cost, n),
      });
    }
  }
  overlaps.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return { owner, overlaps };
}

function billedDay(date: string, bill: BillRecord): DailyValue {
  const rate = dailyRate(bill);
  const estimated = bill.estimatedRead ?? false;
  return {
    date,
    quantity: rate.quantity,
    cost: rate.cost,
    estimated,
    basis: estimated ? 'estimated-read' : 'actual-read',
    billId: bill.id,
  };
}

/** The figure per day for a gap: last year's same days if bills cover them all, else the meter's average. */
function estimateGap(
  gap: DateRange,
  owner: ReadonlyMap<number, BillRecord>,
): { basis: GapFill['basis']; perDay: { quantity: number; cost: CostParts } } | undefined {
  const lastYear = eachDay(addMonths(gap.start, -12), addMonths(gap.end, -12));
  const lastYearBills = lastYear.map((d) => owner.get(dayNumber(d)));
  if (lastYearBills.every((b) => b !== undefined)) {
    let quantity = 0;
    let cost: CostParts = { ...ZERO_COST };
    for (const bill of lastYearBills) {
      const rate = dailyRate(bill);
      quantity += rate.quantity;
      cost = addCost(cost, rate.cost);
    }
    // Scaled by days: last year's range can be a day longer or shorter across 29 February.
    return {
      basis: 'same-period-last-year',
      perDay: { quantity: quantity / lastYear.length, cost: scaleCost(cost, 1 / lastYear.length) },
    };
  }
  if (owner.size === 0) return undefined;
  let quantity = 0;
  let cost: CostParts = { ...ZERO_COST };
  for (const bill of owner.values()) {
    const rate = dailyRate(bill);
    quantity += rate.quantity;
    cost = addCost(cost, rate.cost);
  }
  return {
    basis: 'average-daily-use',
    perDay: { quantity: quantity / owner.size, cost: scaleCost(cost, 1 / owner.size) },
  };
}

/**
 * A meter's daily figures over a window from all its bills (bills outside the window still serve as the
 * history that gaps are estimated from). Each day counts once: where bills overlap, one bill is kept by
 * `precedence` and the overlap is reported. A day no bill covers is filled from the same days a year
 * earlier (scaled by days) when bills cover all of them, otherwise from the meter's average daily use over
 * all billed days; filled days are marked estimated.
 */
export function buildMeterTimeline(bills: readonly BillRecord[], window: DateRange): MeterTimeline {
  const { owner, overlaps } = assignDays(bills);
  const days: DailyValue[] = [];
  const uncovered: string[] = [];
  for (const date of eachDay(window.start, window.end)) {
    const bill = owner.get(dayNumber(date));
    if (bill) days.push(billedDay(date, bill));
    else uncovered.push(date);
  }
  const gaps = runsOf(uncovered);
  const fills: GapFill[] = [];
  const unfilled: DateRange[] = [];
  for (const gap of gaps) {
    const estimate = estimateGap(gap, owner);
    if (!estimate) {
      unfilled.push(gap);
      continue;
    }
    const n = daysInclusive(gap.start, gap.end);
    fills.push({
      ...gap,
      days: n,
      basis: estimate.basis,
      quantity: estimate.perDay.quantity * n,
      cost: scaleCost(estimate.perDay.cost, n),
    });
    for (const date of eachDay(gap.start, gap.end)) {
      days.push({ date, ...estimate.perDay, estimated: true, basis: estimate.basis });
    }
  }
  days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const inWindow = (o: DateRange) => o.end >= window.start && o.start <= window.end;
  return { window, days, gaps, fills, unfilled, overlaps: overlaps.filter(inWindow) };
}

export interface EstimatePart {
  days: number;
  quantity: number;
  cost: CostParts;
}

export interface EstimateBreakdown {
  actual: EstimatePart;
  estimated: EstimatePart;
  /** Estimated share of the quantity, 0 to 1; 0 when there is no quantity. */
  estimatedQuantityShare: number;
  /** Estimated share of the total cost, 0 to 1; 0 when there is no cost. */
  estimatedCostShare: number;
}

/** How much of a set of daily figures is actual and how much estimated (estimated reads and filled gaps). */
export function estimateBreakdown(days: readonly DailyValue[]): EstimateBreakdown {
  const part = (): EstimatePart => ({ days: 0, quantity: 0, cost: { ...ZERO_COST } });
  const actual = part();
  const estimated = part();
  for (const day of days) {
    const into = day.estimated ? estimated : actual;
    into.days += 1;
    into.quantity += day.quantity;
    into.cost = addCost(into.cost, day.cost);
  }
  const quantity = actual.quantity + estimated.quantity;
  const cost = costTotal(actual.cost) + costTotal(estimated.cost);
  return {
    actual,
    estimated,
    estimatedQuantityShare: quantity === 0 ? 0 : estimated.quantity / quantity,
    estimatedCostShare: cost === 0 ? 0 : costTotal(estimated.cost) / cost,
  };
}
