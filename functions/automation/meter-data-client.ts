import { setTimeout as sleep } from 'node:timers/promises';
import { settlementPeriodStarts, settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import { WrongPassword } from './portal-adapters.ts';
import { PortalUnavailable } from './portal-session.ts';

/**
 * A smart meter's half-hourly consumption from an API of the Octopus Energy kind:
 * `GET {base}/v1/electricity-meter-points/{mpan}/meters/{serial}/consumption/?period_from&period_to&page_size`,
 * HTTP Basic with the API key as user name, pages linked by `next`. A 429 is waited out (its Retry-After,
 * else doubling from one second) and the same page asked again.
 */

export interface Interval {
  /** UTC instant, ms */
  start: number;
  consumption: number;
}

export interface FetchStats {
  requests: number;
  throttled: number;
}

const PAGE_SIZE = 25_000;
const MAX_THROTTLE_WAITS = 8;

interface ConsumptionPage {
  count?: number;
  next: string | null;
  results: { consumption: number; interval_start: string; interval_end?: string }[];
}

export async function fetchConsumption(
  baseUrl: string,
  apiKey: string,
  meter: { mpan: string; serial: string },
  from: Date,
  to: Date,
  stats: FetchStats,
  pageSize = PAGE_SIZE,
): Promise<Interval[]> {
  const first = new URL(
    `${baseUrl}/v1/electricity-meter-points/${encodeURIComponent(meter.mpan)}/meters/${encodeURIComponent(meter.serial)}/consumption/`,
  );
  first.searchParams.set('period_from', from.toISOString());
  first.searchParams.set('period_to', to.toISOString());
  first.searchParams.set('page_size', String(pageSize));
  first.searchParams.set('order_by', 'period');
  const auth = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  const out: Interval[] = [];
  let next: string | null = first.href;
  let waits = 0;
  while (next) {
    stats.requests++;
    let res: Response;
    try {
      res = await fetch(next, {
        headers: { authorization: auth, accept: 'application/json' },
        signal: AbortSignal.timeout(60_000),
      });
    } catch {
      throw new PortalUnavailable('The meter data service could not be reached');
    }
    if (res.status === 429) {
      await res.arrayBuffer();
      stats.throttled++;
      if (++waits > MAX_THROTTLE_WAITS)
        throw new PortalUnavailable('The meter data service kept refusing (429)', 429);
      const after = Number(res.headers.get('retry-after'));
      await sleep(
        Number.isFinite(after) && after > 0 ? Math.min(after, 60) * 1000 : Math.min(2 ** waits, 60) * 250,
      );
      continue;
    }
    if (res.status === 401 || res.status === 403) {
      await res.arrayBuffer();
      throw new WrongPassword('The meter data service refused the API key');
    }
    if (res.status === 404) {
      await res.arrayBuffer();
      throw new PortalUnavailable(
        `The meter data service does not know meter ${meter.mpan}/${meter.serial}`,
        404,
      );
    }
    if (!res.ok) {
      await res.arrayBuffer();
      throw new PortalUnavailable(`The meter data service answered ${res.status}`, res.status);
    }
    const body = (await res.json()) as ConsumptionPage;
    for (const r of body.results)
      out.push({ start: Date.parse(r.interval_start), consumption: r.consumption });
    next = body.next;
  }
  return out;
}

const LONDON_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The local day of an instant, YYYY-MM-DD. */
export const londonDay = (ms: number) => LONDON_DAY.format(new Date(ms));

const dayStarts = new Map<string, number>();

/** Where a local day's first settlement period starts, as a UTC instant (kept: a year of meters asks often). */
export function dayStartUtc(date: string): number {
  let start = dayStarts.get(date);
  if (start === undefined) {
    start = Date.parse(settlementPeriodStarts(date)[0]?.utcStart ?? '');
    dayStarts.set(date, start);
  }
  return start;
}

/**
 * Intervals grouped into local days of settlement periods, a missing period as null. The local day is
 * worked out once a day rather than once an interval: time-zone formatting is slow next to a year of them.
 */
export function intervalsToDays(
  intervals: readonly Interval[],
): { date: string; values: (number | null)[] }[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const days: { date: string; values: (number | null)[] }[] = [];
  let current: { date: string; values: (number | null)[]; start: number; end: number } | undefined;
  for (const i of sorted) {
    if (!current || i.start >= current.end || i.start < current.start) {
      const date = londonDay(i.start);
      const start = dayStartUtc(date);
      const n = settlementPeriods(date);
      current = { date, values: Array.from({ length: n }, () => null), start, end: start + n * 1_800_000 };
      days.push({ date, values: current.values });
    }
    const p = Math.round((i.start - current.start) / 1_800_000);
    if (p >= 0 && p < current.values.length) current.values[p] = i.consumption;
  }
  return days;
}
