import type { Caller } from '../../shared/access/caller.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { activeBillingQuerySchema } from '../../shared/schemas/queries.ts';
import { findResource } from '../../shared/system/resources.ts';
import { assetFieldsOf } from '../assets/index.ts';
import { getCompany } from '../company/index.ts';
import { listItems } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { collectionOf } from '../core/resources/resource-service.ts';
import { allInvoices, type StoredInvoice } from '../invoices/index.ts';
import { allAccounts } from './account-repository.ts';

/** Invoices still on their way through capture (02 §4): what an account shows as being processed. */
const PROCESSING = new Set(['uploading', 'queued', 'pending', 'processing', 'captured']);

function invoicesResource() {
  const r = findResource('invoices');
  if (!r) throw new Error('The invoices resource is not declared');
  return r;
}

/** An account's invoices that are not yet completed, newest first. */
export async function processingInvoicesOf(caller: Caller, accountId: string) {
  const { data } = await listItems(collectionOf(invoicesResource(), caller), {
    filters: { accountId },
    limit: MAX_LIST_LIMIT,
    skip: 0,
    descending: true,
  });
  return data
    .filter((i) => PROCESSING.has(String(i.status)))
    .map((i) => ({
      _id: i._id,
      status: i.status,
      fileName: i.fileName,
      invoiceNumber: i.invoiceNumber,
      invoiceStartDate: i.invoiceStartDate,
      invoiceEndDate: i.invoiceEndDate,
      createdAt: i.createdAt,
    }));
}

/** The days an invoice covers; one without a period counts on the day it arrived. */
function periodOf(invoice: StoredInvoice): { start: string; end: string } | undefined {
  const arrived = invoice.createdAt?.slice(0, 10);
  const start = invoice.invoiceStartDate ?? invoice.invoiceEndDate ?? arrived;
  const end = invoice.invoiceEndDate ?? start;
  return start && end ? { start, end } : undefined;
}

interface Billed {
  invoiceCount: number;
  firstDate: string;
  lastDate: string;
}

/**
 * GET /accounts/active-billing?start&end&companyId: the accounts of a company with at least one stored
 * invoice (not a credit note, not deleted) whose period overlaps the window, with how many and when.
 */
const activeBilling = operation({ query: activeBillingQuerySchema }, async (ctx): Promise<OpResult> => {
  const q = ctx.query;
  if (q.end < q.start) throw formError({ end: 'Must be on or after the start date' });
  const companyId = q.companyId ?? ctx.caller.companyId;
  const company = await getCompany(companyId);
  if (!company || company.deleted === true) throw notFound();

  const billed = new Map<string, Billed>();
  let invoiceCount = 0;
  for (const invoice of await allInvoices(companyId)) {
    const accountId = invoice.accountId;
    if (!accountId || invoice.deleted === true || invoice.isCreditNote === true) continue;
    const period = periodOf(invoice);
    if (!period || period.start > q.end || period.end < q.start) continue;
    invoiceCount++;
    const seen = billed.get(accountId);
    billed.set(accountId, {
      invoiceCount: (seen?.invoiceCount ?? 0) + 1,
      firstDate: seen && seen.firstDate < period.start ? seen.firstDate : period.start,
      lastDate: seen && seen.lastDate > period.end ? seen.lastDate : period.end,
    });
  }

  const accounts = new Map((await allAccounts(companyId)).map((a) => [a._id, a] as const));
  const assets = new Map((await assetFieldsOf(companyId, ['siteName'])).map((a) => [a._id, a] as const));
  const data = [...billed.entries()].map(([accountId, b]) => {
    const account = accounts.get(accountId);
    const asset = account ? assets.get(account.assetId) : undefined;
    return {
      _id: accountId,
      name: account?.name,
      type: account?.type,
      meterPointNumber: account?.meterPointNumber,
      status: account?.status,
      supplierId: account?.supplierId,
      assetId: account?.assetId,
      asset: asset ? { _id: asset._id, siteName: asset.siteName } : null,
      ...b,
    };
  });
  const key = (d: (typeof data)[number]) => `${d.asset?.siteName ?? ''}\u0000${d.name ?? ''}`;
  data.sort((a, b) => key(a).localeCompare(key(b)));
  return {
    body: { data, total: data.length, invoiceCount, start: q.start, end: q.end, companyId },
  };
});

export const ACCOUNT_BILLING_OPERATIONS: Operations = {
  'accounts.activeBilling': activeBilling,
};
