import { httpFunction } from '../../middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { SESSION_OPERATIONS } from '../../services/session-service.ts';

export const handler = httpFunction('session', { ...GENERIC_OPERATIONS, ...SESSION_OPERATIONS });
