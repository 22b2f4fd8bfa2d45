import { Group, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { CONTRACT_MESSAGES, type ContractView } from '../../../shared/schemas/account-contracts.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { FormPanel } from '../../components/form-panel.tsx';
import { CheckboxLine, FormButtons, UploadField, useFormSubmit } from '../../components/form-parts.tsx';
import { clearedFields } from '../../lib/cleared-fields.ts';
import { putWithProgress } from '../../lib/upload.ts';
import { useFormValues } from '../../lib/use-form-values.ts';
import { SupplierField } from './account-fields.tsx';
import { useAddContract, useContractUpload, useUpdateContract } from './api.ts';

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
  const uploadTarget = useContractUpload(account._id);
  const addContract = useAddContract(account._id);
  const updateContract = useUpdateContract(account._id);
  const form = useFormSubmit(CONTRACT_MESSAGES.submitProblem);
  const { values, set, field } = useFormValues(
    {
      name: contract?.name ?? '',
      reference: contract?.reference ?? '',
      supplierId: contract?.supplierId ?? account.supplierId ?? '',
      startDate: contract?.startDate ?? '',
      endDate: contract?.endDate ?? '',
      notes: contract?.notes ?? '',
    },
    form.fields,
  );
  const [isRenewable, setRenewable] = useState(contract?.isRenewable ?? false);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  const save = () =>
    form.submit(
      async () => {
        let fileRef: { key: string; name: string } | undefined;
        if (file) {
          const upload = await uploadTarget(file.name, file.size);
          setProgress(0);
          await putWithProgress(upload, file, setProgress);
          fileRef = { key: upload.key, name: file.name };
        }
        const { name, reference, supplierId, startDate, endDate, notes } = values;
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
          await updateContract(contract._id, {
            ...clearedFields({ reference, notes }, contract),
            ...body,
            supplierId: supplierId || null,
          });
        } else {
          await addContract({
            ...body,
            ...(supplierId ? { supplierId } : {}),
          });
        }
        onDone();
      },
      () => setProgress(null),
    );

  const f = form.fields;
  return (
    <FormPanel
      title={contract ? 'Edit contract' : 'Add contract'}
      label="Contract"
      gap="sm"
      failure={form.failure}
      onSubmit={save}
    >
      <Group grow align="flex-start">
        <TextInput label="Contract name" required {...field('name')} />
        <TextInput label="Reference" {...field('reference')} />
      </Group>
      <SupplierField
        type={account.type}
        value={values.supplierId}
        onChange={set('supplierId')}
        error={f.supplierId}
      />
      <Group grow align="flex-start">
        <TextInput label="Start date" type="date" required {...field('startDate')} />
        <TextInput label="End date" type="date" required {...field('endDate')} />
      </Group>
      <CheckboxLine checked={isRenewable} onChange={setRenewable}>
        Renewable supply
      </CheckboxLine>
      <Textarea label="Notes" {...field('notes')} autosize minRows={2} />
      <UploadField
        id="contract-file"
        label={<>Contract PDF {contract?.file ? `(replaces ${contract.file.name})` : ''}</>}
        accept="application/pdf,.pdf"
        invalid={Boolean(f.file)}
        progress={progress}
        error={f.file}
        onChange={setFile}
      />
      <FormButtons busy={form.busy} onCancel={onCancel}>
        {contract ? 'Save contract' : 'Add contract'}
      </FormButtons>
    </FormPanel>
  );
}
