import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import '../../../shared/system/resource-schemas/automation.ts';

export const handler = httpFunction('automation', { ...GENERIC_OPERATIONS });
