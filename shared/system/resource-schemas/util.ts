import * as company from '../../schemas/company.ts';
import * as portfolio from '../../schemas/portfolio.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the util function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('util', {
  countries: { schema: portfolio.countrySchema },
  logs: { schema: company.logSchema },
  emails: { schema: company.emailSchema },
  kiosks: { schema: company.kioskSchema },
});
