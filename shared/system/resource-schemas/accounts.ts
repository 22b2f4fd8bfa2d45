import { accountObject } from '../../schemas/account.ts';
import { accountStatusHistoryObject } from '../../schemas/account-inputs.ts';
import { readingObject } from '../../schemas/reading.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the accounts function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('accounts', {
  accounts: {
    schema: accountObject(),
    subResources: {
      'status-history': accountStatusHistoryObject(),
    },
  },
  readings: { schema: readingObject() },
});
