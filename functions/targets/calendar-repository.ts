/**
 * | pattern                                  | key condition                                         | index |
 * | ---------------------------------------- | ----------------------------------------------------- | ----- |
 * | every live site of a company (some fields) | pk = C#{companyId}#assets                           | table |
 * | sites by ids                             | BatchGet pk = C#{companyId}#assets, sk = ids          | table |
 * | a site's tenants and their leases        | pk = C#{companyId}#assets#{assetId}#tenants           | table |
 */
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import { queryAll, type StoredItem } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

const SITE_FIELDS = ['siteName', 'epc', 'epcRating', 'address'] as const;

export async function allSites(companyId: string): Promise<StoredItem[]> {
  return projectAll(keys.collection({ companyId }, 'assets'), [...SITE_FIELDS]);
}

export async function sitesByIds(companyId: string, ids: readonly string[]): Promise<StoredItem[]> {
  const found = await getItems(keys.collection({ companyId }, 'assets'), ids);
  return ids.map((id) => found.get(id)).filter((s): s is StoredItem => !!s && s.deleted !== true);
}

export async function tenantsOf(companyId: string, assetId: string): Promise<StoredItem[]> {
  const items = await queryAll(keys.subCollection({ companyId }, 'assets', assetId, 'tenants'));
  return items.filter((t) => t.deleted !== true);
}
