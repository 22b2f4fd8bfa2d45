import type { Caller } from '../../shared/access/caller.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { ACCOUNT_MESSAGES, isSubMeter } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { UTILITY_TYPES } from '../../shared/schemas/mini-fields.ts';
import { findResource, type ResourceDecl } from '../../shared/system/resources.ts';
import { findAsset, findStoredAsset, type StoredAsset } from '../assets/index.ts';
import { listItems, type StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { collectionOf } from '../core/resources/resource-service.ts';
import { findSupplier } from '../suppliers/index.ts';
import { findAccount, isTenantOfSite, type StoredAccount } from './account-repository.ts';

/** What links an account to others: its asset, its parent account and its supplier. */

export function accountsResource(): ResourceDecl {
  const r = findResource('accounts');
  if (!r) throw new Error('The accounts resource is not declared');
  return r;
}

export function assetsResource(): ResourceDecl {
  const r = findResource('assets');
  if (!r) throw new Error('The assets resource is not declared');
  return r;
}

export const getAccount = findAccount;

export const getAsset = findAsset;

/** An account the route's item check has already let the caller reach; a deleted one is gone. */
export async function routeAccount(caller: Caller, id: string | undefined): Promise<StoredAccount> {
  const account = id ? await getAccount(caller.companyId, id) : undefined;
  if (!account) throw notFound();
  return account;
}

export interface AccountLinks {
  assetId: string;
  type: string;
  parentAccountId?: string | null;
  supplierId?: string | null;
  meterPointNumber?: string;
}

/**
 * Field errors of an account's links: the parent must be a live account of the same asset and utility
 * (and not the account itself or below it), the supplier must exist, and the meter point number must not
 * belong to another live account of the company.
 */
export async function accountLinkErrors(
  caller: Caller,
  links: AccountLinks,
  /** The account itself, or the accounts an import updates (each keeps its own number). */
  selfId?: string | ReadonlySet<string>,
): Promise<Record<string, string>> {
  const isSelf = (id: string) => (typeof selfId === 'string' ? id === selfId : selfId?.has(id) === true);
  const errors: Record<string, string> = {};
  const companyId = caller.companyId;
  const parentId = links.parentAccountId ?? undefined;
  if (parentId) {
    const parent = await getAccount(companyId, parentId);
    if (!parent) errors.parentAccountId = ACCOUNT_MESSAGES.parentNotFound;
    else if (
      typeof selfId === 'string' &&
      (parentId === selfId || (await isBelow(companyId, parent, selfId)))
    )
      errors.parentAccountId = ACCOUNT_MESSAGES.parentSelf;
    else if (parent.assetId !== links.assetId) errors.parentAccountId = ACCOUNT_MESSAGES.parentOtherAsset;
    else if (parent.type !== links.type) errors.parentAccountId = ACCOUNT_MESSAGES.parentOtherType;
  }
  if (links.supplierId) {
    const supplier = await findSupplier(links.supplierId);
    if (!supplier) errors.supplierId = ACCOUNT_MESSAGES.supplierNotFound;
  }
  if (links.meterPointNumber && !errors.meterPointNumber) {
    const same = await listItems(collectionOf(accountsResource(), caller), {
      filters: { meterPointNumber: links.meterPointNumber },
      limit: 2,
      skip: 0,
    });
    if (same.data.some((a) => !isSelf(a._id))) errors.meterPointNumber = ACCOUNT_MESSAGES.duplicateMeterPoint;
  }
  return errors;
}

/** Whether `account` sits below the account `ancestorId` (its parent, or its parent's parent, ...). */
async function isBelow(companyId: string, account: StoredAccount, ancestorId: string): Promise<boolean> {
  let next = account.parentAccountId ?? undefined;
  for (let depth = 0; next && depth < 10; depth++) {
    if (next === ancestorId) return true;
    const parent = await getAccount(companyId, next);
    next = parent?.parentAccountId ?? undefined;
  }
  return false;
}

/** Who uses a meter, as saved: the tenant named must be one of the meter's own site, and only for a tenant. */
export interface MeterUserLinks {
  assetId: string;
  meterUser?: string | null;
  meterUserTenantId?: string | null;
}

/** Field errors of a meter's user: a tenant is linked only to a meter its tenant uses, and of its own site. */
export async function meterUserErrors(
  companyId: string,
  links: MeterUserLinks,
): Promise<Record<string, string>> {
  const tenantId = links.meterUserTenantId ?? undefined;
  if (!tenantId) return {};
  if (links.meterUser !== 'tenant') return { meterUserTenantId: ACCOUNT_MESSAGES.meterUserTenantOnly };
  if (!(await isTenantOfSite(companyId, links.assetId, tenantId)))
    return { meterUserTenantId: ACCOUNT_MESSAGES.meterUserTenantOfSite };
  return {};
}

export function throwIfAny(errors: Record<string, string>): void {
  if (Object.keys(errors).length > 0) throw formError(errors);
}

/** Accounts as lists show them: with their asset's name and whether they are a sub-meter. */
export async function accountViews(companyId: string, items: readonly StoredItem[]): Promise<StoredItem[]> {
  const assetIds = [
    ...new Set(items.map((i) => i.assetId).filter((v): v is string => typeof v === 'string')),
  ];
  const assets = new Map<string, StoredAsset | undefined>();
  await Promise.all(
    assetIds.map(async (id) => {
      // Deleted sites still lend their name to the accounts that remain on them.
      assets.set(id, await findStoredAsset(companyId, id));
    }),
  );
  return items.map((item) => {
    const asset = typeof item.assetId === 'string' ? assets.get(item.assetId) : undefined;
    return {
      ...item,
      isSubMeter: isSubMeter(item),
      asset: asset ? { _id: asset._id, siteName: asset.siteName } : null,
    };
  });
}

const isUtilityType = (type: unknown): type is UtilityType =>
  typeof type === 'string' && (UTILITY_TYPES as readonly string[]).includes(type);

/** An account's utility: its type, or electricity for an item stored without a known one. */
export function utilityOf(account: { readonly type?: unknown } & object): UtilityType {
  return isUtilityType(account.type) ? account.type : 'electricity';
}

/** The unit an account's consumption is shown in: its own, or its utility's default. */
export function unitOf(account: { readonly type?: unknown; readonly unit?: unknown } & object): string {
  return typeof account.unit === 'string' && account.unit ? account.unit : defaultUnit(utilityOf(account));
}
