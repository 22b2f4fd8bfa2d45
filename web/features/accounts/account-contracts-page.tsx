import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CONTRACT_MESSAGES, type ContractView } from '../../../shared/schemas/account-contracts.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { AccountLayout, useMayChangeAccount } from '../../components/account-frame.tsx';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { rowActionsColumn } from '../../components/row-actions.tsx';
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

interface ContractActions {
  mayChange: boolean;
  onDownload: (contract: ContractView) => void;
  onEdit: (contract: ContractView) => void;
  onRates: (contract: ContractView) => void;
  onToggle: (contract: ContractView) => void;
  onDelete: (contract: ContractView) => void;
}

const statusText = (c: ContractView) => (c.status === 'active' ? 'Active' : 'Inactive');
const ratesText = (c: ContractView) =>
  c.rateTypes.map((r) => `${r.name} ${contractRateText(r.rate, r.unit)}`).join(', ');

/** The contracts table's columns: the period sorts by its dates and exports as it reads. */
export function contractColumns(actions: ContractActions): DataTableColumn<ContractView>[] {
  return [
    {
      key: 'name',
      label: 'Name',
      value: (c) => c.name,
      render: (c) => (
        <>
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
        </>
      ),
    },
    {
      key: 'period',
      label: 'Period',
      value: (c) => `${formatDate(c.startDate)} – ${formatDate(c.endDate)}`,
      sortValue: (c) => `${c.startDate}/${c.endDate}`,
    },
    {
      key: 'status',
      label: 'Status',
      value: statusText,
      render: (c) => (
        <Badge color={c.status === 'active' ? 'green' : 'gray'} variant="light">
          {statusText(c)}
        </Badge>
      ),
    },
    { key: 'rates', label: 'Rates', value: ratesText, render: (c) => ratesText(c) || '—' },
    {
      key: 'file',
      label: 'File',
      value: (c) => c.file?.name,
      render: (c) =>
        c.file ? (
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => actions.onDownload(c)}
            aria-label={`Download ${c.file.name}`}
          >
            {c.file.name}
          </Button>
        ) : (
          '—'
        ),
    },
    rowActionsColumn<ContractView>({
      ...actions,
      more: (c) => (
        <>
          <Button size="compact-xs" variant="subtle" onClick={() => actions.onRates(c)}>
            Rates
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={() => actions.onToggle(c)}>
            {c.status === 'active' ? 'Deactivate' : 'Activate'}
          </Button>
        </>
      ),
    }),
  ];
}

/** An account's contracts, sortable and downloadable as CSV. */
export function ContractsTable({ contracts, ...actions }: ContractActions & { contracts: ContractView[] }) {
  return (
    <DataTable
      label="Contracts"
      columns={contractColumns(actions)}
      rows={contracts}
      rowKey={(c) => c._id}
      empty="This account has no contracts yet."
      csvFilename="contracts.csv"
    />
  );
}

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
      {data && (
        <ContractsTable
          contracts={contracts}
          mayChange={mayChange}
          onDownload={download}
          onEdit={(contract) => setEditing({ mode: 'edit', contract })}
          onRates={(contract) => setEditing({ mode: 'rates', contract })}
          onToggle={toggle}
          onDelete={remove}
        />
      )}
    </Stack>
  );
}

/** /assets/{id}/accounts/{accountId}/contracts */
export function AccountContractsPage() {
  return <AccountLayout tab="contracts">{(account) => <Contracts account={account} />}</AccountLayout>;
}
