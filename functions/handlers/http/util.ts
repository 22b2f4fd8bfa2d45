import { IMPORTS_AREA } from '../../../shared/system/areas/imports.ts';
import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { KIOSK_AREA } from '../../../shared/system/areas/kiosk.ts';
import { LOOKUPS_AREA } from '../../../shared/system/areas/lookups.ts';
import { MARKETPLACE_AREA } from '../../../shared/system/areas/marketplace.ts';
import { SEARCH_AREA } from '../../../shared/system/areas/search.ts';
import { STAFF_TOOLS_AREA } from '../../../shared/system/areas/staff-tools.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { LOOKUP_OPERATIONS } from '../../lookups/lookup-service.ts';
import { SEARCH_OPERATIONS } from '../../search/search-operations.ts';

/**
 * The stored shapes of countries, logs, e-mails and kiosks are parsed by the generic calls and the lists
 * filtered by their fields: built on the first of those. Search parses none.
 */
registerResourceSchemasLater('util', () => import('../../../shared/system/resource-schemas/util.ts'));

/**
 * Lookups and search are most of the function's calls: the staff tools, kiosks, e-mails and the rest
 * load on the first call of one of theirs, so a cold start serving a lookup does not carry them.
 */
const laterOperations = async (): Promise<Operations> => (await import('./later/util.ts')).LATER_OPERATIONS;

export const handler = httpFunction(
  'util',
  [LOOKUPS_AREA, IMPORTS_AREA, STAFF_TOOLS_AREA, KIOSK_AREA, INVOICES_AREA, MARKETPLACE_AREA, SEARCH_AREA],
  {
    ...GENERIC_OPERATIONS,
    ...LOOKUP_OPERATIONS,
    ...SEARCH_OPERATIONS,
  },
  { later: laterOperations, withoutResourceSchemas: Object.keys(SEARCH_OPERATIONS) },
);
