import { type Caller, EMPTY_GRANTS } from '../../shared/access/caller.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity, isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import type { MonthsRebuilt } from '../../shared/schemas/responses/accounts.ts';
import { listItems } from '../core/data/item-repository.ts';
import { ApiError, notFound } from '../core/lib/errors.ts';
import { collectionOf } from '../core/resources/resource-service.ts';
import { accountsResource, utilityOf } from './account-links.ts';
import { findStoredAccount, markCacheInvalidated } from './account-repository.ts';
import {
  addToRollups,
  listAccountMonths,
  listAssetRollups,
  type RollupDelta,
} from './consumption-repository.ts';
import {
  claimMeterUserMove,
  deadMeterUserMoves,
  dropMeterUserMove,
  nameMeterUserMove,
  releaseMeterUserMove,
} from './meter-user-move-repository.ts';
import {
  ALL_ROLLUP_PARTS,
  meterUserOf,
  ROLLUP_PARTS,
  type RollupParts,
  rollupSourceOf,
  splitOf,
} from './rollup-parts.ts';

const ALL_FROM = '1900-01';
const ALL_TO = '2999-12';
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

interface Sum extends RollupParts {
  month: string;
  utilityType: UtilityType;
  consumption: number;
  cost: number;
  emissionsKg: number;
}

/**
 * PUT /accounts/{id}/invalidate-cache: rebuilds the monthly roll-ups of the account's asset from the
 * stored months of its live accounts (sub-meters left out, as their parent meter counts them), so a
 * deleted, moved or re-parented account stops or starts counting. The difference from what the asset had
 * (bill parts included: figures written before the roll-ups kept them gain them here) is added to both
 * the asset's and the company's roll-ups, which keeps the company's figures true without
 * reading every account of the company.
 */
export async function invalidateAccountCache(caller: Caller, accountId: string): Promise<MonthsRebuilt> {
  const companyId = caller.companyId;
  // Consistent: a rebuild after the meter's user changed must see the change.
  const account = await findStoredAccount(companyId, accountId, { consistent: true });
  if (!account) throw notFound();
  const assetId = account.assetId;
  const { data: accounts } = await listItems(collectionOf(accountsResource(), caller), {
    filters: { assetId },
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });

  const sums = new Map<string, Sum>();
  // The account itself as just read, not as the list's index may still show it (a meter user just changed).
  const current = accounts.map((a) => (a._id === accountId ? { ...a, ...account } : a));
  for (const a of current.filter((x) => !isSubMeter(x))) {
    const utilityType = utilityOf(a);
    const user = meterUserOf(a);
    const unit = defaultUnit(utilityType);
    for (const m of await listAccountMonths(companyId, a._id, ALL_FROM, ALL_TO)) {
      const value = convertQuantity(m.consumption, m.unit, unit);
      if (value === undefined) continue;
      const key = `${m.month}#${utilityType}`;
      const sum = sums.get(key) ?? { month: m.month, utilityType, consumption: 0, cost: 0, emissionsKg: 0 };
      sum.consumption += value;
      sum.cost += m.cost;
      sum.emissionsKg += m.emissionsKg;
      for (const part of ROLLUP_PARTS) sum[part] = (sum[part] ?? 0) + (Number(m[part]) || 0);
      splitOf(
        { consumption: value, cost: m.cost, emissionsKg: m.emissionsKg },
        rollupSourceOf(m.source),
        user,
        sum,
      );
      sums.set(key, sum);
    }
  }

  const old = new Map(
    (await listAssetRollups(companyId, assetId, ALL_FROM, ALL_TO)).map((r) => [
      `${r.month}#${r.utilityType}`,
      r,
    ]),
  );
  let changed = 0;
  for (const key of new Set([...sums.keys(), ...old.keys()])) {
    const next = sums.get(key);
    const before = old.get(key);
    const [month = '', utilityType] = key.split('#') as [string, UtilityType];
    const delta: RollupDelta = {
      consumption: round((next?.consumption ?? 0) - (before?.consumption ?? 0), 3),
      cost: round((next?.cost ?? 0) - (before?.cost ?? 0), 2),
      emissionsKg: round((next?.emissionsKg ?? 0) - (before?.emissionsKg ?? 0), 3),
      unit: before?.unit ?? defaultUnit(utilityType),
    };
    for (const part of ALL_ROLLUP_PARTS) {
      const d = round((next?.[part] ?? 0) - (Number(before?.[part]) || 0), 3);
      if (d !== 0) delta[part] = d;
    }
    const parts = ALL_ROLLUP_PARTS.some((part) => delta[part] !== undefined);
    if (delta.consumption === 0 && delta.cost === 0 && delta.emissionsKg === 0 && !parts) continue;
    await addToRollups(companyId, assetId, month, utilityType, delta);
    changed++;
  }
  const invalidatedAt = new Date().toISOString();
  await markCacheInvalidated(companyId, accountId, invalidatedAt);
  return { _id: accountId, assetId, months: sums.size, changed, invalidatedAt };
}

/**
 * Rebuilds the monthly roll-ups of the sites of these meters, one meter per site (the rebuild covers all
 * of a site's meters), as `PUT /accounts/{id}/invalidate-cache` does. A run resumed after a crash calls
 * it when the dead run stored months or days but may not have added their roll-up changes; `by` names
 * the run, which acts as a plain company user with no grants of its own.
 */
export async function rebuildSitesOfMeters(
  companyId: string,
  by: string,
  meters: Iterable<{ _id: string; assetId?: unknown }>,
): Promise<{ sites: number; changed: number }> {
  const caller: Caller = {
    kind: 'user',
    sub: `system:${by}`,
    companyId,
    isAdmin: false,
    permissions: ['company_user'],
    grants: EMPTY_GRANTS,
    roles: [],
  };
  const meterOfSite = new Map<string, string>();
  for (const m of meters) if (typeof m.assetId === 'string') meterOfSite.set(m.assetId, m._id);
  let changed = 0;
  for (const meterId of meterOfSite.values())
    changed += (await invalidateAccountCache(caller, meterId)).changed;
  return { sites: meterOfSite.size, changed };
}

/**
 * Saves a change of a meter's user and moves its figures between the users' parts of its site's roll-ups,
 * so that nothing is lost if the request dies between the two: the move is named before the save and
 * dropped after the rebuild, and `finishMeterUserMoves` rebuilds any site whose move was left named.
 */
export async function movingMeterUser<T>(
  companyId: string,
  meter: { _id: string; assetId: string },
  save: () => Promise<T>,
): Promise<T> {
  const token = await nameMeterUserMove(companyId, meter.assetId, meter._id);
  let result: T;
  try {
    result = await save();
  } catch (err) {
    // Nothing was saved (refused or not found): there is nothing to move.
    await dropMeterUserMove(companyId, meter.assetId, token);
    throw err;
  }
  await rebuildSitesOfMeters(companyId, 'meter-user', [meter]);
  await dropMeterUserMove(companyId, meter.assetId, token);
  return result;
}

/**
 * Finishes the company's moves of meters between users that dead requests left named, as the analytics
 * worker does when a split by meter user finds one: each move is claimed (so two workers never rebuild
 * one site at once, which would add its change twice), its site's roll-ups rebuilt from its meters'
 * months, and the move dropped. A worker that dies holding a claim leaves it to lapse after 16 minutes.
 */
export async function finishMeterUserMoves(companyId: string, now = Date.now()): Promise<number> {
  let finished = 0;
  for (const move of await deadMeterUserMoves(companyId, now)) {
    if (!(await claimMeterUserMove(companyId, move, now))) continue;
    try {
      await rebuildSitesOfMeters(companyId, 'meter-user', [{ _id: move.meterId, assetId: move.assetId }]);
    } catch (err) {
      // A meter gone from the table since has no figures to move; any other failure is the queue's to
      // deliver again (and then keep on its dead-letter queue), the claim released for that delivery.
      if (!(err instanceof ApiError && err.status === 404)) {
        await releaseMeterUserMove(companyId, move);
        throw err;
      }
    }
    await dropMeterUserMove(companyId, move.assetId, move.token);
    finished++;
  }
  return finished;
}
