import { BILLING, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const INVOICES_RESOURCE: ResourceDecl = {
  name: 'invoices',
  fn: 'invoices',
  scope: 'company',
  read: [...BILLING, ...PORTFOLIO_READERS],
  write: BILLING,
  indexes: ['accountId', 'batchId'],
  searchFields: ['fileName', 'invoiceNumber'],
  parent: { type: 'accounts', field: 'accountId', whenMissing: BILLING },
};

export const INVOICE_VALIDATION_RESOURCE: ResourceDecl = {
  name: 'invoice-validation',
  fn: 'invoice-validation',
  scope: 'company',
  read: BILLING,
  write: BILLING,
  indexes: ['status'],
  searchFields: ['displayName', 'invoiceNumber', 'tags'],
  // A validation is its invoice's: readable with the invoice's account, by the billing roles before it has one.
  parent: { type: 'accounts', field: 'accountId', whenMissing: BILLING },
};

/** What the invoices area serves through the generic resource calls. */
export const INVOICES_AREA_RESOURCES: readonly ResourceDecl[] = [
  INVOICES_RESOURCE,
  INVOICE_VALIDATION_RESOURCE,
];
