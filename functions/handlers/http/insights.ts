import { httpFunction } from '../../middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import '../../../shared/system/resource-schemas/insights.ts';

export const handler = httpFunction('insights', { ...GENERIC_OPERATIONS });
