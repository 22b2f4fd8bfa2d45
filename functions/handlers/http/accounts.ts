import { httpFunction } from '../../middleware/http-function.ts';
import { ACCOUNT_BILLING_OPERATIONS } from '../../services/account-billing-service.ts';
import { ACCOUNT_CONSUMPTION_OPERATIONS } from '../../services/account-consumption-service.ts';
import { ACCOUNT_OPERATIONS } from '../../services/account-service.ts';
import { ACCOUNT_STATUS_OPERATIONS } from '../../services/account-status-service.ts';
import { CONTRACT_FILE_OPERATIONS } from '../../services/contract-file-service.ts';
import { CONTRACT_OPERATIONS } from '../../services/contract-service.ts';
import { INVOICE_ACCOUNT_OPERATIONS } from '../../services/invoice-account-service.ts';
import { READING_OPERATIONS } from '../../services/reading-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import '../../../shared/system/resource-schemas/accounts.ts';

export const handler = httpFunction('accounts', {
  ...GENERIC_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...ACCOUNT_BILLING_OPERATIONS,
  ...ACCOUNT_CONSUMPTION_OPERATIONS,
  ...ACCOUNT_STATUS_OPERATIONS,
  ...CONTRACT_OPERATIONS,
  ...CONTRACT_FILE_OPERATIONS,
  ...READING_OPERATIONS,
  ...INVOICE_ACCOUNT_OPERATIONS,
});
