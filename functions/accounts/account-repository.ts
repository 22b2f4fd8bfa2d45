/**
 * | pattern                                 | key condition                                            | index |
 * | --------------------------------------- | -------------------------------------------------------- | ----- |
 * | one account by id                       | pk = C#{companyId}#accounts, sk = id                     | table |
 * | every account of a company              | pk = C#{companyId}#accounts                              | table |
 * | live accounts of one asset (count)      | gsi assetId = C#{companyId}#accounts#assetId#{id}          | gsi   |
 * | set fields of one account               | pk = C#{companyId}#accounts, sk = id (must exist)        | table |
 * | live accounts with any of some meter points | pk = C#{companyId}#accounts, filter meterPointNumber IN | table |
 * | an account's status history             | pk = C#{companyId}#accounts#{accountId}#status-history   | table |
 * | an account's contracts                  | pk = C#{companyId}#accounts#{accountId}#contracts        | table |
 * | one tenant of a site (a meter's user)   | pk = C#{companyId}#assets#{assetId}#tenants, sk = id     | table |
 * | a site's tenants (their names)          | pk = C#{companyId}#assets#{assetId}#tenants              | table |
 * | a site's meters naming a tenant         | gsi assetId = C#{companyId}#accounts#assetId#{id}, then filtered | gsi |
 *
 * Paged, filtered and searched account lists go through the generic list of the declared accounts
 * resource (its assetId and meterPointNumber indexes); monthly figures live in consumption-repository.
 */
import type * as z from 'zod';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import type { accountSchema } from '../../shared/schemas/account.ts';
import type { accountStatusHistoryObject } from '../../shared/schemas/account-inputs.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  listItems,
  queryAll,
  type StoredItem,
  updateRaw,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { live, type Stored, storedRecord } from '../core/data/stored-record.ts';

export type StoredAccount = Stored<
  z.input<typeof accountSchema> & {
    /** When its asset's roll-ups were last rebuilt from its months. */
    cacheInvalidatedAt?: string;
    /** Days between bills, when the account's bills come on a cycle other than monthly. */
    billingCycleDays?: number;
  }
>;

export type StoredStatusEntry = Stored<Partial<z.input<ReturnType<typeof accountStatusHistoryObject>>>>;

const accountsPk = (companyId: string) => keys.collection({ companyId }, 'accounts');

/** Types an account (stored, or listed by the generic list) after checking its utility and site. */
export const toAccount = (item: StoredItem): StoredAccount =>
  storedRecord<StoredAccount>('account', item, ['type', 'assetId']);

/** An account as stored, deleted or not. */
export async function findStoredAccount(
  companyId: string,
  id: string,
  opts: { consistent?: boolean } = {},
): Promise<StoredAccount | undefined> {
  const item = await getItem(accountsPk(companyId), id, opts);
  return item ? toAccount(item) : undefined;
}

/** Whether a live tenant of the site has this id: a meter's user may name only its own site's tenants. */
export async function isTenantOfSite(companyId: string, assetId: string, tenantId: string): Promise<boolean> {
  const tenant = await getItem(keys.subCollection({ companyId }, 'assets', assetId, 'tenants'), tenantId);
  return tenant !== undefined && tenant.deleted !== true;
}

/** A live account of the company, or undefined. */
export async function findAccount(companyId: string, id: string): Promise<StoredAccount | undefined> {
  return live(await findStoredAccount(companyId, id));
}

/** Every account of a company, deleted ones included: callers filter. */
export async function allAccounts(companyId: string): Promise<StoredAccount[]> {
  return (await queryAll(accountsPk(companyId))).map(toAccount);
}

/**
 * Live accounts whose meter point number is one of `numbers` (the spellings a bill may print). A filter
 * on the partition rather than the meterPointNumber index: the index answers one value per query.
 */
export async function accountsWithMeterPoint(
  companyId: string,
  numbers: readonly string[],
  limit: number,
): Promise<StoredAccount[]> {
  const { data } = await listItems(
    { pk: accountsPk(companyId), indexes: [], searchFields: [] },
    { filters: { meterPointNumber: numbers }, limit, skip: 0 },
  );
  return data.map(toAccount);
}

/** The live main meters of a site that name the tenant using them (by the assetId index). */
export async function tenantMetersOfSite(companyId: string, assetId: string): Promise<StoredAccount[]> {
  const { data } = await listItems(declaredRef('accounts', { companyId }), {
    filters: { assetId },
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  return data
    .map(toAccount)
    .filter((a) => typeof a.meterUserTenantId === 'string' && a.meterUser === 'tenant' && !a.parentAccountId);
}

/** The live meters of a site, sub-meters too, that name this tenant as their user (by the assetId index). */
export async function metersNamingTenant(
  companyId: string,
  assetId: string,
  tenantId: string,
): Promise<StoredAccount[]> {
  const { data } = await listItems(declaredRef('accounts', { companyId }), {
    filters: { assetId },
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  return data.map(toAccount).filter((a) => a.meterUserTenantId === tenantId);
}

/** The names of a site's live tenants, by id. */
export async function tenantNamesOfSite(companyId: string, assetId: string): Promise<Map<string, string>> {
  const items = await queryAll(keys.subCollection({ companyId }, 'assets', assetId, 'tenants'));
  return new Map(items.filter((t) => t.deleted !== true).map((t) => [t._id, String(t.name ?? '')]));
}

/** How many live accounts an asset has (a count query of the assetId index: no item bodies). */
export async function countAccountsOfAsset(companyId: string, assetId: string): Promise<number> {
  const page = await listItems(declaredRef('accounts', { companyId }), {
    filters: { assetId },
    limit: 0,
    skip: 0,
  });
  return page.total;
}

export async function markCacheInvalidated(companyId: string, id: string, at: string): Promise<void> {
  await updateRaw(accountsPk(companyId), id, { cacheInvalidatedAt: at });
}

export async function setAccountStatus(
  companyId: string,
  id: string,
  status: string,
  at: string,
): Promise<void> {
  await updateRaw(accountsPk(companyId), id, { status, updatedAt: at });
}

/** Every entry of an account's status history, deleted ones included. */
export async function statusHistoryOf(companyId: string, accountId: string): Promise<StoredStatusEntry[]> {
  return queryAll(keys.subCollection({ companyId }, 'accounts', accountId, 'status-history'));
}

/** An account's contracts: a sub-collection of the account, under the company's keys. */
export function contractsRef(companyId: string, accountId: string): CollectionRef {
  return {
    pk: keys.subCollection({ companyId }, 'accounts', accountId, 'contracts'),
    indexes: [],
    searchFields: [],
  };
}
