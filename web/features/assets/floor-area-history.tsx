import { ActionIcon, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { IMPERIAL_AREA_FACTOR } from '../../../shared/constants.ts';
import { showToast } from '../../components/toast-store.ts';
import { type AssetView, useUpdateAsset } from './api.ts';
import { FormAlert, useFormFailure } from './ui.tsx';

interface Row {
  key: number;
  from: string;
  to: string;
  area: string;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * The site's floor area over time, for benchmarks and intensities of past years: each period's area is
 * entered in the site's unit and stored in m². The server refuses overlapping periods and areas of zero
 * or less, and its messages show against the field they name.
 */
export function FloorAreaHistory({ asset }: { asset: AssetView }) {
  const updateAsset = useUpdateAsset();
  const form = useFormFailure();
  const ft2 = asset.floorAreaUnit === 'ft2';
  const unitLabel = ft2 ? 'ft²' : 'm²';
  const [nextKey, setNextKey] = useState((asset.floorAreaHistory ?? []).length);
  const [rows, setRows] = useState<Row[]>(() =>
    [...(asset.floorAreaHistory ?? [])]
      .sort((a, b) => a.from.localeCompare(b.from))
      .map((p, key) => ({
        key,
        from: p.from,
        to: p.to ?? '',
        area: String(round(ft2 ? p.floorAreaM2 / IMPERIAL_AREA_FACTOR : p.floorAreaM2)),
      })),
  );
  const change = (key: number, field: 'from' | 'to' | 'area', value: string) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, [field]: value } : r)));
  const add = () => {
    setRows((all) => [...all, { key: nextKey, from: '', to: '', area: '' }]);
    setNextKey((k) => k + 1);
  };
  const remove = (key: number) => setRows((all) => all.filter((r) => r.key !== key));

  async function save(event: FormEvent) {
    event.preventDefault();
    const floorAreaHistory = rows.map((r) => {
      const entered = r.area.trim() === '' ? Number.NaN : Number(r.area.replace(/,/g, ''));
      // An unreadable number goes to the server as it is, so its message shows against the field.
      const floorAreaM2 = Number.isFinite(entered)
        ? round(ft2 ? entered * IMPERIAL_AREA_FACTOR : entered)
        : r.area;
      return { from: r.from, ...(r.to ? { to: r.to } : {}), floorAreaM2 };
    });
    if (await form.run(() => updateAsset(asset._id, { floorAreaHistory }))) {
      showToast('Floor-area history saved', 'success');
    }
  }

  const fieldError = (i: number, field: string) => form.fields[`floorAreaHistory.${i}.${field}`];

  return (
    <Paper withBorder p="md" component="form" onSubmit={save} noValidate aria-label="Floor-area history">
      <Stack>
        <Title order={4}>Floor-area history</Title>
        <Text size="sm" c="dimmed">
          The floor area in force over each period. Benchmarks and intensities divide each year by the area in
          force that year; days outside every period use the current floor area.
        </Text>
        <FormAlert failure={form.failure} />
        {rows.length === 0 ? (
          <Text size="sm">No earlier floor areas recorded.</Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>From</Table.Th>
                <Table.Th>To (blank: until the next period)</Table.Th>
                <Table.Th>Floor area ({unitLabel})</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Table.Tr key={r.key}>
                  <Table.Td>
                    <TextInput
                      type="date"
                      aria-label={`Period ${i + 1} from`}
                      value={r.from}
                      error={fieldError(i, 'from')}
                      onChange={(e) => change(r.key, 'from', e.currentTarget.value)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      type="date"
                      aria-label={`Period ${i + 1} to`}
                      value={r.to}
                      error={fieldError(i, 'to')}
                      onChange={(e) => change(r.key, 'to', e.currentTarget.value)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      inputMode="decimal"
                      aria-label={`Period ${i + 1} floor area`}
                      value={r.area}
                      error={fieldError(i, 'floorAreaM2')}
                      onChange={(e) => change(r.key, 'area', e.currentTarget.value)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove period ${i + 1}`}
                      onClick={() => remove(r.key)}
                    >
                      ×
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group>
          <Button variant="default" onClick={add}>
            Add period
          </Button>
          <Button type="submit" loading={form.busy}>
            Save history
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
