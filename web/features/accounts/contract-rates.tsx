import { Alert, Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { CONTRACT_MESSAGES, type ContractView } from '../../../shared/schemas/account-contracts.ts';
import { CONTRACT_RATE_KINDS } from '../../../shared/schemas/contract.ts';
import { type FormFailure, formFailureOf, useSetContractRates } from './api.ts';

interface RateRow {
  name: string;
  kind: string;
  rate: string;
  unit: string;
}

const KIND_LABELS: Record<string, string> = {
  unit: 'Unit rate',
  standing: 'Standing charge',
  capacity: 'Capacity charge',
  other: 'Other',
};

/** The contract's rates (day, night, standing charge...), which bills are checked against. */
export function ContractRates({
  accountId,
  contract,
  onDone,
}: {
  accountId: string;
  contract: ContractView;
  onDone: () => void;
}) {
  const setRates = useSetContractRates(accountId);
  const [rows, setRows] = useState<RateRow[]>(
    contract.rateTypes.length > 0
      ? contract.rateTypes.map((r) => ({ ...r, rate: String(r.rate) }))
      : [{ name: '', kind: 'unit', rate: '', unit: 'kWh' }],
  );
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const set = (i: number, patch: Partial<RateRow>) =>
    setRows((all) => all.map((r, j) => (i === j ? { ...r, ...patch } : r)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await setRates(contract._id, {
        rateTypes: rows
          .filter((r) => r.name.trim() || r.rate.trim())
          .map((r) => ({
            name: r.name,
            kind: r.kind,
            rate: r.rate === '' ? Number.NaN : Number(r.rate),
            unit: r.unit,
          })),
      });
      onDone();
    } catch (error) {
      setFailure(formFailureOf(error, CONTRACT_MESSAGES.rateTypeProblem));
    }
  }

  const err = (i: number, field: string) => failure.fields[`rateTypes.${i}.${field}`];
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label="Contract rates">
      <Stack gap="xs">
        <Title order={5}>Rates of {contract.name}</Title>
        {failure.message && <Alert color="red">{failure.message}</Alert>}
        {rows.map((r, i) => (
          // Rows have no identity of their own until saved; their position is their key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Group key={i} grow align="flex-start">
            <TextInput
              label="Name"
              value={r.name}
              error={err(i, 'name')}
              onChange={(e) => set(i, { name: e.currentTarget.value })}
            />
            <NativeSelect
              label="Kind"
              value={r.kind}
              onChange={(e) => set(i, { kind: e.currentTarget.value })}
              data={CONTRACT_RATE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] ?? k }))}
            />
            <TextInput
              label="Rate (£)"
              inputMode="decimal"
              value={r.rate}
              error={err(i, 'rate')}
              onChange={(e) => set(i, { rate: e.currentTarget.value })}
            />
            <TextInput
              label="Per"
              description="kWh, day…"
              value={r.unit}
              error={err(i, 'unit')}
              onChange={(e) => set(i, { unit: e.currentTarget.value })}
            />
          </Group>
        ))}
        <Group justify="space-between">
          <Button
            variant="subtle"
            size="xs"
            onClick={() => setRows([...rows, { name: '', kind: 'unit', rate: '', unit: 'kWh' }])}
          >
            Add a rate
          </Button>
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={onDone}>
              Close
            </Button>
            <Button type="submit" size="xs">
              Save rates
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
