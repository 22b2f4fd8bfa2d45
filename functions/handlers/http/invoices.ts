import { httpFunction } from '../../middleware/http-function.ts';
import { INVOICE_IMPORT_OPERATIONS } from '../../services/invoice-import-service.ts';
import { INVOICE_OPERATIONS } from '../../services/invoice-service.ts';
import { INVOICE_UPLOAD_OPERATIONS } from '../../services/invoice-upload-service.ts';
import { INVOICE_WRITE_OPERATIONS } from '../../services/invoice-write-service.ts';
import { GENERIC_OPERATIONS } from '../../services/resource-service.ts';
import '../../../shared/system/resource-schemas/invoices.ts';

export const handler = httpFunction('invoices', {
  ...GENERIC_OPERATIONS,
  ...INVOICE_UPLOAD_OPERATIONS,
  ...INVOICE_OPERATIONS,
  ...INVOICE_IMPORT_OPERATIONS,
  ...INVOICE_WRITE_OPERATIONS,
});
