import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { IMPERIAL_AREA_FACTOR } from '../../../shared/constants.ts';
import { ASSET_TYPES } from '../../../shared/schemas/asset-wizard.ts';
import { EmptyPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { type AssetView, useDeleteAsset, useUpdateAsset, useUpdateAssetAddress } from './api.ts';
import { AssetFrame, READ_ONLY_SITE, useMayChangeSite } from './asset-frame.tsx';
import { StatusHistory, Timeline } from './asset-history.tsx';
import { FloorAreaHistory } from './floor-area-history.tsx';
import { FormAlert, useFormFailure } from './ui.tsx';

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Name, type and floor area; the area is entered in the site's unit and the server stores it in m². It is
 * sent only when it or its unit changed, so saving the name does not round the stored area through ft².
 */
function DetailsForm({ asset }: { asset: AssetView }) {
  const updateAsset = useUpdateAsset();
  const unit = asset.floorAreaUnit ?? 'm2';
  const shown =
    asset.floorArea === undefined
      ? ''
      : String(round(unit === 'ft2' ? asset.floorArea / IMPERIAL_AREA_FACTOR : asset.floorArea));
  const [v, setV] = useState({
    siteName: asset.siteName,
    assetType: asset.assetType ?? '',
    floorArea: shown,
    floorAreaUnit: unit,
  });
  const form = useFormFailure();
  const set = (k: keyof typeof v) => (value: string) => setV((x) => ({ ...x, [k]: value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    const entered = v.floorArea.trim() ? Number(v.floorArea.replace(/,/g, '')) : undefined;
    const changed = v.floorArea !== shown || v.floorAreaUnit !== unit;
    const floorArea = changed ? entered : undefined;
    const body = {
      siteName: v.siteName,
      floorAreaUnit: v.floorAreaUnit,
      ...(v.assetType ? { assetType: v.assetType } : {}),
      ...(floorArea === undefined ? {} : { floorArea }),
    };
    if (await form.run(() => updateAsset(asset._id, body))) {
      showToast('Details updated successfully!', 'success');
    }
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={save} noValidate aria-label="Site details">
      <Stack>
        <Title order={4}>Details</Title>
        <FormAlert failure={form.failure} />
        <TextInput
          label="Site name"
          required
          value={v.siteName}
          error={form.fields.siteName}
          onChange={(e) => set('siteName')(e.currentTarget.value)}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NativeSelect
            label="Type of site"
            value={v.assetType}
            error={form.fields.assetType}
            onChange={(e) => set('assetType')(e.currentTarget.value)}
            data={[{ value: '', label: 'Not set' }, ...ASSET_TYPES]}
          />
          <TextInput
            label="Floor area"
            inputMode="decimal"
            value={v.floorArea}
            error={form.fields.floorArea}
            onChange={(e) => set('floorArea')(e.currentTarget.value)}
          />
          <NativeSelect
            label="Unit"
            value={v.floorAreaUnit}
            onChange={(e) => set('floorAreaUnit')(e.currentTarget.value)}
            data={[
              { value: 'm2', label: 'm²' },
              { value: 'ft2', label: 'ft²' },
            ]}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={form.busy}>
            Save details
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function AddressForm({ asset }: { asset: AssetView }) {
  const updateAddress = useUpdateAssetAddress();
  const a = asset.address ?? {};
  const [v, setV] = useState({
    streetAddress: a.streetAddress ?? '',
    locality: a.locality ?? '',
    region: a.region ?? '',
    postCode: a.postCode ?? '',
    country: a.country ?? '',
  });
  const form = useFormFailure();
  const set = (k: keyof typeof v) => (value: string) => setV((x) => ({ ...x, [k]: value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (await form.run(() => updateAddress(asset._id, v))) {
      showToast('Address updated', 'success');
    }
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={save} noValidate aria-label="Address">
      <Stack>
        <Title order={4}>Address</Title>
        <FormAlert failure={form.failure} />
        <TextInput
          label="Street address"
          required
          value={v.streetAddress}
          error={form.fields.streetAddress}
          onChange={(e) => set('streetAddress')(e.currentTarget.value)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Town or city"
            value={v.locality}
            error={form.fields.locality}
            onChange={(e) => set('locality')(e.currentTarget.value)}
          />
          <TextInput
            label="Region"
            value={v.region}
            error={form.fields.region}
            onChange={(e) => set('region')(e.currentTarget.value)}
          />
          <TextInput
            label="Postcode"
            required
            value={v.postCode}
            error={form.fields.postCode}
            onChange={(e) => set('postCode')(e.currentTarget.value)}
          />
          <TextInput
            label="Country"
            value={v.country}
            error={form.fields.country}
            onChange={(e) => set('country')(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={form.busy}>
            Save address
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function DeleteSite({ asset }: { asset: AssetView }) {
  const navigate = useNavigate();
  const deleteAsset = useDeleteAsset();
  const form = useFormFailure();
  async function remove() {
    if (!window.confirm(`Delete ${asset.siteName}? It can be restored from the deleted-items log.`)) return;
    if (await form.run(() => deleteAsset(asset._id))) {
      navigate('/assets');
    }
  }
  return (
    <Group>
      <FormAlert failure={form.failure} />
      <Button color="red" variant="subtle" onClick={remove} loading={form.busy}>
        Delete site
      </Button>
    </Group>
  );
}

/** /assets/{id}/manage: edit the site, its address, status history and timeline. */
export function AssetManagePage() {
  return <AssetFrame tab="manage">{(asset) => <Manage asset={asset} />}</AssetFrame>;
}

/** Reached by its address only by those who may not change the site: they are told so, not shown forms. */
function Manage({ asset }: { asset: AssetView }) {
  if (!useMayChangeSite(asset)) return <EmptyPanel>{READ_ONLY_SITE}</EmptyPanel>;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <DetailsForm key={`d-${asset._id}`} asset={asset} />
        <AddressForm key={`a-${asset._id}`} asset={asset} />
      </SimpleGrid>
      <FloorAreaHistory key={`f-${asset._id}`} asset={asset} />
      <StatusHistory asset={asset} />
      <Timeline asset={asset} />
      <DeleteSite asset={asset} />
    </Stack>
  );
}
