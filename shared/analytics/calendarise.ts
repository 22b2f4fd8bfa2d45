import { splitPeriodByMonth } from '../domain/period-split.ts';
import { daysInclusive } from './dates.ts';

/** The money on a bill, each part before being shared out; all in the bill's currency. */
export interface CostParts {
  /** Net charges excluding VAT (energy and any other charges as printed) */
  net: number;
  vat: number;
  /** Climate Change Levy */
  ccl: number;
  standing: number;
}

export const ZERO_COST: Readonly<CostParts> = { net: 0, vat: 0, ccl: 0, standing: 0 };

export interface BillRecord {
  id: string;
  /** YYYY-MM-DD, inclusive */
  start: string;
  /** YYYY-MM-DD, inclusive */
  end: string;
  quantity: number;
  cost?: Partial<CostParts>;
  /** The bill's closing read was estimated by the supplier. */
  estimatedRead?: boolean;
}

export interface BillMonthShare {
  billId: string;
  /** YYYY-MM */
  month: string;
  days: number;
  /** Of the bill's period, 0 to 1 */
  fraction: number;
  quantity: number;
  cost: CostParts;
}

export function costOf(parts: Partial<CostParts> | undefined): CostParts {
  return {
    net: parts?.net ?? 0,
    vat: parts?.vat ?? 0,
    ccl: parts?.ccl ?? 0,
    standing: parts?.standing ?? 0,
  };
}

export function scaleCost(cost: CostParts, by: number): CostParts {
  return { net: cost.net * by, vat: cost.vat * by, ccl: cost.ccl * by, standing: cost.standing * by };
}

export function addCost(a: CostParts, b: CostParts): CostParts {
  return { net: a.net + b.net, vat: a.vat + b.vat, ccl: a.ccl + b.ccl, standing: a.standing + b.standing };
}

/** Net + VAT + CCL + standing charges. */
export function costTotal(cost: CostParts): number {
  return cost.net + cost.vat + cost.ccl + cost.standing;
}

/**
 * A bill's quantity and every cost part shared over the calendar months of its period by days, so the
 * shares of each figure add back to the bill's. Sharing standing charges by days is exact, as they accrue
 * per day; sharing use by days assumes flat use across the period, the usual reading when only two meter
 * reads are known.
 */
export function calendariseBill(bill: BillRecord): BillMonthShare[] {
  const cost = costOf(bill.cost);
  return splitPeriodByMonth(bill.start, bill.end).map((share) => ({
    billId: bill.id,
    month: share.month,
    days: share.days,
    fraction: share.fraction,
    quantity: bill.quantity * share.fraction,
    cost: scaleCost(cost, share.fraction),
  }));
}

/** Use per day over the bill's period; 0 for an empty period. */
export function dailyRate(bill: BillRecord): { quantity: number; cost: CostParts } {
  const days = daysInclusive(bill.start, bill.end);
  if (days === 0) return { quantity: 0, cost: { ...ZERO_COST } };
  return { quantity: bill.quantity / days, cost: scaleCost(costOf(bill.cost), 1 / days) };
}
