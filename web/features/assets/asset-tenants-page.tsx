import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import useSWR from 'swr';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useApi } from '../../lib/app-context.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import type { AssetView, ListPage } from './api.ts';
import { AssetFrame } from './asset-frame.tsx';
import { FormAlert, useFormFailure } from './ui.tsx';

interface Tenant {
  _id: string;
  name: string;
  unit?: string;
  leaseStart?: string;
  leaseEnd?: string;
  floorArea?: number;
  contactEmail?: string;
}

const EMPTY = { name: '', unit: '', leaseStart: '', leaseEnd: '', floorArea: '', contactEmail: '' };
const DAY = 86_400_000;

/** Leases that end within six months are flagged, so renewals are not missed. */
function LeaseBadge({ leaseEnd }: { leaseEnd?: string }) {
  if (!leaseEnd) return null;
  const left = (Date.parse(leaseEnd) - Date.now()) / DAY;
  if (left < 0) return <Badge color="gray">Ended</Badge>;
  if (left < 183) return <Badge color="orange">Ends soon</Badge>;
  return null;
}

function Tenants({ asset }: { asset: AssetView }) {
  const api = useApi();
  const path = `/assets/${asset._id}/tenants`;
  const { data, error, isLoading, mutate } = useSWR<ListPage<Tenant>>(path);
  const [v, setV] = useState(EMPTY);
  const form = useFormFailure();
  const set = (k: keyof typeof EMPTY) => (value: string) => setV((x) => ({ ...x, [k]: value }));

  async function add(event: FormEvent) {
    event.preventDefault();
    const body = Object.fromEntries(
      Object.entries(v)
        .filter(([, value]) => value.trim() !== '')
        .map(([k, value]) => [k, k === 'floorArea' ? Number(value) : value]),
    );
    if (await form.run(() => api.post(path, body))) {
      setV(EMPTY);
      await mutate();
    }
  }
  async function remove(tenant: Tenant) {
    if (!window.confirm(`Remove ${tenant.name}?`)) return;
    if (await form.run(() => api.del(`${path}/${tenant._id}`))) await mutate();
  }

  const f = form.fields;
  return (
    <Stack>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && data.total === 0 && <EmptyPanel>No tenants recorded.</EmptyPanel>}
      {data && data.total > 0 && (
        <Paper withBorder>
          <Table aria-label="Tenants">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Unit</Table.Th>
                <Table.Th>Lease</Table.Th>
                <Table.Th ta="right">Floor area</Table.Th>
                <Table.Th>Contact</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((t) => (
                <Table.Tr key={t._id}>
                  <Table.Td>{t.name}</Table.Td>
                  <Table.Td>{t.unit}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {[formatDate(t.leaseStart), formatDate(t.leaseEnd)].filter(Boolean).join(' to ')}
                      <LeaseBadge leaseEnd={t.leaseEnd} />
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{t.floorArea ? `${formatNumber(t.floorArea)} m²` : ''}</Table.Td>
                  <Table.Td>{t.contactEmail}</Table.Td>
                  <Table.Td>
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => remove(t)}>
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <Paper withBorder p="md" component="form" onSubmit={add} noValidate aria-label="Add a tenant">
        <Stack>
          <Title order={4}>Add a tenant</Title>
          <FormAlert failure={form.failure} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="Name"
              required
              value={v.name}
              error={f.name}
              onChange={(e) => set('name')(e.currentTarget.value)}
            />
            <TextInput
              label="Unit"
              value={v.unit}
              error={f.unit}
              onChange={(e) => set('unit')(e.currentTarget.value)}
            />
            <TextInput
              label="Contact e-mail"
              value={v.contactEmail}
              error={f.contactEmail}
              onChange={(e) => set('contactEmail')(e.currentTarget.value)}
            />
            <TextInput
              label="Lease start"
              type="date"
              value={v.leaseStart}
              error={f.leaseStart}
              onChange={(e) => set('leaseStart')(e.currentTarget.value)}
            />
            <TextInput
              label="Lease end"
              type="date"
              value={v.leaseEnd}
              error={f.leaseEnd}
              onChange={(e) => set('leaseEnd')(e.currentTarget.value)}
            />
            <TextInput
              label="Floor area (m²)"
              inputMode="decimal"
              value={v.floorArea}
              error={f.floorArea}
              onChange={(e) => set('floorArea')(e.currentTarget.value)}
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={form.busy}>
              Add tenant
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** /assets/{id}/tenants: who occupies the site, and when their leases end. */
export function AssetTenantsPage() {
  return <AssetFrame tab="tenants">{(asset) => <Tenants asset={asset} />}</AssetFrame>;
}
