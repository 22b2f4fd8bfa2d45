import { countrySchema } from '../../schemas/country.ts';
import { emailSchema } from '../../schemas/email.ts';
import { kioskSchema } from '../../schemas/kiosk.ts';
import { logSchema } from '../../schemas/log.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the util function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('util', {
  countries: { schema: countrySchema },
  logs: { schema: logSchema },
  emails: { schema: emailSchema },
  kiosks: { schema: kioskSchema },
});
