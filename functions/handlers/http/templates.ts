import { SUPPLIERS_AREA } from '../../../shared/system/areas/suppliers.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { registerResourceView } from '../../core/resources/resource-views.ts';
import { SUPPLIER_OPERATIONS, withLogo } from '../../suppliers/supplier-service.ts';

/**
 * Suppliers are read by everyone; the template editor's calls are staff's, and far fewer: they load on
 * the first call of one, with the invoice reading a sample's preview needs, so a cold start serving
 * the supplier list carries neither.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/templates.ts')).LATER_OPERATIONS;

/**
 * The schemas of suppliers and templates are built on the first call that may parse one: reading one
 * supplier or template parses none.
 */
registerResourceSchemasLater(
  'templates',
  () => import('../../../shared/system/resource-schemas/templates.ts'),
);

/** Every generic read of a supplier (list, search, one) answers its logo's link. */
registerResourceView('suppliers', withLogo);

export const handler = httpFunction(
  'templates',
  [SUPPLIERS_AREA],
  { ...GENERIC_OPERATIONS, ...SUPPLIER_OPERATIONS },
  { later: laterOperations, withoutResourceSchemas: ['generic.get', 'suppliers.get'] },
);
