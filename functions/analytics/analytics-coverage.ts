import type { Caller } from '../../shared/access/caller.ts';
import { isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { listAccountMonths, utilityOf } from '../accounts/index.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import { resolveScope } from './analytics-scope.ts';

const READ_CONCURRENCY = 8;

/** One meter's months of a range: those with no figure at all, and those whose figure is an estimate. */
export interface MeterCoverage {
  accountId: string;
  name?: string;
  meterPointNumber?: string;
  assetId?: string;
  siteName?: string;
  utilityType: UtilityType;
  months: number;
  missing: string[];
  estimated: string[];
}

/** Every month (YYYY-MM) from the first to the last, both included. */
function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    if (month > to) return out;
    out.push(month);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The months of a range each meter of a scope (the company's, a site's or a portfolio's, narrowed to what
 * the caller may read) has no figure for, or only an estimate: the same months the analytics sum.
 */
export async function meterCoverage(
  caller: Caller,
  ask: { assetId?: string; assetGroupId?: string },
  months: { from: string; to: string },
): Promise<MeterCoverage[]> {
  const scope = await resolveScope(caller, { ...ask, bySite: true });
  const sites = new Map(scope.sites.map((s) => [s._id, s.siteName]));
  const accounts = await projectAll(scopeCollectionPk(caller.companyId, 'accounts'), [
    'assetId',
    'type',
    'parentAccountId',
    'name',
    'meterPointNumber',
  ]);
  const byId = new Map(accounts.map((a) => [a._id, a]));
  const main = accounts.filter(
    (a) => !isSubMeter(a) && typeof a.assetId === 'string' && (scope.wholeCompany || sites.has(a.assetId)),
  );
  const meters = [
    ...main.map((a) => ({ _id: a._id, assetId: String(a.assetId), utilityType: utilityOf(a) })),
    ...scope.meters,
  ];
  const range = monthsBetween(months.from, months.to);
  return inPool(meters, READ_CONCURRENCY, async (meter): Promise<MeterCoverage> => {
    const rows = await listAccountMonths(caller.companyId, meter._id, months.from, months.to);
    const billed = new Set(rows.filter((r) => r.source !== 'estimate').map((r) => r.month));
    const estimated = new Set(rows.filter((r) => r.source === 'estimate').map((r) => r.month));
    const account = byId.get(meter._id);
    const name = text(account?.name);
    const point = text(account?.meterPointNumber);
    const siteName = meter.assetId ? sites.get(meter.assetId) : undefined;
    return {
      accountId: meter._id,
      ...(name ? { name } : {}),
      ...(point ? { meterPointNumber: point } : {}),
      ...(meter.assetId ? { assetId: meter.assetId } : {}),
      ...(siteName ? { siteName } : {}),
      utilityType: meter.utilityType,
      months: range.length,
      missing: range.filter((m) => !billed.has(m) && !estimated.has(m)),
      estimated: range.filter((m) => !billed.has(m) && estimated.has(m)),
    };
  });
}
