import * as billing from '../../schemas/billing.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the invoices function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('invoices', {
  invoices: { schema: billing.invoiceSchema },
});
