import { accountSchema } from '../../schemas/account.ts';
import { accountStatusHistorySchema } from '../../schemas/account-inputs.ts';
import { readingSchema } from '../../schemas/reading.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the accounts function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('accounts', {
  accounts: {
    schema: accountSchema,
    subResources: {
      'status-history': accountStatusHistorySchema,
    },
  },
  readings: { schema: readingSchema },
});
