import { httpFunction } from '../../middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import { SUPPLIER_OPERATIONS } from '../../services/supplier-service.ts';
import { TEMPLATE_SAMPLE_OPERATIONS } from '../../services/template-sample-service.ts';
import { TEMPLATE_OPERATIONS } from '../../services/template-service.ts';
import '../../../shared/system/resource-schemas/templates.ts';

export const handler = httpFunction('templates', {
  ...GENERIC_OPERATIONS,
  ...SUPPLIER_OPERATIONS,
  ...TEMPLATE_OPERATIONS,
  ...TEMPLATE_SAMPLE_OPERATIONS,
});
