import { addCost, type CostParts, scaleCost, ZERO_COST } from './calendarise.ts';
import { type Bucket, bucketOf, type CalendarPeriod, type Granularity } from './calendars.ts';
import { daysInMonth } from './dates.ts';

export interface DatedValue {
  /** YYYY-MM-DD */
  date: string;
  quantity: number;
  cost?: CostParts;
  estimated?: boolean;
}

export interface MonthlyValue {
  /** YYYY-MM */
  month: string;
  quantity: number;
  cost?: CostParts;
  estimated?: boolean;
}

export interface BucketTotal extends Bucket {
  /** Days with a figure that fell in the bucket */
  days: number;
  quantity: number;
  /** The part of `quantity` that is estimated */
  estimatedQuantity: number;
  cost: CostParts;
  /** The part of `cost` that is estimated */
  estimatedCost: CostParts;
}

/** Daily figures summed into buckets, in bucket order; buckets with no figure are left out. */
export function bucketDaily(
  values: readonly DatedValue[],
  granularity: Granularity,
  calendar: CalendarPeriod = 'standard',
): BucketTotal[] {
  const totals = new Map<string, BucketTotal>();
  for (const value of values) {
    const bucket = bucketOf(value.date, granularity, calendar);
    const total = totals.get(bucket.key) ?? {
      ...bucket,
      days: 0,
      quantity: 0,
      estimatedQuantity: 0,
      cost: { ...ZERO_COST },
      estimatedCost: { ...ZERO_COST },
    };
    const cost = value.cost ?? ZERO_COST;
    total.days += 1;
    total.quantity += value.quantity;
    total.cost = addCost(total.cost, cost);
    if (value.estimated) {
      total.estimatedQuantity += value.quantity;
      total.estimatedCost = addCost(total.estimatedCost, cost);
    }
    totals.set(bucket.key, total);
  }
  return [...totals.values()].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

/**
 * Monthly figures spread evenly over their days, so data known only by calendar month can be bucketed
 * under the financial calendars, whose periods do not follow month ends.
 */
export function spreadMonthly(values: readonly MonthlyValue[]): DatedValue[] {
  const out: DatedValue[] = [];
  for (const value of values) {
    const [y, m] = value.month.split('-').map(Number) as [number, number];
    const n = daysInMonth(y, m);
    for (let d = 1; d <= n; d++) {
      out.push({
        date: `${value.month}-${String(d).padStart(2, '0')}`,
        quantity: value.quantity / n,
        ...(value.cost ? { cost: scaleCost(value.cost, 1 / n) } : {}),
        ...(value.estimated ? { estimated: true } : {}),
      });
    }
  }
  return out;
}

export type QuantityTotal = Omit<BucketTotal, 'cost' | 'estimatedCost'>;

/** Bucket totals without their money, for a company whose settings hide cost data. */
export function withoutCosts(totals: readonly BucketTotal[]): QuantityTotal[] {
  return totals.map(({ cost: _cost, estimatedCost: _estimatedCost, ...rest }) => rest);
}
