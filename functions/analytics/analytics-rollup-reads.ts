import type { Caller } from '../../shared/access/caller.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  type Rollup,
  type RollupParts,
  rollupSourceOf,
  SPLIT_PARTS,
  splitOf,
} from '../accounts/index.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { billParts, type MonthFigure } from './analytics-figures.ts';
import type { ReadScope } from './analytics-scope.ts';

/** Parallel partition reads per request: enough to hide latency without flooding the table. */
const READ_CONCURRENCY = 8;

/** The split by source and meter user a roll-up row keeps. */
function splitOfRollup(r: Rollup): RollupParts {
  const split: RollupParts = {};
  for (const part of SPLIT_PARTS) {
    const v = Number(r[part]);
    if (Number.isFinite(v) && v !== 0) split[part] = v;
  }
  return split;
}

const fromRollup = (
  r: Rollup & { factorVersion?: unknown },
  assetId?: string,
  withSplit = false,
): MonthFigure => ({
  month: r.month,
  utilityType: r.utilityType,
  consumption: Number(r.consumption) || 0,
  unit: r.unit,
  cost: Number(r.cost) || 0,
  emissionsKg: Number(r.emissionsKg) || 0,
  ...(typeof r.factorVersion === 'string' ? { factorVersion: r.factorVersion } : {}),
  ...billParts(r),
  ...(assetId ? { assetId } : {}),
  ...(withSplit ? { split: splitOfRollup(r) } : {}),
});

/**
 * The monthly figures of a scope over a month range: the company's (or a portfolio's) roll-up partition in
 * one Query for a caller reading the whole of it, else each site's roll-ups and each granted meter's own
 * months, read a few partitions at a time.
 */
export async function readFigures(
  caller: Caller,
  scope: ReadScope,
  months: { from: string; to: string },
  utilities: readonly UtilityType[] | undefined,
  /** Keep each figure's split by source and meter user (for source= and meterUserBreakdown). */
  withSplit = false,
): Promise<MonthFigure[]> {
  const companyId = caller.companyId;
  const { from, to } = months;
  const one = utilities?.length === 1 ? utilities[0] : undefined;
  const wanted = (f: MonthFigure) => !utilities || utilities.includes(f.utilityType);
  if (scope.wholeCompany) {
    return (await listCompanyRollups(companyId, from, to, one))
      .map((r) => fromRollup(r, undefined, withSplit))
      .filter(wanted);
  }
  if (scope.portfolioRollup) {
    const rows = await listPortfolioRollups(companyId, scope.portfolioRollup, from, to, one);
    return rows.map((r) => fromRollup(r, undefined, withSplit)).filter(wanted);
  }
  const siteRows = await inPool(scope.sites, READ_CONCURRENCY, async (site) =>
    (await listAssetRollups(companyId, site._id, from, to, one)).map((r) =>
      fromRollup(r, site._id, withSplit),
    ),
  );
  const meters = scope.meters.filter((m) => !utilities || utilities.includes(m.utilityType));
  const meterRows = await inPool(meters, READ_CONCURRENCY, async (meter) =>
    (await listAccountMonths(companyId, meter._id, from, to)).map(
      (m): MonthFigure => ({
        month: m.month,
        utilityType: meter.utilityType,
        consumption: m.consumption,
        unit: m.unit,
        cost: m.cost,
        emissionsKg: m.emissionsKg,
        factorVersion: m.factorVersion,
        ...billParts(m),
        ...(meter.assetId ? { assetId: meter.assetId } : {}),
        // A meter's own month says its source, and the meter its user.
        ...(withSplit ? { split: splitOf(m, rollupSourceOf(m.source), meter.meterUser) } : {}),
      }),
    ),
  );
  return [...siteRows.flat(), ...meterRows.flat()].filter(wanted);
}
