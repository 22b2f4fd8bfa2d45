import { Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { RateKind } from '../../../shared/capture/model.ts';
import { formatNumber } from '../../lib/format.ts';
import type { RateView } from './api.ts';
import {
  EMPTY_RATE,
  expectedAmount,
  money,
  parseRate,
  RATE_KIND_LABELS,
  RATE_KINDS,
  type RateBody,
  type RateDraft,
} from './invoice-values.ts';

const rate = (n: number | undefined) =>
  n === undefined ? '' : `£${formatNumber(n, { minimumFractionDigits: 2, maximumFractionDigits: 5 })}`;

function AddRate({ onAdd, busy }: { onAdd: (rate: RateBody) => Promise<boolean>; busy: boolean }) {
  const [draft, setDraft] = useState<RateDraft>(EMPTY_RATE);
  const [errors, setErrors] = useState<Partial<Record<keyof RateDraft, string>>>({});
  const set = (field: keyof RateDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors(({ [field]: _gone, ...rest }) => rest);
  };
  const input = (
    field: Exclude<keyof RateDraft, 'kind'>,
    label: string,
    w: number,
    extra?: { inputMode?: 'decimal'; placeholder?: string },
  ) => (
    <TextInput
      size="xs"
      label={label}
      {...extra}
      value={draft[field]}
      error={errors[field]}
      onChange={(e) => set(field)(e.currentTarget.value)}
      w={w}
    />
  );
  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseRate(draft);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    if (await onAdd(parsed.rate)) setDraft(EMPTY_RATE);
  }
  return (
    <Group component="form" aria-label="Add a rate" onSubmit={submit} align="start" gap="xs" wrap="wrap">
      {input('description', 'Description', 180)}
      <NativeSelect
        size="xs"
        label="Kind"
        value={draft.kind}
        onChange={(e) => set('kind')(e.currentTarget.value as RateKind)}
        data={RATE_KINDS.map((k) => ({ value: k, label: RATE_KIND_LABELS[k] }))}
      />
      {input('units', 'Units', 90, { inputMode: 'decimal' })}
      {input('unit', 'Unit', 70, { placeholder: 'kWh' })}
      {input('unitRate', 'Unit rate (£)', 100, { inputMode: 'decimal' })}
      {input('amount', 'Amount (£)', 100, { inputMode: 'decimal' })}
      <Button size="xs" type="submit" loading={busy} mt={22}>
        Add rate
      </Button>
    </Group>
  );
}

/** The invoice's charge lines; a line whose units times rate differs from its amount is marked. */
export function InvoiceRates({
  rates,
  netTotal,
  locked,
  busy,
  onAdd,
  onDelete,
}: {
  rates: RateView[];
  netTotal: number | undefined;
  locked: boolean;
  busy: boolean;
  onAdd: (rate: RateBody) => Promise<boolean>;
  onDelete: (rate: RateView) => void;
}) {
  const total = rates.reduce((sum, r) => sum + (r.amount ?? 0), 0);
  const rounded = Math.round(total * 100) / 100;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Rates</Title>
        {rates.length === 0 ? (
          <Text size="sm" c="dimmed">
            No charge lines were read from this invoice.
          </Text>
        ) : (
          <Table aria-label="Rates">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Description</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th ta="right">Units</Table.Th>
                <Table.Th ta="right">Unit rate</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                {!locked && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rates.map((r) => {
                const expected = expectedAmount(r);
                const off =
                  expected !== undefined && r.amount !== undefined && Math.abs(expected - r.amount) > 0.01;
                return (
                  <Table.Tr key={r._id}>
                    <Table.Td>{r.description}</Table.Td>
                    <Table.Td>{RATE_KIND_LABELS[r.kind as RateKind] ?? r.kind}</Table.Td>
                    <Table.Td ta="right">
                      {formatNumber(r.units, { maximumFractionDigits: 3 })} {r.unit ?? ''}
                    </Table.Td>
                    <Table.Td ta="right">{rate(r.unitRate)}</Table.Td>
                    <Table.Td ta="right">
                      {money(r.amount)}
                      {off && (
                        <Text size="xs" c="orange.8">
                          units × rate = {money(expected)}
                        </Text>
                      )}
                    </Table.Td>
                    {!locked && (
                      <Table.Td ta="right">
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          disabled={busy}
                          onClick={() => onDelete(r)}
                          aria-label={`Delete rate ${r.description}`}
                        >
                          Delete
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={4}>Lines total</Table.Th>
                <Table.Th ta="right">
                  {money(rounded)}
                  {netTotal !== undefined && Math.abs(netTotal - rounded) > 0.01 && (
                    <Text size="xs" c="orange.8">
                      net total is {money(netTotal)}
                    </Text>
                  )}
                </Table.Th>
                {!locked && <Table.Th />}
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        )}
        {!locked && <AddRate onAdd={onAdd} busy={busy} />}
      </Stack>
    </Paper>
  );
}
