// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { InvoicePageKey } from './pages.ts';

/** Which page serves each invoice route path. */
export const INVOICE_PAGE_OF: Readonly<Record<string, InvoicePageKey>> = {
  '/invoices/upload': 'invoice-upload',
  '/invoice-validation/upload': 'invoice-validation-upload',
  '/invoice-validation/passed': 'invoice-validation-queue',
  '/invoice-validation/failed': 'invoice-validation-queue',
  '/invoice-validation/completed': 'invoice-validation-queue',
  '/invoice-validation/:id': 'invoice-validation-invoice',
  '/invoice-validation/invoice-captures': 'invoice-captures',
};

/** Which sub-page of /assets/{id}/accounts/{accountId} each account invoice page serves. */
export const ACCOUNT_INVOICE_SUB_PAGES: Readonly<Record<string, InvoicePageKey>> = {
  invoices: 'account-invoices',
  'credit-notes': 'account-credit-notes',
};

/** An invoice route served by its page here; other routes pass through unchanged. */
export function withInvoicePage<R extends { path: string; page: string }>(route: R): R {
  const page = INVOICE_PAGE_OF[route.path];
  return page ? ({ ...route, page } as R) : route;
}
