/**
 * | pattern                                  | key condition                                         | index |
 * | ---------------------------------------- | ----------------------------------------------------- | ----- |
 * | live meters of one site                  | gsi1pk = C#{companyId}#accounts#assetId#{assetId}     | gsi1  |
 * | bills by ids                             | BatchGet pk = C#{companyId}#invoices, sk = ids        | table |
 * | the people who confirmed bills, by sub   | BatchGet pk = C#{companyId}#users, sk = subs          | table |
 */
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { getItems } from '../core/data/batch-reads.ts';
import { declaredRef, listItems, type StoredItem } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

/**
 * What the drill-down from a figure to its bills reads besides the monthly figures (which the accounts
 * area serves): a site's meters, the bills the months name, and who confirmed them.
 */

/** The live meters of a site, by the meters' site index: one Query, never the company's whole list. */
export async function metersOfSite(companyId: string, assetId: string): Promise<StoredItem[]> {
  const { data } = await listItems(declaredRef('accounts', { companyId }), {
    filters: { assetId },
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  return data;
}

/** Bills by id, deleted ones included (the caller decides): BatchGet, 100 keys a round trip. */
export async function billsByIds(
  companyId: string,
  ids: readonly string[],
): Promise<Map<string, StoredItem>> {
  if (ids.length === 0) return new Map();
  return getItems(keys.collection({ companyId }, 'invoices'), ids);
}

/** The company's member records of some people, by their subject. */
export async function membersBySub(
  companyId: string,
  subs: readonly string[],
): Promise<Map<string, StoredItem>> {
  if (subs.length === 0) return new Map();
  return getItems(keys.collection({ companyId }, 'users'), subs);
}
