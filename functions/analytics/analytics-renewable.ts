import type { Caller } from '../../shared/access/caller.ts';
import { type DateRange, dayNumber, daysInMonth } from '../../shared/analytics/index.ts';
import { convertQuantity, isSubMeter } from '../../shared/schemas/account-rules.ts';
import { contractsRef, listAccountMonths, utilityOf } from '../accounts/index.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import { queryAll } from '../core/data/item-repository.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { monthsOf } from './analytics-figures.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import type { ReadScope } from './analytics-scope.ts';

/** Parallel partition reads per request: enough to hide latency without flooding the table. */
const READ_CONCURRENCY = 8;
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

export interface RenewableFigures {
  electricityKwh: number;
  /** Under a contract marked renewable. */
  renewableKwh: number;
  /** Under a renewable contract backed by REGOs: what counts 0 kg market-based. */
  regoBackedKwh: number;
  /** regoBackedKwh over electricityKwh, 0 to 1; 0 when the site used no electricity. */
  share: number;
}

export interface SiteRenewable extends RenewableFigures {
  _id: string;
  siteName?: string;
}

interface Cover {
  start: number;
  end: number;
  rego: boolean;
}

/** Renewable contracts of a meter as day ranges (live, active ones only). */
async function renewableCover(companyId: string, accountId: string): Promise<Cover[]> {
  const contracts = await queryAll(contractsRef(companyId, accountId).pk);
  return contracts
    .filter((c) => c.deleted !== true && c.status !== 'inactive' && c.isRenewable === true)
    .flatMap((c) => {
      try {
        return [
          {
            start: dayNumber(String(c.startDate)),
            end: dayNumber(String(c.endDate)),
            rego: c.regoBacked === true,
          },
        ];
      } catch {
        return [];
      }
    });
}

/** Days of a range covered by any of the contracts (of one kind), without counting an overlap twice. */
function coveredDays(from: number, to: number, cover: readonly Cover[]): number {
  let n = 0;
  for (let d = from; d <= to; d++) if (cover.some((c) => c.start <= d && d <= c.end)) n++;
  return n;
}

function figuresOf(total: number, renewable: number, rego: number): RenewableFigures {
  return {
    electricityKwh: round(total, 3),
    renewableKwh: round(renewable, 3),
    regoBackedKwh: round(rego, 3),
    share: total > 0 ? round(rego / total, 4) : 0,
  };
}

/**
 * asset-contract-renewable: per site, how much of its electricity over the window was supplied under a
 * renewable contract, and how much under one backed by REGOs. Each meter month is spread evenly over its
 * days, and a day counts as renewable when a live, active renewable contract of the meter covers it.
 * Sub-meters are left out (their parent's supply holds them); meters granted one by one count under
 * their site.
 */
export async function renewableShares(
  caller: Caller,
  scope: ReadScope,
  window: DateRange,
): Promise<{ assets: SiteRenewable[]; totals: RenewableFigures }> {
  const companyId = caller.companyId;
  const sites = new Map(scope.sites.map((s) => [s._id, s.siteName]));
  const granted = new Set(scope.meters.map((m) => m._id));
  const accounts = await projectAll(scopeCollectionPk(companyId, 'accounts'), [
    'assetId',
    'type',
    'parentAccountId',
  ]);
  const meters = accounts.filter(
    (a) =>
      utilityOf(a) === 'electricity' &&
      !isSubMeter(a) &&
      typeof a.assetId === 'string' &&
      (scope.wholeCompany || sites.has(a.assetId) || granted.has(a._id)),
  );
  const { from, to } = monthsOf(window);
  const first = dayNumber(window.start);
  const last = dayNumber(window.end);
  const perMeter = await inPool(meters, READ_CONCURRENCY, async (meter) => {
    const [cover, months] = await Promise.all([
      renewableCover(companyId, meter._id),
      listAccountMonths(companyId, meter._id, from, to),
    ]);
    const rego = cover.filter((c) => c.rego);
    let total = 0;
    let renewable = 0;
    let backed = 0;
    for (const m of months) {
      const kwh = convertQuantity(m.consumption, m.unit, 'kWh');
      if (kwh === undefined) continue;
      const [y, mo] = m.month.split('-').map(Number) as [number, number];
      const n = daysInMonth(y, mo);
      const start = Math.max(first, dayNumber(`${m.month}-01`));
      const end = Math.min(last, dayNumber(`${m.month}-01`) + n - 1);
      if (end < start) continue;
      const perDay = kwh / n;
      total += perDay * (end - start + 1);
      renewable += perDay * coveredDays(start, end, cover);
      backed += perDay * coveredDays(start, end, rego);
    }
    return { assetId: String(meter.assetId), total, renewable, backed };
  });
  const bySite = new Map<string, { total: number; renewable: number; backed: number }>();
  for (const id of sites.keys()) bySite.set(id, { total: 0, renewable: 0, backed: 0 });
  const all = { total: 0, renewable: 0, backed: 0 };
  for (const m of perMeter) {
    const row = bySite.get(m.assetId) ?? { total: 0, renewable: 0, backed: 0 };
    for (const into of [row, all]) {
      into.total += m.total;
      into.renewable += m.renewable;
      into.backed += m.backed;
    }
    bySite.set(m.assetId, row);
  }
  return {
    assets: [...bySite].map(([id, r]) => {
      const siteName = sites.get(id);
      return { _id: id, ...(siteName ? { siteName } : {}), ...figuresOf(r.total, r.renewable, r.backed) };
    }),
    totals: figuresOf(all.total, all.renewable, all.backed),
  };
}
