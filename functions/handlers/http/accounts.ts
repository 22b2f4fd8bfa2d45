import { ACCOUNTS_AREA } from '../../../shared/system/areas/accounts.ts';
import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { ACCOUNT_BILLING_OPERATIONS } from '../../accounts/account-billing-service.ts';
import { ACCOUNT_CONSUMPTION_OPERATIONS } from '../../accounts/account-consumption-service.ts';
import { ACCOUNT_IMPORT_OPERATIONS } from '../../accounts/account-import-service.ts';
import { ACCOUNT_OPERATIONS } from '../../accounts/account-service.ts';
import { ACCOUNT_STATUS_OPERATIONS } from '../../accounts/account-status-service.ts';
import { CONTRACT_FILE_OPERATIONS } from '../../accounts/contract-file-service.ts';
import { CONTRACT_IMPORT_OPERATIONS } from '../../accounts/contract-import-service.ts';
import { CONTRACT_OPERATIONS } from '../../accounts/contract-service.ts';
import { READING_OPERATIONS } from '../../accounts/reading-service.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { operation } from '../../core/middleware/operation.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { queueMeterImport } from '../../imports/index.ts';
import { INVOICE_ACCOUNT_OPERATIONS } from '../../invoices/invoice-account-service.ts';
import '../../../shared/system/resource-schemas/accounts.ts';

const METER_CONSUMPTION_IMPORT: Operations = {
  'accounts.consumptionImport': operation({ params: ['id'] }, (ctx) => queueMeterImport(ctx, ctx.params.id)),
};

export const handler = httpFunction('accounts', [ACCOUNTS_AREA, INVOICES_AREA], {
  ...GENERIC_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...ACCOUNT_IMPORT_OPERATIONS,
  ...ACCOUNT_BILLING_OPERATIONS,
  ...ACCOUNT_CONSUMPTION_OPERATIONS,
  ...ACCOUNT_STATUS_OPERATIONS,
  ...CONTRACT_OPERATIONS,
  ...CONTRACT_FILE_OPERATIONS,
  ...READING_OPERATIONS,
  ...INVOICE_ACCOUNT_OPERATIONS,
  ...CONTRACT_IMPORT_OPERATIONS,
  ...METER_CONSUMPTION_IMPORT,
});
