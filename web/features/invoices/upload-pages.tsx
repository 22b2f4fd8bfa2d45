import { Stack } from '@mantine/core';
import { UploadPanel } from './upload-panel.tsx';
import { ValidationNav } from './validation-nav.tsx';

/** /invoices/upload */
export function InvoiceUploadPage() {
  return <UploadPanel call="invoices" title="Upload invoices" />;
}

/** /invoice-validation/upload: documents sent for capture and validation, within Bill Validation. */
export function ValidationUploadPage() {
  return (
    <Stack>
      <ValidationNav tab="upload" />
      <UploadPanel call="validation" title="Upload invoices for validation" nested />
    </Stack>
  );
}
