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
