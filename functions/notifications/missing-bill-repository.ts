/**
 * | pattern                                 | key condition                                                    | index |
 * | --------------------------------------- | ---------------------------------------------------------------- | ----- |
 * | a company's active accounts             | pk = C#{companyId}#accounts, filter status = active              | table |
 * | an account's invoices                   | gsi1pk = C#{companyId}#invoices#accountId#{accountId}            | gsi1  |
 * | claim / release a missing-bill notice   | pk = C#{companyId}#missing-bill-notices, sk = {accountId}#{from} | table |
 * | write new notifications (batches of 25) | pk = C#{companyId}#notifications, sk = id                        | table |
 */
import {
  type CollectionRef,
  declaredRef,
  deleteRaw,
  listItems,
  putItemIf,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { putNewItems } from '../core/imports/import-batch-repository.ts';

const collectionRef = (name: 'accounts' | 'invoices' | 'notifications', companyId: string): CollectionRef =>
  declaredRef(name, { companyId });

const EVERY = 100_000;

/** What the missing-bills check reads of an account. */
export type BilledAccount = StoredItem & {
  name?: string;
  meterPointNumber?: string;
  billingCycleDays?: number;
};

/** What the missing-bills check reads of a bill: the period it covers, and whether it is a credit note. */
export interface BillPeriod {
  invoiceStartDate?: string;
  invoiceEndDate?: string;
  isCreditNote?: boolean;
}

/** The company's active accounts (a Query on its accounts partition). */
export async function activeAccounts(companyId: string): Promise<BilledAccount[]> {
  return (
    await listItems(collectionRef('accounts', companyId), {
      filters: { status: 'active' },
      limit: EVERY,
      skip: 0,
    })
  ).data;
}

/** The account's invoices, read through the accountId index partition. */
export async function invoicesOfAccount(
  companyId: string,
  accountId: string,
): Promise<(StoredItem & BillPeriod)[]> {
  return (
    await listItems(collectionRef('invoices', companyId), { filters: { accountId }, limit: EVERY, skip: 0 })
  ).data;
}

/**
 * Records that people were told about the account's bills missing from `from` on. False when that was
 * done before, so a retried or repeated run tells nobody twice.
 */
export async function claimMissingBillNotice(
  companyId: string,
  accountId: string,
  from: string,
): Promise<boolean> {
  const ref: CollectionRef = { pk: keys.missingBillNotices(companyId), indexes: [], searchFields: [] };
  return putItemIf(
    ref,
    { _id: `${accountId}#${from}`, accountId, from, notifiedAt: new Date().toISOString() },
    { ConditionExpression: 'attribute_not_exists(pk)' },
  );
}

/** Undoes a claim whose notifications could not be written, so the next run tries again. */
export async function releaseMissingBillNotice(
  companyId: string,
  accountId: string,
  from: string,
): Promise<void> {
  await deleteRaw(keys.missingBillNotices(companyId), `${accountId}#${from}`);
}

/** New notifications (their ids just made), written in batches rather than one request each. */
export async function putNotifications(companyId: string, items: readonly StoredItem[]): Promise<void> {
  const ref = collectionRef('notifications', companyId);
  await putNewItems(items.map((item) => ({ ref, item })));
}
