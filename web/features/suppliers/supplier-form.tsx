import { Alert, Button, Checkbox, Group, NativeSelect, Paper, Stack, Switch, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { UTILITY_TYPE_OPTIONS } from '../../../shared/data/utility-types.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import { showToast } from '../../components/toast-store.ts';
import { type FormFailure, formFailureOf, NO_FAILURE, requiredFields } from '../../lib/form-errors.ts';
import { SUPPLIER_TYPE_LABELS, type Supplier, type SupplierType } from './api.ts';

export interface SupplierDraft {
  name: string;
  type: SupplierType;
  utilityTypes: UtilityType[];
  portal: string;
  vatNumber: string;
  website: string;
  scraperEnabled: boolean;
}

export const draftOf = (s?: Supplier): SupplierDraft => ({
  name: s?.name ?? '',
  type: s?.type ?? 'supplier',
  utilityTypes: s?.utilityTypes ?? [],
  portal: s?.portal ?? '',
  vatNumber: s?.vatNumber ?? '',
  website: s?.website ?? '',
  scraperEnabled: s?.scraperEnabled ?? false,
});

/** The supplier's details, shared by the create and edit pages; saving opens the supplier's overview. */
export function SupplierForm({
  initial,
  submitLabel,
  send,
}: {
  initial: SupplierDraft;
  submitLabel: string;
  send: (body: Record<string, unknown>) => Promise<Supplier>;
}) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState(initial);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const f = failure.fields;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = requiredFields({ name: draft.name });
    if (Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    setBusy(true);
    try {
      const supplier = await send({
        name: draft.name.trim(),
        type: draft.type,
        utilityTypes: draft.utilityTypes,
        portal: draft.portal.trim(),
        vatNumber: draft.vatNumber.trim(),
        website: draft.website.trim(),
        scraperEnabled: draft.scraperEnabled,
      });
      showToast(`${supplier.name} was saved`, 'success');
      navigate(`/suppliers/${supplier._id}/overview`);
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate maw={640} aria-label="Supplier">
      <Stack>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          value={draft.name}
          error={f.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
        />
        <NativeSelect
          label="Kind"
          value={draft.type}
          error={f.type}
          onChange={(e) => setDraft({ ...draft, type: e.currentTarget.value as SupplierType })}
          data={Object.entries(SUPPLIER_TYPE_LABELS).map(([value, label]) => ({ value, label }))}
        />
        <Checkbox.Group
          label="Utilities"
          value={draft.utilityTypes}
          error={f.utilityTypes ?? Object.entries(f).find(([k]) => k.startsWith('utilityTypes.'))?.[1]}
          onChange={(v) => setDraft({ ...draft, utilityTypes: v as UtilityType[] })}
        >
          <Group mt={6}>
            {UTILITY_TYPE_OPTIONS.data.map((u) => (
              <Checkbox key={u.value} value={u.value} label={u.name} />
            ))}
          </Group>
        </Checkbox.Group>
        <TextInput
          label="VAT number"
          description="Bills printing this VAT number are matched to this supplier"
          placeholder="GB123456789"
          value={draft.vatNumber}
          error={f.vatNumber}
          onChange={(e) => setDraft({ ...draft, vatNumber: e.currentTarget.value })}
        />
        <TextInput
          label="Website"
          description="Bills printing a web or e-mail address on this domain are matched to this supplier"
          placeholder="www.example.co.uk"
          value={draft.website}
          error={f.website}
          onChange={(e) => setDraft({ ...draft, website: e.currentTarget.value })}
        />
        <TextInput
          label="Customer portal"
          placeholder="https://"
          value={draft.portal}
          error={f.portal}
          onChange={(e) => setDraft({ ...draft, portal: e.currentTarget.value })}
        />
        <Switch
          label="Collect invoices from the portal"
          checked={draft.scraperEnabled}
          onChange={(e) => setDraft({ ...draft, scraperEnabled: e.currentTarget.checked })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
