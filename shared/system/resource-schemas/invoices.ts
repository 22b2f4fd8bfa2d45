import { invoiceSchema } from '../../schemas/invoice.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the invoices function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('invoices', {
  invoices: { schema: invoiceSchema },
});
