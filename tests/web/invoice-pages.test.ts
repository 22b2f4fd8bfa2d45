import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { APP_ROUTES, type AppRoute } from '../../web/app/routes.ts';
import { INVOICE_PAGES } from '../../web/features/invoices/pages.ts';

function pageFor(pathname: string): string | undefined {
  const matches = matchRoutes(
    APP_ROUTES.map((r) => ({ path: r.path, handle: r })),
    pathname,
  );
  return (matches?.at(-1)?.route.handle as AppRoute | undefined)?.page;
}

describe('the invoice pages', () => {
  it.each([
    ['/invoices/upload', 'invoice-upload'],
    ['/invoice-validation/upload', 'invoice-validation-upload'],
    ['/invoice-validation/failed', 'invoice-validation-queue'],
    ['/invoice-validation/passed', 'invoice-validation-queue'],
    ['/invoice-validation/completed', 'invoice-validation-queue'],
    ['/invoice-validation/invoice-captures', 'invoice-captures'],
    ['/invoice-validation/0123456789abcdef01234567', 'invoice-validation-invoice'],
    ['/assets/a1/accounts/b2/invoices', 'account-invoices'],
    ['/assets/a1/accounts/b2/credit-notes', 'account-credit-notes'],
  ])('serve %s with %s', (pathname, page) => {
    expect(pageFor(pathname)).toBe(page);
    expect(Object.keys(INVOICE_PAGES)).toContain(page);
  });

  it('leave the other account pages to the account area', () => {
    expect(pageFor('/assets/a1/accounts/b2/readings')).toBe('account-readings');
  });
});
