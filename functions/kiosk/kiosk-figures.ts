import type { HalfHourlyDay, LeaderboardRow } from '../../shared/schemas/responses/kiosk.ts';
import { listAssetRollups, type Rollup } from '../accounts/index.ts';
import { listIntervalDays, listIntervalMeters } from '../analytics/index.ts';
import { pageOfAssets, type StoredAsset } from '../assets/index.ts';
import { inPool } from '../core/lib/in-pool.ts';

/** Sites compared on a leaderboard: enough for a wall, few enough to read in one refresh. */
const LEADERBOARD_SITES = 60;
const LEADERBOARD_ROWS = 10;
/** How far back the screen looks for the latest day of half-hourly electricity. */
const INTERVAL_LOOKBACK_DAYS = 7;

const pad = (n: number) => String(n).padStart(2, '0');
export const monthOf = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
export const yearBefore = (month: string) => `${Number(month.slice(0, 4)) - 1}${month.slice(4)}`;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Energy in kWh of a month's roll-ups: utilities counted in other units (water, waste) are left out. */
function energyKwh(rows: readonly Rollup[], month: string): number | null {
  const energy = rows.filter((r) => r.month === month && r.unit.toLowerCase() === 'kwh');
  return energy.length === 0 ? null : energy.reduce((s, r) => s + r.consumption, 0);
}

const percent = (current: number, previous: number | null) =>
  previous === null || previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10;

export interface Leaderboard {
  month: string | null;
  rows: LeaderboardRow[];
}

/**
 * The owner's sites (those of the building's entity when it has one) ranked by their change in energy
 * use, for the building's latest month against the same month a year before: the largest fall first,
 * sites without a year-before figure last. The building itself is always on the board.
 */
export async function leaderboardOf(
  companyId: string,
  building: StoredAsset | undefined,
  month: string | null,
): Promise<Leaderboard> {
  if (!building || !month) return { month, rows: [] };
  const { data } = await pageOfAssets(companyId, { limit: 200, skip: 0 });
  const entityId = typeof building.entityId === 'string' ? building.entityId : undefined;
  const peers = data
    .filter((a) => a._id !== building._id && (!entityId || a.entityId === entityId))
    .slice(0, LEADERBOARD_SITES - 1);
  const sites = [building, ...peers];
  const before = yearBefore(month);
  const figures = await inPool(sites, 8, async (site) => {
    const rows = await listAssetRollups(companyId, site._id, before, month);
    const current = energyKwh(rows, month);
    const previous = energyKwh(rows, before);
    return current === null
      ? undefined
      : {
          assetId: site._id,
          siteName: String(site.siteName ?? ''),
          currentKwh: current,
          previousKwh: previous,
          change: percent(current, previous),
          thisBuilding: site._id === building._id,
        };
  });
  const ranked = figures
    .filter((r): r is LeaderboardRow => r !== undefined)
    .sort((a, b) => {
      if (a.change === null || b.change === null) return a.change === null ? (b.change === null ? 0 : 1) : -1;
      return a.change - b.change;
    });
  const top = ranked.slice(0, LEADERBOARD_ROWS);
  const own = ranked.find((r) => r.thisBuilding);
  if (own && !top.includes(own)) top.push(own);
  return { month, rows: top };
}

/** The latest day of the building's half-hourly electricity within a week, where its meters hold any. */
export async function latestHalfHourly(
  companyId: string,
  assetId: string,
  now = new Date(),
): Promise<HalfHourlyDay | null> {
  const meters = (await listIntervalMeters(companyId)).filter(
    (m) => m.assetId === assetId && m.utilityType === 'electricity',
  );
  const unit = meters[0]?.unit;
  if (!unit) return null;
  const sameUnit = meters.filter((m) => m.unit === unit);
  const from = dayOf(new Date(now.getTime() - INTERVAL_LOOKBACK_DAYS * 86_400_000));
  const days = (
    await inPool(sameUnit, 4, (m) => listIntervalDays(companyId, m.accountId, from, dayOf(now)))
  ).flat();
  const latest = days.reduce<string | undefined>((d, x) => (!d || x.date > d ? x.date : d), undefined);
  if (!latest) return null;
  const values: (number | null)[] = [];
  for (const day of days.filter((d) => d.date === latest)) {
    day.values.forEach((v, i) => {
      if (v === null) values[i] = values[i] ?? null;
      else values[i] = (values[i] ?? 0) + v;
    });
  }
  return { date: latest, unit, values: Array.from(values, (v) => v ?? null) };
}
