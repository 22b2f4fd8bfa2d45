import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { INVOICE_OPERATIONS } from '../../invoices/invoice-service.ts';
import { INVOICE_UPLOAD_OPERATIONS } from '../../invoices/invoice-upload-service.ts';

/** The invoices function's resource schemas are built on the first call that needs them, not at start. */
registerResourceSchemasLater('invoices', () => import('../../../shared/system/resource-schemas/invoices.ts'));

/**
 * Bill imports (CSV files of bills, with their rollback) and the generic bill writes are a few calls in
 * a thousand: they load on the first call of one, so a cold start serving the bill list and a bill's page
 * reads neither the import planner nor the figures' rebuild under a rollback.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/invoices.ts')).LATER_OPERATIONS;

export const handler = httpFunction(
  'invoices',
  [INVOICES_AREA],
  { ...GENERIC_OPERATIONS, ...INVOICE_UPLOAD_OPERATIONS, ...INVOICE_OPERATIONS },
  { later: laterOperations },
);
