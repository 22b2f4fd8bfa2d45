import type { ComponentType } from 'react';

/** The invoice and bill validation pages, each its own chunk: fetched when its route is first visited. */
export const INVOICE_PAGES = {
  'invoice-upload': () => import('./upload-pages.tsx').then((m) => ({ Component: m.InvoiceUploadPage })),
  'invoice-validation-upload': () =>
    import('./upload-pages.tsx').then((m) => ({ Component: m.ValidationUploadPage })),
  'invoice-validation-queue': () =>
    import('./validation-queue-page.tsx').then((m) => ({ Component: m.ValidationQueuePage })),
  'invoice-validation-invoice': () =>
    import('./invoice-page.tsx').then((m) => ({ Component: m.InvoicePage })),
  'invoice-captures': () =>
    import('./invoice-captures-page.tsx').then((m) => ({ Component: m.InvoiceCapturesPage })),
  'account-invoices': () =>
    import('./account-invoices-page.tsx').then((m) => ({ Component: m.AccountInvoicesPage })),
  'account-credit-notes': () =>
    import('./account-invoices-page.tsx').then((m) => ({ Component: m.AccountCreditNotesPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type InvoicePageKey = keyof typeof INVOICE_PAGES;

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
