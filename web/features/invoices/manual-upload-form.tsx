import { Button, Group, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useId, useState } from 'react';
import { FormPanel } from '../../components/form-panel.tsx';
import { UploadField } from '../../components/form-parts.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useManualUpload } from './api.ts';
import type { Drafts } from './invoice-values.ts';
import {
  MANUAL_FIELDS,
  type ManualErrors,
  type ManualUploadBody,
  manualUploadErrors,
  manualUploadRequest,
} from './manual-upload.ts';
import { ACCEPT } from './upload-state.ts';

const NONE: ManualErrors = { fields: {} };

/**
 * Adds a bill to the account by hand: its document and the values a person reads off it. The document
 * goes straight to storage; the invoice is filed (status manual) and validated once it has arrived.
 */
export function ManualUploadForm({ accountId, onDone }: { accountId: string; onDone: () => void }) {
  const manualUpload = useManualUpload();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [errors, setErrors] = useState<ManualErrors>(NONE);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const request = manualUploadRequest(file ?? undefined, drafts, accountId);
    if (!request.ok || !file) {
      setErrors(request.ok ? NONE : request.errors);
      return;
    }
    setBusy(true);
    setErrors(NONE);
    try {
      const body: ManualUploadBody = request.body;
      await manualUpload(body, file, setProgress);
      showToast('Invoice uploaded and sent for validation', 'success');
      onDone();
    } catch (error) {
      setProgress(null);
      setErrors(manualUploadErrors(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormPanel
      title="Upload an invoice by hand"
      label="Manual invoice upload"
      failure={errors}
      onSubmit={submit}
    >
      <Text size="sm" c="dimmed">
        The document is kept as it is; the values you type are the invoice's values, checked like any other.
      </Text>
      <UploadField
        id={fileId}
        label="Invoice document"
        accept={ACCEPT}
        invalid={errors.fields.file !== undefined}
        progress={progress}
        error={errors.fields.file}
        onChange={(picked) => {
          setFile(picked);
          setProgress(null);
          setErrors(({ fields: { file: _gone, ...fields }, message }) => ({ fields, message }));
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {MANUAL_FIELDS.map((field) => (
          <TextInput
            key={field.key}
            label={field.label}
            type={field.type === 'date' ? 'date' : 'text'}
            inputMode={field.type === 'text' || field.type === 'date' ? undefined : 'decimal'}
            value={drafts[field.key] ?? ''}
            error={errors.fields[field.key]}
            onChange={(e) => {
              const text = e.currentTarget.value;
              setDrafts((d) => ({ ...d, [field.key]: text }));
            }}
          />
        ))}
      </SimpleGrid>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          Upload invoice
        </Button>
      </Group>
    </FormPanel>
  );
}
