import { Alert, Button, Group, Paper, Stack, TagsInput, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ACCOUNT_UNITS, meterPointNumberError } from '../../../shared/schemas/account-rules.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import {
  AccountLayout,
  accountPath,
  READ_ONLY_METER,
  useMayChangeAccount,
} from '../../components/account-frame.tsx';
import { EmptyPanel } from '../../components/page-state.tsx';
import {
  hasMeterSerial,
  MeterPointField,
  MeterSerialField,
  MeterUserFields,
  ParentAccountField,
  parseTags,
  SupplierField,
  UnitFields,
} from './account-fields.tsx';
import { type FormFailure, formFailureOf, useAccountTags, useUpdateAccount } from './api.ts';

function EditForm({ account }: { account: AccountView }) {
  const hasSerial = hasMeterSerial(account.type);
  const navigate = useNavigate();
  const updateAccount = useUpdateAccount();
  const knownTags = useAccountTags();
  const [name, setName] = useState(account.name ?? '');
  const [meterPointNumber, setMeterPointNumber] = useState(account.meterPointNumber ?? '');
  const [meterSerialNumber, setMeterSerialNumber] = useState(account.meterSerialNumber ?? '');
  const [supplierId, setSupplierId] = useState(account.supplierId ?? '');
  const [parentAccountId, setParentAccountId] = useState(account.parentAccountId ?? '');
  const [unit, setUnit] = useState(account.unit ?? ACCOUNT_UNITS[account.type][0] ?? '');
  const [wasteCategory, setWasteCategory] = useState(account.wasteCategory ?? '');
  const [tags, setTags] = useState<string[]>(account.tags);
  const [meterUser, setMeterUser] = useState<string>(account.meterUser ?? '');
  const [meterUserTenantId, setMeterUserTenantId] = useState(account.meterUserTenantId ?? '');
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const numberError = meterPointNumberError(account.type, meterPointNumber);
    if (numberError) {
      setFailure({ fields: { meterPointNumber: numberError } });
      return;
    }
    const userChanged =
      meterUser !== (account.meterUser ?? '') || meterUserTenantId !== (account.meterUserTenantId ?? '');
    setBusy(true);
    try {
      await updateAccount(account._id, {
        name: name.trim(),
        ...(meterPointNumber.trim() ? { meterPointNumber: meterPointNumber.replace(/\s+/g, '') } : {}),
        ...(hasSerial && meterSerialNumber.trim() ? { meterSerialNumber: meterSerialNumber.trim() } : {}),
        ...(supplierId ? { supplierId } : {}),
        parentAccountId: parentAccountId || null,
        unit,
        ...(account.type === 'waste' && wasteCategory ? { wasteCategory } : {}),
        tags: parseTags(tags.join(',')),
        // Sent only when changed: a change of user moves the meter's figures in the site's roll-ups.
        ...(userChanged
          ? {
              meterUser: meterUser || null,
              meterUserTenantId: (meterUser === 'tenant' && meterUserTenantId) || null,
            }
          : {}),
      });
      navigate(accountPath(account));
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(false);
    }
  }

  const f = failure.fields;
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={submit}
      noValidate
      maw={640}
      aria-label="Edit account"
    >
      <Stack>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <TextInput
          label="Name"
          value={name}
          error={f.name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <MeterPointField
          type={account.type}
          value={meterPointNumber}
          onChange={setMeterPointNumber}
          serverError={f.meterPointNumber}
          showErrors={submitted}
          required={false}
        />
        {hasSerial && (
          <MeterSerialField
            value={meterSerialNumber}
            error={f.meterSerialNumber}
            onChange={setMeterSerialNumber}
          />
        )}
        <SupplierField type={account.type} value={supplierId} onChange={setSupplierId} error={f.supplierId} />
        <ParentAccountField
          assetId={account.assetId}
          type={account.type}
          selfId={account._id}
          value={parentAccountId}
          onChange={setParentAccountId}
          error={f.parentAccountId}
        />
        <UnitFields
          type={account.type}
          unit={unit}
          onUnit={setUnit}
          wasteCategory={wasteCategory}
          onWasteCategory={setWasteCategory}
          errors={f}
        />
        <MeterUserFields
          assetId={account.assetId}
          user={meterUser}
          onUser={setMeterUser}
          tenantId={meterUserTenantId}
          onTenant={setMeterUserTenantId}
          errors={f}
        />
        <TagsInput
          label="Tags"
          description="Press Enter or type a comma after each tag; tags already used on the company's meters are suggested"
          value={tags}
          data={knownTags.data?.data ?? []}
          splitChars={[',']}
          clearable
          error={f.tags ?? Object.entries(f).find(([k]) => k.startsWith('tags.'))?.[1]}
          onChange={setTags}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(accountPath(account))} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /assets/{id}/accounts/{accountId}/edit */
export function AccountEditPage() {
  return <AccountLayout tab="edit">{(account) => <EditOrNotice account={account} />}</AccountLayout>;
}

/** Reached by its address only by those who may not change the meter: they are told so, not shown a form. */
function EditOrNotice({ account }: { account: AccountView }) {
  if (!useMayChangeAccount(account)) return <EmptyPanel>{READ_ONLY_METER}</EmptyPanel>;
  return <EditForm account={account} />;
}
