import type { Caller } from '../../shared/access/caller.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { UTILITY_TYPES } from '../../shared/schemas/mini-fields.ts';
import { accountsResource, utilityOf } from '../accounts/index.ts';
import { listItems } from '../core/data/item-repository.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { collectionOf } from '../core/resources/resource-service.ts';

const READ_CONCURRENCY = 8;

export interface AccountTypeCount {
  type: UtilityType;
  /** Live meters of the type, sub-meters included. */
  meters: number;
  subMeters: number;
}

/**
 * The utilities metered at some sites, in the order the product lists utilities, with how many meters of
 * each: what a site's or portfolio's analytics can be filtered by. Each site's meters come from the
 * accounts' site index, so a portfolio costs a Query per site, not a read of every meter of the company.
 */
export async function accountTypesOf(
  caller: Caller,
  assetIds: readonly string[],
): Promise<AccountTypeCount[]> {
  const collection = collectionOf(accountsResource(), caller);
  const perSite = await inPool([...new Set(assetIds)], READ_CONCURRENCY, async (assetId) => {
    const { data } = await listItems(collection, { filters: { assetId }, limit: MAX_LIST_LIMIT, skip: 0 });
    return data;
  });
  const counts = new Map<UtilityType, AccountTypeCount>();
  for (const account of perSite.flat()) {
    const type = utilityOf(account);
    const row = counts.get(type) ?? { type, meters: 0, subMeters: 0 };
    row.meters += 1;
    if (isSubMeter(account)) row.subMeters += 1;
    counts.set(type, row);
  }
  return UTILITY_TYPES.flatMap((t) => counts.get(t) ?? []);
}
