import {
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  ASSET_STATUSES,
  ASSET_TYPES,
  type NormalisedWizardAsset,
} from '../../../shared/schemas/asset-wizard.ts';
import { showToast } from '../../components/toast-store.ts';
import { formatArea } from '../../lib/format.ts';
import {
  addressLine,
  STATUS_LABELS,
  useCheckWizardAsset,
  useEntityOptions,
  useSubmitWizardAsset,
} from './api.ts';
import { FormAlert, useFormFailure } from './ui.tsx';

const EMPTY = {
  siteName: '',
  entityId: '',
  assetType: '',
  status: 'active',
  streetAddress: '',
  locality: '',
  region: '',
  postCode: '',
  floorArea: '',
  floorAreaUnit: 'm2',
};
type Values = typeof EMPTY;

const bodyOf = (v: Values) => ({
  siteName: v.siteName,
  entityId: v.entityId,
  assetType: v.assetType,
  status: v.status,
  address: { streetAddress: v.streetAddress, locality: v.locality, region: v.region, postCode: v.postCode },
  floorArea: v.floorArea,
  floorAreaUnit: v.floorAreaUnit,
});

/** Which field of the form shows a server message: `address.postCode` is the postcode box. */
const FIELD_OF: Record<string, keyof Values> = {
  'address.streetAddress': 'streetAddress',
  'address.locality': 'locality',
  'address.region': 'region',
  'address.postCode': 'postCode',
  address: 'streetAddress',
};

/** /assets/wizard: details are checked by the server first (wizard-check), then the site is created. */
export function AssetWizardPage() {
  const navigate = useNavigate();
  const checkAsset = useCheckWizardAsset();
  const submitAsset = useSubmitWizardAsset();
  const entities = useEntityOptions();
  const [values, setValues] = useState<Values>(EMPTY);
  const [checked, setChecked] = useState<NormalisedWizardAsset | undefined>();
  const form = useFormFailure();
  const errors: Partial<Record<keyof Values, string>> = {};
  for (const [field, message] of Object.entries(form.fields))
    errors[FIELD_OF[field] ?? (field as keyof Values)] = message;

  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // Anything changed must be checked again before the site is created.
    setChecked(undefined);
  };

  async function check(event: FormEvent) {
    event.preventDefault();
    const result = await form.run(() => checkAsset(bodyOf(values)));
    if (result) setChecked(result.values);
  }

  async function submit() {
    const asset = await form.run(() => submitAsset(bodyOf(values)));
    if (!asset) return;
    showToast(`${asset.siteName} was added`, 'success');
    navigate(`/assets/${asset._id}/overview`);
  }

  return (
    <Stack maw={760}>
      <Title order={2}>Add a site</Title>
      <Paper withBorder p="md" component="form" onSubmit={check} noValidate aria-label="Site details">
        <Stack>
          <FormAlert failure={form.failure} />
          <TextInput
            label="Site name"
            required
            value={values.siteName}
            error={errors.siteName}
            onChange={(e) => set('siteName')(e.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect
              label="Entity"
              required
              value={values.entityId}
              error={errors.entityId}
              onChange={(e) => set('entityId')(e.currentTarget.value)}
              data={[
                { value: '', label: entities.isLoading ? 'Loading entities…' : 'Choose an entity' },
                ...(entities.data?.data ?? []).map((e) => ({ value: e._id, label: e.legalName })),
              ]}
            />
            <NativeSelect
              label="Type of site"
              required
              value={values.assetType}
              error={errors.assetType}
              onChange={(e) => set('assetType')(e.currentTarget.value)}
              data={[{ value: '', label: 'Choose a type' }, ...ASSET_TYPES]}
            />
          </SimpleGrid>
          <NativeSelect
            label="Status"
            value={values.status}
            error={errors.status}
            onChange={(e) => set('status')(e.currentTarget.value)}
            data={ASSET_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          />
          <TextInput
            label="Street address"
            required
            value={values.streetAddress}
            error={errors.streetAddress}
            onChange={(e) => set('streetAddress')(e.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="Town or city"
              value={values.locality}
              error={errors.locality}
              onChange={(e) => set('locality')(e.currentTarget.value)}
            />
            <TextInput
              label="Region"
              value={values.region}
              error={errors.region}
              onChange={(e) => set('region')(e.currentTarget.value)}
            />
            <TextInput
              label="Postcode"
              required
              value={values.postCode}
              error={errors.postCode}
              onChange={(e) => set('postCode')(e.currentTarget.value)}
            />
          </SimpleGrid>
          <Group align="end">
            <TextInput
              label="Floor area"
              inputMode="decimal"
              value={values.floorArea}
              error={errors.floorArea}
              onChange={(e) => set('floorArea')(e.currentTarget.value)}
            />
            <NativeSelect
              label="Unit"
              value={values.floorAreaUnit}
              onChange={(e) => set('floorAreaUnit')(e.currentTarget.value)}
              data={[
                { value: 'm2', label: 'm²' },
                { value: 'ft2', label: 'ft²' },
              ]}
            />
          </Group>
          <Group>
            <Button type="submit" variant={checked ? 'default' : 'filled'} loading={form.busy && !checked}>
              Check details
            </Button>
          </Group>
        </Stack>
      </Paper>
      {checked && (
        <Paper withBorder p="md" aria-label="Checked details">
          <Stack>
            <Text fw={600}>These details are ready to be saved:</Text>
            <Table>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th>Site name</Table.Th>
                  <Table.Td>{checked.siteName}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Address</Table.Th>
                  <Table.Td>{addressLine(checked.address)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Floor area</Table.Th>
                  <Table.Td>
                    {formatArea(checked.floorArea, checked.floorAreaUnit === 'ft2' ? 'imperial' : 'metric')}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            <Group>
              <Button onClick={submit} loading={form.busy}>
                Create site
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
