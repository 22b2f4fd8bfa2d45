import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { registerResourceView } from '../../core/resources/resource-views.ts';
import { toValidation } from '../../invoices/invoice-repository.ts';
import { VALIDATION_QUEUE_OPERATIONS } from '../../invoices/validation-queue-service.ts';

/** The invoice-validation function's resource schemas are built on the first call that needs them, not at start. */
registerResourceSchemasLater(
  'invoice-validation',
  () => import('../../../shared/system/resource-schemas/invoice-validation.ts'),
);

/** A validation's generic reads (list, search, get) answer it as the queue does. */
registerResourceView('invoice-validation', toValidation);

export const handler = httpFunction('invoice-validation', [INVOICES_AREA], {
  ...GENERIC_OPERATIONS,
  ...VALIDATION_QUEUE_OPERATIONS,
});
