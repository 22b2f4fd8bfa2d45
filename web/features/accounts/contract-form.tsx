import { Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { CONTRACT_MESSAGES, type ContractView } from '../../../shared/schemas/account-contracts.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { useApi } from '../../lib/app-context.tsx';
import { putWithProgress } from '../../lib/upload.ts';
import { SupplierField } from './account-fields.tsx';
import { type FormFailure, formFailureOf } from './api.ts';
import type { PresignedUpload } from './upload.ts';

/**
 * Adds a contract, or changes one, with an optional PDF: the PDF goes to storage by a presigned PUT
 * (with progress), then the contract call attaches it and the API checks its bytes.
 */
export function ContractForm({
  account,
  contract,
  onDone,
  onCancel,
}: {
  account: AccountView;
  contract?: ContractView;
  onDone: () => void;
  onCancel: () => void;
}) {
  const api = useApi();
  const [name, setName] = useState(contract?.name ?? '');
  const [reference, setReference] = useState(contract?.reference ?? '');
  const [supplierId, setSupplierId] = useState(contract?.supplierId ?? account.supplierId ?? '');
  const [startDate, setStartDate] = useState(contract?.startDate ?? '');
  const [endDate, setEndDate] = useState(contract?.endDate ?? '');
  const [isRenewable, setRenewable] = useState(contract?.isRenewable ?? false);
  const [notes, setNotes] = useState(contract?.notes ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure({ fields: {} });
    try {
      let fileRef: { key: string; name: string } | undefined;
      if (file) {
        const upload = await api.post<PresignedUpload>(`/accounts/${account._id}/contracts/upload`, {
          fileName: file.name,
        });
        setProgress(0);
        await putWithProgress(upload, file, setProgress);
        fileRef = { key: upload.key, name: file.name };
      }
      const body = {
        name,
        startDate,
        endDate,
        isRenewable,
        ...(reference.trim() ? { reference: reference.trim() } : {}),
        ...(notes.trim() ? { notes: notes.trim() } : {}),
        ...(fileRef ? { file: fileRef } : {}),
      };
      if (contract) {
        await api.patch(`/accounts/${account._id}/contracts/${contract._id}`, {
          ...body,
          supplierId: supplierId || null,
        });
      } else {
        await api.post(`/accounts/${account._id}/contracts`, {
          ...body,
          ...(supplierId ? { supplierId } : {}),
        });
      }
      onDone();
    } catch (error) {
      setFailure(formFailureOf(error, CONTRACT_MESSAGES.submitProblem));
      setProgress(null);
    } finally {
      setBusy(false);
    }
  }

  const f = failure.fields;
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label="Contract">
      <Stack gap="sm">
        <Title order={4}>{contract ? 'Edit contract' : 'Add contract'}</Title>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <Group grow align="flex-start">
          <TextInput
            label="Contract name"
            required
            value={name}
            error={f.name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            label="Reference"
            value={reference}
            error={f.reference}
            onChange={(e) => setReference(e.currentTarget.value)}
          />
        </Group>
        <SupplierField type={account.type} value={supplierId} onChange={setSupplierId} error={f.supplierId} />
        <Group grow align="flex-start">
          <TextInput
            label="Start date"
            type="date"
            required
            value={startDate}
            error={f.startDate}
            onChange={(e) => setStartDate(e.currentTarget.value)}
          />
          <TextInput
            label="End date"
            type="date"
            required
            value={endDate}
            error={f.endDate}
            onChange={(e) => setEndDate(e.currentTarget.value)}
          />
        </Group>
        <label style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 14 }}>
          <input
            type="checkbox"
            checked={isRenewable}
            onChange={(e) => setRenewable(e.currentTarget.checked)}
          />
          Renewable supply
        </label>
        <Textarea
          label="Notes"
          value={notes}
          error={f.notes}
          onChange={(e) => setNotes(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        <Stack gap={4}>
          <Text component="label" htmlFor="contract-file" size="sm" fw={500}>
            Contract PDF {contract?.file ? `(replaces ${contract.file.name})` : ''}
          </Text>
          <input
            id="contract-file"
            type="file"
            accept="application/pdf,.pdf"
            aria-invalid={f.file ? true : undefined}
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
          {progress !== null && (
            <Group gap="xs">
              <progress value={progress} max={100} aria-label="Upload progress" style={{ flex: 1 }} />
              <Text size="xs">{progress === 100 ? 'Uploaded' : `Uploading ${progress}%`}</Text>
            </Group>
          )}
          {f.file && (
            <Text c="red" size="sm" role="alert">
              {f.file}
            </Text>
          )}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {contract ? 'Save contract' : 'Add contract'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
