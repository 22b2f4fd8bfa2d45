export { readableCaptureIds } from './capture-access.ts';
export { captureKey } from './invoice-records.ts';
export type { StoredInvoice } from './invoice-repository.ts';
export {
  allInvoices,
  fileDigestHolder,
  getCapture,
  getValidation,
  invoicesRef,
  invoicesWithNumber,
  queryIndexed,
} from './invoice-repository.ts';
export type { UploadRegistration } from './upload-registration.ts';
export { registerUpload } from './upload-registration.ts';
