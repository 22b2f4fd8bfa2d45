import { SUPPLIERS_AREA } from '../../../shared/system/areas/suppliers.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { SUPPLIER_OPERATIONS } from '../../suppliers/supplier-service.ts';
import { TEMPLATE_SAMPLE_OPERATIONS } from '../../suppliers/template-sample-service.ts';
import { TEMPLATE_OPERATIONS } from '../../suppliers/template-service.ts';
import '../../../shared/system/resource-schemas/templates.ts';

export const handler = httpFunction('templates', [SUPPLIERS_AREA], {
  ...GENERIC_OPERATIONS,
  ...SUPPLIER_OPERATIONS,
  ...TEMPLATE_OPERATIONS,
  ...TEMPLATE_SAMPLE_OPERATIONS,
});
