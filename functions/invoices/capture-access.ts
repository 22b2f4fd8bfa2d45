import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { findResource } from '../../shared/system/resources.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { getItems } from '../core/data/batch-reads.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { capturesRef, invoicesRef } from './invoice-repository.ts';

const invoiceIdsOf = (capture: StoredItem): string[] =>
  Array.isArray(capture.invoiceIds) ? capture.invoiceIds.map(String) : [capture._id];

/**
 * The documents among `captures` that are the caller's: a document is when every bill found in it is,
 * since one document may hold bills of several accounts and a user with grants must not see (or re-run)
 * another account's bill through it. Bills not yet matched to an account are the billing roles', as for
 * invoices themselves. The bills of all the documents are read together, in batches.
 */
export async function readableCaptures(
  caller: Caller,
  captures: readonly StoredItem[],
  resolver: LineageResolver = new LineageResolver(caller.companyId, caller),
): Promise<StoredItem[]> {
  if (isCompanyWide(caller)) return [...captures];
  const resource = findResource('invoices');
  if (!resource) throw new Error('The invoices resource is not declared');
  const invoices = await getItems(invoicesRef(caller.companyId).pk, captures.flatMap(invoiceIdsOf));
  const readable = await Promise.all(
    captures.map(async (capture) => {
      const found = invoiceIdsOf(capture)
        .map((id) => invoices.get(id))
        .filter((invoice): invoice is StoredItem => invoice !== undefined);
      const each = await Promise.all(
        found.map((invoice) => mayAccessItem(resource, caller, invoice, 'read', resolver)),
      );
      return each.every(Boolean);
    }),
  );
  return captures.filter((_, i) => readable[i]);
}

/** Whether one document is the caller's (see `readableCaptures`). */
export async function mayReadCapture(caller: Caller, capture: StoredItem): Promise<boolean> {
  return (await readableCaptures(caller, [capture])).length === 1;
}

/**
 * Which of these documents (by capture id) are the caller's, for what points at documents from outside
 * the area (an e-mail's attachments): a document the company does not have is nobody's.
 */
export async function readableCaptureIds(
  caller: Caller,
  captureIds: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(captureIds)];
  if (unique.length === 0) return new Set();
  const captures = await getItems(capturesRef(caller.companyId).pk, unique);
  const readable = await readableCaptures(caller, [...captures.values()]);
  return new Set(readable.map((c) => c._id));
}
