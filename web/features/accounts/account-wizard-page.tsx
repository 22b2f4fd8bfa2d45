import { Alert, Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  ACCOUNT_UNITS,
  meterPointKind,
  meterPointNumberError,
} from '../../../shared/schemas/account-rules.ts';
import { UTILITY_TYPES, type UtilityType } from '../../../shared/schemas/common.ts';
import { accountPath, utilityLabel } from '../../components/account-frame.tsx';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { EmptyPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { mayChangeItem } from '../../lib/may-change.ts';
import {
  hasMeterSerial,
  MeterPointField,
  MeterSerialField,
  ParentAccountField,
  parseTags,
  SupplierField,
  UnitFields,
} from './account-fields.tsx';
import { type FormFailure, formFailureOf, useAssetOptions, useCreateAccount } from './api.ts';

/** /new-account: a new utility account (meter) in an asset, checked as it is typed and by the API. */
function AccountWizardContent() {
  const navigate = useNavigate();
  const createAccount = useCreateAccount();
  const [params] = useSearchParams();
  const assets = useAssetOptions();
  const { access } = useSession();
  const [assetId, setAssetId] = useState(params.get('assetId') ?? '');
  const [type, setType] = useState<UtilityType>('electricity');
  const [meterPointNumber, setMeterPointNumber] = useState('');
  const [meterSerialNumber, setMeterSerialNumber] = useState('');
  const [supplierId, setSupplierId] = useState('');
  const [parentAccountId, setParentAccountId] = useState('');
  const [name, setName] = useState('');
  const [unit, setUnit] = useState<string>(ACCOUNT_UNITS.electricity[0] ?? 'kWh');
  const [wasteCategory, setWasteCategory] = useState('');
  const [tags, setTags] = useState('');
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  const clearField = (field: string) =>
    setFailure((f) => ({
      ...f,
      fields: Object.fromEntries(Object.entries(f.fields).filter(([k]) => k !== field)),
    }));

  const changeType = (next: UtilityType) => {
    setType(next);
    setUnit(ACCOUNT_UNITS[next][0] ?? '');
    setParentAccountId('');
    clearField('meterPointNumber');
  };

  const numberRequired = Boolean(meterPointKind(type)) && !parentAccountId;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const local: Record<string, string> = {};
    if (!assetId) local.assetId = 'This field is required';
    const numberError = meterPointNumberError(type, meterPointNumber);
    if (numberError) local.meterPointNumber = numberError;
    else if (numberRequired && !meterPointNumber.trim())
      local.meterPointNumber = 'A meter point number is required for this utility';
    if (Object.keys(local).length > 0) {
      setFailure({ fields: local });
      return;
    }
    setBusy(true);
    try {
      const account = await createAccount({
        assetId,
        type,
        ...(meterPointNumber.trim() ? { meterPointNumber } : {}),
        ...(hasMeterSerial(type) && meterSerialNumber.trim()
          ? { meterSerialNumber: meterSerialNumber.trim() }
          : {}),
        ...(supplierId ? { supplierId } : {}),
        ...(parentAccountId ? { parentAccountId } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
        unit,
        ...(type === 'waste' && wasteCategory ? { wasteCategory } : {}),
        tags: parseTags(tags),
      });
      navigate(accountPath(account));
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(false);
    }
  }

  const f = failure.fields;
  // A meter may be added only to a site the user may change; the API refuses the others.
  const writable = (assets.data?.data ?? []).filter((a) =>
    mayChangeItem(access, { assetId: a._id, entityId: a.entityId }),
  );
  if (assets.data && writable.length === 0)
    return (
      <Stack maw={640}>
        <Title order={2}>New account</Title>
        <EmptyPanel>
          You can read these sites but not change any of them, so adding a meter is not offered.
        </EmptyPanel>
      </Stack>
    );
  return (
    <Stack maw={640}>
      <Title order={2}>New account</Title>
      <Paper withBorder p="md" component="form" onSubmit={submit} noValidate>
        <Stack>
          {failure.message && (
            <Alert color="red" role="alert">
              {failure.message}
            </Alert>
          )}
          <NativeSelect
            label="Site"
            required
            value={assetId}
            error={f.assetId}
            onChange={(e) => {
              setAssetId(e.currentTarget.value);
              setParentAccountId('');
              clearField('assetId');
            }}
            data={[
              { value: '', label: assets.isLoading ? 'Loading sites…' : 'Choose a site' },
              ...writable
                .map((a) => ({ value: a._id, label: a.siteName }))
                .sort((a, b) => a.label.localeCompare(b.label)),
            ]}
          />
          <NativeSelect
            label="Utility"
            required
            value={type}
            error={f.type}
            onChange={(e) => changeType(e.currentTarget.value as UtilityType)}
            data={UTILITY_TYPES.map((t) => ({ value: t, label: utilityLabel(t) }))}
          />
          <ParentAccountField
            assetId={assetId}
            type={type}
            value={parentAccountId}
            onChange={(v) => {
              setParentAccountId(v);
              clearField('parentAccountId');
            }}
            error={f.parentAccountId}
          />
          <MeterPointField
            type={type}
            value={meterPointNumber}
            onChange={(v) => {
              setMeterPointNumber(v);
              clearField('meterPointNumber');
            }}
            serverError={f.meterPointNumber}
            showErrors={submitted}
            required={numberRequired}
          />
          {hasMeterSerial(type) && (
            <MeterSerialField
              value={meterSerialNumber}
              error={f.meterSerialNumber}
              onChange={(v) => {
                setMeterSerialNumber(v);
                clearField('meterSerialNumber');
              }}
            />
          )}
          <SupplierField type={type} value={supplierId} onChange={setSupplierId} error={f.supplierId} />
          <TextInput
            label="Name"
            placeholder="The site name and utility, unless you name it"
            value={name}
            error={f.name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <UnitFields
            type={type}
            unit={unit}
            onUnit={setUnit}
            wasteCategory={wasteCategory}
            onWasteCategory={setWasteCategory}
            errors={f}
          />
          <TextInput
            label="Tags"
            description="Separate tags with commas"
            value={tags}
            error={f.tags}
            onChange={(e) => setTags(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Create account
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

export function AccountWizardPage() {
  return (
    <ChangesOnly>
      <AccountWizardContent />
    </ChangesOnly>
  );
}
