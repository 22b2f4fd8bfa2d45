import { importFileQuery } from '../../../shared/schemas/import-file-query.ts';
import { invoiceDownloadQuery } from '../../../shared/schemas/queries.ts';
import { ACCOUNTS_AREA } from '../../../shared/system/areas/accounts.ts';
import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { ACCOUNT_BILLING_OPERATIONS } from '../../accounts/account-billing-service.ts';
import { ACCOUNT_CONSUMPTION_OPERATIONS } from '../../accounts/account-consumption-service.ts';
import { ACCOUNT_OPERATIONS } from '../../accounts/account-service.ts';
import { ACCOUNT_STATUS_OPERATIONS } from '../../accounts/account-status-service.ts';
import { CONTRACT_FILE_OPERATIONS } from '../../accounts/contract-file-service.ts';
import { CONTRACT_OPERATIONS } from '../../accounts/contract-service.ts';
import { READING_OPERATIONS } from '../../accounts/reading-service.ts';
import type { Operation, Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { onFirstCall, operation } from '../../core/middleware/operation.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { queueMeterImport } from '../../imports/import-request.ts';
import '../../../shared/system/resource-schemas/accounts.ts';

/**
 * The operations of a module loaded on the first call of one of them: CSV imports (with the import
 * machinery under them) and invoice documents (stamping, credit notes) are seldom called, and every cold
 * start would otherwise carry them.
 */
const loadedOnFirstCall =
  (load: () => Promise<Operations>) =>
  (name: string, declared: Parameters<typeof onFirstCall>[0] = {}): Operation =>
    onFirstCall(declared, async () => {
      const op = (await load())[name];
      if (!op) throw new Error(`${name} is not an operation of the module loaded for it`);
      return op;
    });
const accountImport = loadedOnFirstCall(
  async () => (await import('../../accounts/account-import-service.ts')).ACCOUNT_IMPORT_OPERATIONS,
);
const contractImport = loadedOnFirstCall(
  async () => (await import('../../accounts/contract-import-service.ts')).CONTRACT_IMPORT_OPERATIONS,
);
const invoiceDocument = loadedOnFirstCall(
  async () => (await import('../../invoices/invoice-account-service.ts')).INVOICE_ACCOUNT_OPERATIONS,
);

const SELDOM_CALLED_OPERATIONS: Operations = {
  'accounts.uploadCsv': accountImport('accounts.uploadCsv', { query: importFileQuery }),
  'accounts.importRollback': accountImport('accounts.importRollback'),
  'accounts.uploadContractCsv': contractImport('accounts.uploadContractCsv', { query: importFileQuery }),
  'accounts.contractImportRollback': contractImport('accounts.contractImportRollback'),
  'accounts.invoiceDownload': invoiceDocument('accounts.invoiceDownload', {
    params: ['invoiceId', 'id'],
    query: invoiceDownloadQuery,
  }),
  'accounts.invoiceDelete': invoiceDocument('accounts.invoiceDelete', { params: ['invoiceId', 'id'] }),
  'accounts.toCreditNote': invoiceDocument('accounts.toCreditNote', { params: ['invoiceId', 'id'] }),
  'accounts.toInvoice': invoiceDocument('accounts.toInvoice', { params: ['creditNoteId', 'id'] }),
  'accounts.creditNoteStamp': invoiceDocument('accounts.creditNoteStamp', { params: ['creditNoteId', 'id'] }),
  'accounts.creditNoteDownload': invoiceDocument('accounts.creditNoteDownload', {
    params: ['creditNoteId', 'id'],
    query: invoiceDownloadQuery,
  }),
};

const METER_CONSUMPTION_IMPORT: Operations = {
  'accounts.consumptionImport': operation({ params: ['id'], query: importFileQuery }, (ctx) =>
    queueMeterImport(ctx, ctx.params.id),
  ),
};

export const handler = httpFunction('accounts', [ACCOUNTS_AREA, INVOICES_AREA], {
  ...GENERIC_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...SELDOM_CALLED_OPERATIONS,
  ...ACCOUNT_BILLING_OPERATIONS,
  ...ACCOUNT_CONSUMPTION_OPERATIONS,
  ...ACCOUNT_STATUS_OPERATIONS,
  ...CONTRACT_OPERATIONS,
  ...CONTRACT_FILE_OPERATIONS,
  ...READING_OPERATIONS,
  ...METER_CONSUMPTION_IMPORT,
});
