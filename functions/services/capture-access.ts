import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { findResource } from '../../shared/system/resources.ts';
import { getInvoice } from '../repositories/invoice-repository.ts';
import type { StoredItem } from '../repositories/item-repository.ts';
import { LineageResolver, mayAccessItem } from './item-access-service.ts';

/**
 * An uploaded document is the caller's when every bill found in it is: one document may hold bills of
 * several accounts, and a user with grants must not see (or re-run) another account's bill through it.
 * Bills not yet matched to an account are the billing roles', as for invoices themselves.
 */
export async function mayReadCapture(
  caller: Caller,
  capture: StoredItem,
  resolver: LineageResolver = new LineageResolver(caller.companyId, caller),
): Promise<boolean> {
  if (isCompanyWide(caller)) return true;
  const invoices = findResource('invoices');
  if (!invoices) throw new Error('The invoices resource is not declared');
  const ids = Array.isArray(capture.invoiceIds) ? capture.invoiceIds.map(String) : [capture._id];
  for (const id of ids) {
    const invoice = await getInvoice(caller.companyId, id);
    if (invoice && !(await mayAccessItem(invoices, caller, invoice, 'read', resolver))) return false;
  }
  return true;
}
