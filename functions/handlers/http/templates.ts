import { httpFunction } from '../../middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { SUPPLIER_OPERATIONS } from '../../services/supplier-service.ts';

export const handler = httpFunction('templates', { ...GENERIC_OPERATIONS, ...SUPPLIER_OPERATIONS });
