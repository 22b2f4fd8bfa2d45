import { Stack } from '@mantine/core';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { UploadPanel } from './upload-panel.tsx';
import { ValidationNav } from './validation-nav.tsx';

/** /invoices/upload */
export function InvoiceUploadPage() {
  return (
    <ChangesOnly>
      <UploadPanel call="invoices" title="Upload invoices" />
    </ChangesOnly>
  );
}

/** /invoice-validation/upload: documents sent for capture and validation, within Bill Validation. */
export function ValidationUploadPage() {
  return (
    <Stack>
      <ValidationNav tab="upload" />
      <ChangesOnly>
        <UploadPanel call="validation" title="Upload invoices for validation" nested />
      </ChangesOnly>
    </Stack>
  );
}
