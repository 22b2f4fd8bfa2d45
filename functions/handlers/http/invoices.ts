import { INVOICES_AREA } from '../../../shared/system/areas/invoices.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { INVOICE_IMPORT_OPERATIONS } from '../../invoices/invoice-import-service.ts';
import { INVOICE_OPERATIONS } from '../../invoices/invoice-service.ts';
import { INVOICE_UPLOAD_OPERATIONS } from '../../invoices/invoice-upload-service.ts';
import { INVOICE_WRITE_OPERATIONS } from '../../invoices/invoice-write-service.ts';

/** The invoices function's resource schemas are built on the first call that needs them, not at start. */
registerResourceSchemasLater('invoices', () => import('../../../shared/system/resource-schemas/invoices.ts'));

export const handler = httpFunction('invoices', [INVOICES_AREA], {
  ...GENERIC_OPERATIONS,
  ...INVOICE_UPLOAD_OPERATIONS,
  ...INVOICE_OPERATIONS,
  ...INVOICE_IMPORT_OPERATIONS,
  ...INVOICE_WRITE_OPERATIONS,
});
