import { invoiceValidationSchema } from '../../schemas/invoice-validation.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the invoice-validation function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('invoice-validation', {
  'invoice-validation': { schema: invoiceValidationSchema },
});
