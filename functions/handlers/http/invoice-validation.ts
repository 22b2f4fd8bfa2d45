import { httpFunction } from '../../middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { VALIDATION_QUEUE_OPERATIONS } from '../../services/validation-queue-service.ts';
import '../../../shared/system/resource-schemas/invoice-validation.ts';

export const handler = httpFunction('invoice-validation', {
  ...GENERIC_OPERATIONS,
  ...VALIDATION_QUEUE_OPERATIONS,
});
