import { Badge, Button, Group, SimpleGrid, Stack, Table, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormPanel } from '../../components/form-panel.tsx';
import { ListPanel } from '../../components/list-panel.tsx';
import { clearedFields } from '../../lib/cleared-fields.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useFormValues } from '../../lib/use-form-values.ts';
import {
  type AssetView,
  type Tenant,
  useAddTenant,
  useDeleteTenant,
  useTenants,
  useUpdateTenant,
} from './api.ts';
import { AssetFrame, useMayChangeSite } from './asset-frame.tsx';
import { useFormFailure } from './ui.tsx';

const EMPTY = {
  name: '',
  unit: '',
  leaseStart: '',
  leaseEnd: '',
  leaseBreak: '',
  floorArea: '',
  contactEmail: '',
};
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
  const list = useTenants(asset._id);
  const addTenant = useAddTenant(asset._id);
  const updateTenant = useUpdateTenant(asset._id);
  const deleteTenant = useDeleteTenant(asset._id);
  const form = useFormFailure();
  const { values, set, field, reset } = useFormValues(EMPTY, form.fields);
  const [editing, setEditing] = useState<Tenant | null>(null);
  const mayChange = useMayChangeSite(asset);

  function startEdit(tenant: Tenant) {
    setEditing(tenant);
    form.setFailure({ fields: {} });
    for (const k of Object.keys(EMPTY) as (keyof typeof EMPTY)[]) {
      const value = tenant[k];
      set(k)(value === undefined ? '' : String(value));
    }
  }

  function stopEdit() {
    setEditing(null);
    form.setFailure({ fields: {} });
    reset();
  }

  async function save() {
    const filled = Object.fromEntries(
      Object.entries(values)
        .filter(([, value]) => value.trim() !== '')
        .map(([k, value]) => [k, k === 'floorArea' ? Number(value) : value]),
    );
    const body = editing ? { ...clearedFields(values, editing), ...filled } : filled;
    const send = () => (editing ? updateTenant(editing._id, body) : addTenant(body));
    if (await form.run(send)) {
      setEditing(null);
      reset();
    }
  }
  async function remove(tenant: Tenant) {
    if (!window.confirm(`Remove ${tenant.name}?`)) return;
    await form.run(() => deleteTenant(tenant._id));
  }

  return (
    <Stack>
      <ListPanel
        list={list}
        label="Tenants"
        empty="No tenants recorded."
        head={
          <>
            <Table.Th>Tenant</Table.Th>
            <Table.Th>Unit</Table.Th>
            <Table.Th>Lease</Table.Th>
            <Table.Th ta="right">Floor area</Table.Th>
            <Table.Th>Contact</Table.Th>
            <Table.Th aria-label="Actions" />
          </>
        }
        row={(t) => (
          <Table.Tr key={t._id}>
            <Table.Td>{t.name}</Table.Td>
            <Table.Td>{t.unit}</Table.Td>
            <Table.Td>
              <Group gap={4}>
                {[formatDate(t.leaseStart), formatDate(t.leaseEnd)].filter(Boolean).join(' to ')}
                {t.leaseBreak ? ` (break ${formatDate(t.leaseBreak)})` : ''}
                <LeaseBadge leaseEnd={t.leaseEnd} />
              </Group>
            </Table.Td>
            <Table.Td ta="right">{t.floorArea ? `${formatNumber(t.floorArea)} m²` : ''}</Table.Td>
            <Table.Td>{t.contactEmail}</Table.Td>
            <Table.Td>
              {mayChange && (
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    onClick={() => startEdit(t)}
                    aria-label={`Edit ${t.name}`}
                  >
                    Edit
                  </Button>
                  <Button size="compact-xs" variant="subtle" color="red" onClick={() => remove(t)}>
                    Remove
                  </Button>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {mayChange && (
        <FormPanel
          title={editing ? `Edit ${editing.name}` : 'Add a tenant'}
          label={editing ? 'Edit tenant' : 'Add a tenant'}
          failure={form.failure}
          onSubmit={save}
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label="Name" required {...field('name')} />
            <TextInput label="Unit" {...field('unit')} />
            <TextInput label="Contact e-mail" {...field('contactEmail')} />
            <TextInput label="Lease start" type="date" {...field('leaseStart')} />
            <TextInput label="Lease end" type="date" {...field('leaseEnd')} />
            <TextInput label="Break option" type="date" {...field('leaseBreak')} />
            <TextInput label="Floor area (m²)" inputMode="decimal" {...field('floorArea')} />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={form.busy}>
              {editing ? 'Save tenant' : 'Add tenant'}
            </Button>
            {editing && (
              <Button variant="subtle" onClick={stopEdit}>
                Cancel
              </Button>
            )}
          </Group>
        </FormPanel>
      )}
    </Stack>
  );
}

/** /assets/{id}/tenants: who occupies the site, and when their leases end. */
export function AssetTenantsPage() {
  return <AssetFrame tab="tenants">{(asset) => <Tenants asset={asset} />}</AssetFrame>;
}
