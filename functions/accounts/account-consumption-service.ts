import type * as z from 'zod';
import { consumptionQuerySchema } from '../../shared/schemas/account-queries.ts';
import { convertQuantity } from '../../shared/schemas/account-rules.ts';
import type {
  AccountConsumption,
  ConsumptionOldPoint,
  ConsumptionPoint,
} from '../../shared/schemas/account-views.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError } from '../core/lib/errors.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { routeAccount, unitOf } from './account-links.ts';
import { invalidateAccountCache } from './account-rollups.ts';
import { listAccountMonths, type StoredAccountMonth } from './consumption-repository.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** The last day of a YYYY-MM month, as YYYY-MM-DD. */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`;
}

/** The default window (02 §9): from the start of the month a year ago to the end of last month. */
export function defaultWindow(today: Date): { startDate: string; endDate: string } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const lastMonth = new Date(Date.UTC(y, m - 1, 1));
  return {
    startDate: `${y - 1}-${pad(m + 1)}-01`,
    endDate: monthEnd(`${lastMonth.getUTCFullYear()}-${pad(lastMonth.getUTCMonth() + 1)}`),
  };
}

/**
 * An account's figures over a window, from its stored months (every month that overlaps the window), in
 * the account's own unit. Months recorded in a unit that cannot be converted to it are left out.
 */
export async function accountConsumption(
  account: StoredItem,
  q: z.output<typeof consumptionQuerySchema>,
  today = new Date(),
): Promise<AccountConsumption> {
  const fallback = defaultWindow(today);
  const startDate = q.startDate ?? fallback.startDate;
  const endDate = q.endDate ?? fallback.endDate;
  if (endDate < startDate) throw formError({ endDate: 'Must be on or after the start date' });
  const unit = unitOf(account);
  const months = await listAccountMonths(
    String(account.companyId),
    account._id,
    startDate.slice(0, 7),
    endDate.slice(0, 7),
  );
  const points = new Map<string, ConsumptionPoint>();
  for (const m of months) {
    const value = convertQuantity(m.consumption, m.unit, unit);
    if (value === undefined) continue;
    const period = q.granularity === 'yearly' ? m.month.slice(0, 4) : m.month;
    const point = points.get(period) ?? emptyPoint(period, q.granularity, startDate, endDate);
    point.consumption += value;
    point.cost += m.cost;
    point.emissionsKg += m.emissionsKg;
    point.estimated ||= isEstimate(m);
    points.set(period, point);
  }
  const data = [...points.values()]
    .sort((a, b) => a.period.localeCompare(b.period))
    .map((p) => ({
      ...p,
      consumption: round(p.consumption, 3),
      cost: round(p.cost, 2),
      emissionsKg: round(p.emissionsKg, 3),
    }));
  const sum = (f: (p: ConsumptionPoint) => number) => data.reduce((s, p) => s + f(p), 0);
  return {
    accountId: account._id,
    unit,
    currency: 'GBP',
    granularity: q.granularity,
    startDate,
    endDate,
    data,
    totals: {
      consumption: round(
        sum((p) => p.consumption),
        3,
      ),
      cost: round(
        sum((p) => p.cost),
        2,
      ),
      emissionsKg: round(
        sum((p) => p.emissionsKg),
        3,
      ),
    },
  };
}

const isEstimate = (m: StoredAccountMonth) => m.source === 'estimate';

function emptyPoint(
  period: string,
  granularity: 'monthly' | 'yearly',
  windowStart: string,
  windowEnd: string,
): ConsumptionPoint {
  const start = granularity === 'yearly' ? `${period}-01-01` : `${period}-01`;
  const end = granularity === 'yearly' ? `${period}-12-31` : monthEnd(period);
  return {
    period,
    startDate: start < windowStart && granularity === 'yearly' ? windowStart : start,
    endDate: end > windowEnd && granularity === 'yearly' ? windowEnd : end,
    consumption: 0,
    cost: 0,
    emissionsKg: 0,
    estimated: false,
  };
}

const consumption = operation(
  { params: ['id'], query: consumptionQuerySchema },
  async (ctx): Promise<OpResult> => {
    const account = await routeAccount(ctx.caller, ctx.params.id);
    return { body: await accountConsumption(account, ctx.query) };
  },
);

/** The same figures in the older shape: one `{ date, value }` per period, dated on its first day. */
const consumptionOld = operation(
  { params: ['id'], query: consumptionQuerySchema },
  async (ctx): Promise<OpResult> => {
    const account = await routeAccount(ctx.caller, ctx.params.id);
    const result = await accountConsumption(account, ctx.query);
    const body: ConsumptionOldPoint[] = result.data.map((p) => ({
      date: p.period.length === 4 ? `${p.period}-01-01` : `${p.period}-01`,
      value: p.consumption,
    }));
    return { body };
  },
);

const invalidateCache = operation(
  { params: ['id'] },
  async (ctx): Promise<OpResult> => ({
    body: await invalidateAccountCache(ctx.caller, ctx.params.id),
  }),
);

export const ACCOUNT_CONSUMPTION_OPERATIONS: Operations = {
  'accounts.consumption': consumption,
  'accounts.consumptionOld': consumptionOld,
  'accounts.invalidateCache': invalidateCache,
};
