import { importFileQuery } from '../../../../shared/schemas/import-file-query.ts';
import { ACCOUNT_IMPORT_OPERATIONS } from '../../../accounts/account-import-service.ts';
import { CONTRACT_IMPORT_OPERATIONS } from '../../../accounts/contract-import-service.ts';
import type { Operations } from '../../../core/middleware/api-context.ts';
import { operation } from '../../../core/middleware/operation.ts';
import { queueMeterImport } from '../../../imports/import-request.ts';
import { INVOICE_ACCOUNT_OPERATIONS } from '../../../invoices/invoice-account-service.ts';

/**
 * The accounts function's seldom called operations, loaded on the first call of one: CSV imports (with the
 * import machinery under them, a meter's consumption file among them) and invoice documents (stamping,
 * credit notes).
 */
export const LATER_OPERATIONS: Operations = {
  ...ACCOUNT_IMPORT_OPERATIONS,
  ...CONTRACT_IMPORT_OPERATIONS,
  ...INVOICE_ACCOUNT_OPERATIONS,
  'accounts.consumptionImport': operation({ params: ['id'], query: importFileQuery }, (ctx) =>
    queueMeterImport(ctx, ctx.params.id),
  ),
};
