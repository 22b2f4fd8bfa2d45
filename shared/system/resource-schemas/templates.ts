import * as billing from '../../schemas/billing.ts';
import * as portfolio from '../../schemas/portfolio.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the templates function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('templates', {
  suppliers: { schema: portfolio.supplierSchema },
  templates: { schema: billing.templateSchema },
});
