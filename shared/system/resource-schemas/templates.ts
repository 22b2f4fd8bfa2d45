import { supplierSchema } from '../../schemas/supplier.ts';
import { templateSchema } from '../../schemas/templates.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the templates function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('templates', {
  suppliers: { schema: supplierSchema },
  templates: { schema: templateSchema },
});
