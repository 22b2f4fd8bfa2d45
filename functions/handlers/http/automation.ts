import { httpFunction } from '../../middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import '../../../shared/system/resource-schemas/automation.ts';

export const handler = httpFunction('automation', { ...GENERIC_OPERATIONS });
