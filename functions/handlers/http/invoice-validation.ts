import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { VALIDATION_QUEUE_OPERATIONS } from '../../invoices/validation-queue-service.ts';
import '../../../shared/system/resource-schemas/invoice-validation.ts';

export const handler = httpFunction('invoice-validation', [INVOICES_AREA], {
  ...GENERIC_OPERATIONS,
  ...VALIDATION_QUEUE_OPERATIONS,
});
