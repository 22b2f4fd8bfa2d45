import type { UtilityType } from '../../shared/schemas/common.ts';
import { assetGroupReportQuery } from '../../shared/schemas/queries.ts';
import type { AssetGroupReport, UtilityTotals } from '../../shared/schemas/register.ts';
import { countAccountsOfAsset, listAssetRollups, type Rollup } from '../accounts/index.ts';
import type { StoredAsset } from '../assets/index.ts';
import { inPool } from '../core/lib/in-pool.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { addressStringOf } from '../core/search-index/search-terms.ts';
import { assetIdsOf, floorAreaM2, loadGroup, readableAssets } from './asset-group-access.ts';

const ym = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

/** The last twelve complete months: from the month a year before last month, to last month. */
export function lastTwelveMonths(now: Date = new Date()): { from: string; to: string } {
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const first = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - 11, 1));
  return { from: ym(first), to: ym(last) };
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * Adds roll-ups into per-utility totals. Consumption is only summed within one unit; a utility measured in
 * different units across assets shows its unit as 'mixed' (cost and emissions still add up).
 */
function addRollups(into: Partial<Record<UtilityType, UtilityTotals>>, rows: readonly Rollup[]): void {
  for (const r of rows) {
    const t = into[r.utilityType];
    if (!t) {
      into[r.utilityType] = {
        consumption: r.consumption,
        unit: r.unit,
        cost: r.cost,
        emissionsKg: r.emissionsKg,
      };
      continue;
    }
    if (t.unit === r.unit) t.consumption += r.consumption;
    else t.unit = 'mixed';
    t.cost += r.cost;
    t.emissionsKg += r.emissionsKg;
  }
}

function rounded(totals: Partial<Record<UtilityType, UtilityTotals>>) {
  for (const t of Object.values(totals)) {
    t.consumption = round(t.consumption, 3);
    t.cost = round(t.cost, 2);
    t.emissionsKg = round(t.emissionsKg, 3);
  }
  return totals;
}

/**
 * GET /asset-groups/{id}/report-data?from=&to=: each asset of the group with its floor area, number of
 * accounts, and consumption, cost and emissions per utility over the period (by default the last twelve
 * complete months), read from the monthly roll-ups; and the group's totals.
 */
const reportData = operation(
  { params: ['id'], query: assetGroupReportQuery },
  async (ctx): Promise<OpResult> => {
    const group = await loadGroup(ctx.caller, ctx.params.id, 'read');
    const period = { ...lastTwelveMonths(), ...ctx.query };
    if (period.from > period.to) period.from = period.to;
    const companyId = ctx.caller.companyId;
    const assets = await readableAssets(ctx.caller, assetIdsOf(group));
    const rows = await inPool(assets, 8, async (asset: StoredAsset) => {
      const [rollups, accounts] = await Promise.all([
        listAssetRollups(companyId, asset._id, period.from, period.to),
        countAccountsOfAsset(companyId, asset._id),
      ]);
      const utilities: Partial<Record<UtilityType, UtilityTotals>> = {};
      addRollups(utilities, rollups);
      return { asset, rollups, accountsCount: accounts, utilities: rounded(utilities) };
    });
    const totals: Partial<Record<UtilityType, UtilityTotals>> = {};
    for (const r of rows) addRollups(totals, r.rollups);
    const body: AssetGroupReport = {
      assetGroup: {
        _id: group._id,
        name: String(group.name),
        ...(typeof group.description === 'string' ? { description: group.description } : {}),
      },
      period,
      assets: rows.map((r) => ({
        _id: r.asset._id,
        siteName: String(r.asset.siteName),
        addressString: addressStringOf(r.asset),
        ...(typeof r.asset.assetType === 'string' ? { assetType: r.asset.assetType } : {}),
        floorAreaM2: floorAreaM2(r.asset),
        accountsCount: r.accountsCount,
        utilities: r.utilities,
      })),
      totals: {
        floorAreaM2: round(
          rows.reduce((n, r) => n + (floorAreaM2(r.asset) ?? 0), 0),
          2,
        ),
        accountsCount: rows.reduce((n, r) => n + r.accountsCount, 0),
        utilities: rounded(totals),
      },
    };
    return { body };
  },
);

export const ASSET_GROUP_REPORT_OPERATIONS: Operations = { 'assetGroups.reportData': reportData };
