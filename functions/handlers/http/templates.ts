import { httpFunction } from '../../middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';

export const handler = httpFunction('templates', { ...GENERIC_OPERATIONS });
