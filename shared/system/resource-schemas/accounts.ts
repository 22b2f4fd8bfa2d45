import { accountStatusHistorySchema } from '../../schemas/account-inputs.ts';
import * as portfolio from '../../schemas/portfolio.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the accounts function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('accounts', {
  accounts: {
    schema: portfolio.accountSchema,
    subResources: {
      'status-history': accountStatusHistorySchema,
    },
  },
  readings: { schema: portfolio.readingSchema },
});
