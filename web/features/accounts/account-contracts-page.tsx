import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CONTRACT_MESSAGES, type ContractView } from '../../../shared/schemas/account-contracts.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { AccountLayout, useMayChangeAccount } from '../../components/account-frame.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { RowActions } from '../../components/row-actions.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate } from '../../lib/format.ts';
import { downloadFrom } from '../../lib/upload.ts';
import { useContractDownload, useContracts, useDeleteContract, useToggleContract } from './api.ts';
import { ContractForm } from './contract-form.tsx';
import { contractRateText } from './contract-rate-text.ts';
import { ContractRates } from './contract-rates.tsx';

type Editing =
  | { mode: 'add' }
  | { mode: 'edit'; contract: ContractView }
  | { mode: 'rates'; contract: ContractView };

function Contracts({ account }: { account: AccountView }) {
  const { data, error, isLoading } = useContracts(account._id);
  const toggleStatus = useToggleContract(account._id);
  const downloadUrl = useContractDownload(account._id);
  const deleteContract = useDeleteContract(account._id);
  const [editing, setEditing] = useState<Editing | null>(null);

  async function toggle(c: ContractView) {
    try {
      await toggleStatus(c._id);
    } catch {
      showToast(CONTRACT_MESSAGES.statusProblem, 'error');
    }
  }

  async function download(c: ContractView) {
    try {
      const { url } = await downloadUrl(c._id, c.file?.name ?? `${c.name}.pdf`);
      downloadFrom(url);
    } catch {
      showToast('There was a problem downloading the contract.', 'error');
    }
  }

  async function remove(c: ContractView) {
    if (!window.confirm(`Delete the contract ${c.name}?`)) return;
    try {
      await deleteContract(c._id);
    } catch {
      showToast(CONTRACT_MESSAGES.submitProblem, 'error');
    }
  }

  const done = () => setEditing(null);
  const mayChange = useMayChangeAccount(account);
  const contracts = data?.data ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={4}>Contracts</Title>
        {mayChange && !editing && <Button onClick={() => setEditing({ mode: 'add' })}>Add contract</Button>}
      </Group>
      {editing?.mode === 'add' && (
        <ContractForm account={account} onDone={done} onCancel={() => setEditing(null)} />
      )}
      {editing?.mode === 'edit' && (
        <ContractForm
          account={account}
          contract={editing.contract}
          onDone={done}
          onCancel={() => setEditing(null)}
        />
      )}
      {editing?.mode === 'rates' && (
        <ContractRates accountId={account._id} contract={editing.contract} onDone={done} />
      )}
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && contracts.length === 0 && <EmptyPanel>This account has no contracts yet.</EmptyPanel>}
      {contracts.length > 0 && (
        <Paper withBorder>
          <Table aria-label="Contracts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Period</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Rates</Table.Th>
                <Table.Th>File</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {contracts.map((c) => (
                <Table.Tr key={c._id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {c.name}
                    </Text>
                    {c.reference && (
                      <Text size="xs" c="dimmed">
                        {c.reference}
                      </Text>
                    )}
                    {c.isRenewable && (
                      <Badge size="xs" color="teal" variant="light">
                        Renewable
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {formatDate(c.startDate)} – {formatDate(c.endDate)}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={c.status === 'active' ? 'green' : 'gray'} variant="light">
                      {c.status === 'active' ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {c.rateTypes.map((r) => `${r.name} ${contractRateText(r.rate, r.unit)}`).join(', ') ||
                      '—'}
                  </Table.Td>
                  <Table.Td>
                    {c.file ? (
                      <Button
                        size="compact-xs"
                        variant="light"
                        onClick={() => download(c)}
                        aria-label={`Download ${c.file.name}`}
                      >
                        {c.file.name}
                      </Button>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <RowActions
                      mayChange={mayChange}
                      justify="flex-end"
                      onEdit={() => setEditing({ mode: 'edit', contract: c })}
                      onDelete={() => remove(c)}
                    >
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => setEditing({ mode: 'rates', contract: c })}
                      >
                        Rates
                      </Button>
                      <Button size="compact-xs" variant="subtle" onClick={() => toggle(c)}>
                        {c.status === 'active' ? 'Deactivate' : 'Activate'}
                      </Button>
                    </RowActions>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}

/** /assets/{id}/accounts/{accountId}/contracts */
export function AccountContractsPage() {
  return <AccountLayout tab="contracts">{(account) => <Contracts account={account} />}</AccountLayout>;
}
