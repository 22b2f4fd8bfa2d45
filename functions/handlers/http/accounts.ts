import { ACCOUNTS_AREA } from '../../../shared/system/areas/accounts.ts';
import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { ACCOUNT_BILLING_OPERATIONS } from '../../accounts/account-billing-service.ts';
import { ACCOUNT_CONSUMPTION_OPERATIONS } from '../../accounts/account-consumption-service.ts';
import { ACCOUNT_OPERATIONS } from '../../accounts/account-service.ts';
import { ACCOUNT_STATUS_OPERATIONS } from '../../accounts/account-status-service.ts';
import { CONTRACT_FILE_OPERATIONS } from '../../accounts/contract-file-service.ts';
import { CONTRACT_OPERATIONS } from '../../accounts/contract-service.ts';
import { readingView } from '../../accounts/reading-rules.ts';
import { READING_OPERATIONS } from '../../accounts/reading-service.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { registerResourceView } from '../../core/resources/resource-views.ts';

/**
 * CSV imports (with the import machinery under them, a meter's consumption file among them) and invoice
 * documents (stamping, credit notes) are seldom called: they load on the first call of one of theirs, so
 * that every cold start does not carry them.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/accounts.ts')).LATER_OPERATIONS;

/** The accounts function's resource schemas are built on the first call that needs them, not at start. */
registerResourceSchemasLater('accounts', () => import('../../../shared/system/resource-schemas/accounts.ts'));

/** Every generic read of a reading (list, search, one) answers whether it has a photo, never the photo's key. */
registerResourceView('readings', (item) => ({ ...readingView(item) }));

export const handler = httpFunction(
  'accounts',
  [ACCOUNTS_AREA, INVOICES_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...ACCOUNT_OPERATIONS,
    ...ACCOUNT_BILLING_OPERATIONS,
    ...ACCOUNT_CONSUMPTION_OPERATIONS,
    ...ACCOUNT_STATUS_OPERATIONS,
    ...CONTRACT_OPERATIONS,
    ...CONTRACT_FILE_OPERATIONS,
    ...READING_OPERATIONS,
  },
  { later: laterOperations },
);
