import type { PermissionName } from '../../access/permission-names.ts';
import type { AuthKind } from '../../access/route-rules.ts';
import { IMPORT_MAX_BODY_BYTES } from '../../constants.ts';
import { importFileQuery } from '../../schemas/import-file-query.ts';
import {
  emailListQuery,
  invoiceValidationListQuery,
  listSearchQuery,
  plainListQuery,
  validationQueueQuery,
} from '../../schemas/list-queries.ts';
import { invoiceDownloadQuery } from '../../schemas/queries.ts';
import type { AreaDecl } from '../area.ts';
import type { QueueDecl, SubscriptionDecl } from '../functions.ts';
import { BILLING } from '../permission-sets.ts';
import { INVOICES_AREA_RESOURCES } from '../resources/invoices.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

/** Invoice upload: company admins or bill validation (01 §6 key route permissions). */
const UPLOAD: readonly PermissionName[] = ['company_admin', 'bill_validation'];
/** Account invoice pages: everyone who may read the account (per-item grants decide which). */
const PORTFOLIO: readonly PermissionName[] = [
  ...BILLING,
  'company_user',
  'company_user_full',
  'entity_user',
  'asset_user',
  'account_user',
];
// Machines upload invoices and read what they sent (machine-to-machine mode).
const MACHINE = { auth: ['user', 'machine'] as readonly AuthKind[] };
const INVOICES = { resource: 'invoices' } as const;
const VALIDATIONS = { resource: 'invoice-validation' } as const;
const READ_ACCOUNT = { item: { type: 'accounts', param: 'id', access: 'read' } } as const;
const WRITE_ACCOUNT = { item: { type: 'accounts', param: 'id', access: 'write' } } as const;

const inv = routesOf('invoices');
const val = routesOf('invoice-validation');
const acc = routesOf('accounts');
const util = routesOf('util');

/**
 * Invoices, their capture and their validation (02 §7 Invoices, Invoice capture, Invoice validation; the
 * invoice calls under Assets and Accounts; e-mails and the invoice import rollback under Logs).
 */
const INVOICE_ROUTES: readonly HttpRoute[] = [
  // Uploads: a presigned URL for the browser (or a machine) to put the document to.
  inv('POST', '/invoices/captur-upload', 'invoices.upload', UPLOAD, { ...INVOICES, ...MACHINE }),
  inv('POST', '/invoice-capture/upload', 'invoiceCapture.upload', UPLOAD, { ...INVOICES, ...MACHINE }),
  inv('POST', '/invoices/manual-upload', 'invoices.manualUpload', UPLOAD, INVOICES),
  inv('GET', '/invoice-capture/{id}/download', 'invoiceCapture.download', BILLING, INVOICES),
  inv('POST', '/invoice-capture/{id}/start-capture', 'invoiceCapture.startCapture', BILLING, INVOICES),
  inv('PUT', '/invoice-capture/{id}/start-validation', 'invoiceCapture.startValidation', BILLING, INVOICES),

  // One invoice.
  inv('DELETE', '/invoices/{id}', 'invoices.delete', BILLING, INVOICES),
  inv('PUT', '/invoices/{id}/restore', 'invoices.restore', BILLING, INVOICES),
  inv('GET', '/invoices/{id}/download', 'invoices.download', PORTFOLIO, { ...INVOICES, ...MACHINE }),
  inv('PATCH', '/invoices/{id}/manual-update', 'invoices.manualUpdate', BILLING, INVOICES),
  inv('POST', '/invoices/{id}/rates', 'invoices.addRate', BILLING, INVOICES),
  inv('DELETE', '/invoices/{id}/rates/{rateId}', 'invoices.deleteRate', BILLING, INVOICES),
  inv('POST', '/invoices/{id}/confirm', 'invoices.confirm', BILLING, INVOICES),
  inv('POST', '/invoices/{id}/stamp', 'invoices.stamp', BILLING, INVOICES),
  inv('POST', '/invoices/{id}/update-validation', 'invoices.updateValidation', BILLING, INVOICES),
  inv('GET', '/invoices/{id}/refresh', 'invoices.refresh', BILLING, INVOICES),
  // Validating stores the result on the invoice: a write, though a GET.
  inv('GET', '/invoices/{id}/validate', 'invoices.validate', BILLING, {
    ...INVOICES,
    item: { type: 'accounts', resource: 'invoices', param: 'id', access: 'write' },
  }),
  inv('POST', '/invoices/convert-values', 'invoices.convertValues', BILLING),

  // The generic writes of the invoices resource, replaced: an invoice's status, completion and figures
  // change only through its own actions, which keep the account's data and the validation in step.
  inv('POST', '/invoices', 'invoices.create', BILLING, INVOICES),
  inv('POST', '/invoices/bulk', 'invoices.create', BILLING, INVOICES),
  inv('PATCH', '/invoices/{id}', 'invoices.update', BILLING, INVOICES),
  inv('PUT', '/invoices/{id}', 'invoices.restore', BILLING, INVOICES),

  // Many invoices.
  inv('GET', '/invoices/validation', 'invoices.validationList', BILLING, INVOICES),
  inv('GET', '/invoices/validation-stats', 'invoices.validationStats', BILLING, INVOICES),
  inv('POST', '/invoices/bulk-delete', 'invoices.bulkDelete', BILLING, INVOICES),
  inv('POST', '/invoices/import', 'invoices.import', BILLING, {
    ...INVOICES,
    maxBodyBytes: IMPORT_MAX_BODY_BYTES,
    query: importFileQuery,
  }),
  inv('POST', '/invoices/import-rollback', 'invoices.importRollback', BILLING, INVOICES),

  // The validation queues.
  val('GET', '/invoice-validation/queue', 'validation.queue', BILLING, VALIDATIONS),
  val('GET', '/invoice-validation/search', 'validation.search', BILLING, VALIDATIONS),
  val('GET', '/invoice-validation/invoices', 'validation.invoices', BILLING, VALIDATIONS),
  val('GET', '/invoice-validation/{id}/export', 'validation.export', BILLING, VALIDATIONS),
  val('GET', '/invoice-validation/{id}/summary', 'validation.summary', BILLING, VALIDATIONS),
  val('PUT', '/invoice-validation/{id}/revalidate', 'validation.revalidate', BILLING, VALIDATIONS),
  val('PUT', '/invoice-validation/{id}/force', 'validation.force', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/assign-users', 'validation.assignUsers', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/bulk-delete', 'validation.bulkDelete', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/bulk-revalidate', 'validation.bulkRevalidate', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/bulk-complete', 'validation.bulkComplete', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/bulk-tag', 'validation.bulkTag', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/bulk-hold', 'validation.bulkHold', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/bulk-force', 'validation.bulkForce', BILLING, VALIDATIONS),
  // The generic writes, replaced: a validation is made by capture and changed through the actions above.
  val('POST', '/invoice-validation', 'validation.create', BILLING, VALIDATIONS),
  val('POST', '/invoice-validation/bulk', 'validation.create', BILLING, VALIDATIONS),
  val('PATCH', '/invoice-validation/{id}', 'validation.update', BILLING, VALIDATIONS),
  val('DELETE', '/invoice-validation/{id}', 'validation.delete', BILLING, VALIDATIONS),
  val('PUT', '/invoice-validation/{id}', 'validation.restore', BILLING, VALIDATIONS),

  // An account's invoices and credit notes.
  acc('GET', '/accounts/{id}/invoice/{invoiceId}/download', 'accounts.invoiceDownload', PORTFOLIO, {
    ...READ_ACCOUNT,
    ...MACHINE,
  }),
  acc('DELETE', '/accounts/{id}/invoice/{invoiceId}', 'accounts.invoiceDelete', BILLING, WRITE_ACCOUNT),
  acc(
    'PUT',
    '/accounts/{id}/invoices/{invoiceId}/to-credit-note',
    'accounts.toCreditNote',
    BILLING,
    WRITE_ACCOUNT,
  ),
  acc(
    'PUT',
    '/accounts/{id}/credit-notes/{creditNoteId}/to-invoice',
    'accounts.toInvoice',
    BILLING,
    WRITE_ACCOUNT,
  ),
  acc(
    'POST',
    '/accounts/{id}/credit-notes/{creditNoteId}/stamp',
    'accounts.creditNoteStamp',
    BILLING,
    WRITE_ACCOUNT,
  ),
  acc(
    'GET',
    '/accounts/{id}/credit-notes/{creditNoteId}/download',
    'accounts.creditNoteDownload',
    PORTFOLIO,
    {
      ...READ_ACCOUNT,
      ...MACHINE,
    },
  ),

  // The capture inbox's log; staff also see mail that reached no company.
  util('GET', '/emails', 'emails.list', BILLING, { resource: 'emails', ...MACHINE }),
  util('GET', '/emails/search', 'emails.search', BILLING, { resource: 'emails', ...MACHINE }),
  util('GET', '/emails/{id}', 'emails.get', BILLING, { resource: 'emails', ...MACHINE }),
  util('GET', '/emails/{id}/attachments/{attachmentId}/download', 'emails.attachmentDownload', BILLING, {
    resource: 'emails',
  }),
];

const INVOICES_QUEUES: readonly QueueDecl[] = [
  {
    name: 'email-intake',
    consumer: 'email-intake',
    batchSize: 5,
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 3,
  },
  {
    name: 'capture',
    consumer: 'capture',
    // One document per invocation: a long one must not hold others back past their deadline.
    batchSize: 1,
    // No longer than the worker's own timeout (SQS event sources refuse less): the worker extends the
    // visibility while it works, so this is only how long a capture whose worker crashed waits to be retried.
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 3,
  },
  {
    name: 'validation',
    consumer: 'validation',
    batchSize: 10,
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 3,
  },
];

const INVOICES_SUBSCRIPTIONS: readonly SubscriptionDecl[] = [
  // Invoice documents, however they arrived (browser, e-mail, API): `invoices/{companyId}/{captureId}/{file}`.
  { bucket: 'uploads', prefix: 'invoices/', queue: 'capture' },
];

/** Invoice capture, upload, e-mail intake and bill validation. */
export const INVOICES_AREA: AreaDecl = {
  name: 'invoices',
  resources: INVOICES_AREA_RESOURCES,
  routes: withQueries([...INVOICE_ROUTES], {
    'GET /invoices/{id}/download': invoiceDownloadQuery,
    'GET /invoices/validation': invoiceValidationListQuery,
    'GET /invoice-validation/queue': validationQueueQuery,
    'GET /invoice-validation/search': listSearchQuery,
    'GET /invoice-validation/invoices': plainListQuery,
    'GET /emails': emailListQuery,
    'GET /emails/search': listSearchQuery,
    'GET /accounts/{id}/invoice/{invoiceId}/download': invoiceDownloadQuery,
    'GET /accounts/{id}/credit-notes/{creditNoteId}/download': invoiceDownloadQuery,
  }),
  queues: INVOICES_QUEUES,
  subscriptions: INVOICES_SUBSCRIPTIONS,
  // Received mail: e-mail intake routes it by the envelope's recipients in SES's receipt.
  mailReceipts: [{ bucket: 'inbox', prefix: 'mail/', queue: 'email-intake' }],
};
