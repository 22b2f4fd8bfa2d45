import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import {
  AccountLayout,
  accountPath,
  StatusBadge,
  SubMeterBadge,
  useMayChangeAccount,
  utilityLabel,
} from '../../components/account-frame.tsx';
import { EmptyPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate } from '../../lib/format.ts';
import { METER_USER_LABELS, meterPointLabel, meterTenantText } from './account-fields.tsx';
import { formFailureOf, useRecalculateTotals, useSiteTenants, useSubMeters, useSuppliers } from './api.ts';
import { StatusHistoryPanel } from './status-history-panel.tsx';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={200}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

function Details({ account }: { account: AccountView }) {
  const suppliers = useSuppliers();
  const supplier = suppliers.data?.data.find((s) => s._id === account.supplierId);
  const tenants = useSiteTenants(account.meterUserTenantId ? account.assetId : undefined);
  return (
    <Paper withBorder p="md">
      <Table aria-label="Account details">
        <Table.Tbody>
          <Row label="Utility">{utilityLabel(account.type)}</Row>
          <Row label={meterPointLabel(account.type)}>{account.meterPointNumber ?? '—'}</Row>
          <Row label="Status">
            <Group gap={6}>
              <StatusBadge status={account.status} />
              {account.isSubMeter && <SubMeterBadge />}
            </Group>
          </Row>
          <Row label="Supplier">{account.supplierId ? (supplier?.name ?? '…') : '—'}</Row>
          <Row label="Unit">{account.unit ?? '—'}</Row>
          {account.parentAccount && (
            <Row label="Parent account">
              <Anchor
                component={Link}
                to={accountPath({ _id: account.parentAccount._id, assetId: account.assetId })}
              >
                {account.parentAccount.name ?? account.parentAccount._id}
              </Anchor>
            </Row>
          )}
          {account.wasteCategory && <Row label="Waste category">{account.wasteCategory}</Row>}
          <Row label="Used by">
            {account.meterUser ? (METER_USER_LABELS[account.meterUser] ?? account.meterUser) : 'Not set'}
            {account.meterUserTenantId &&
              ` — ${meterTenantText(account.meterUserTenantId, tenants.data?.data, tenants.error !== undefined)}`}
          </Row>
          <Row label="Tags">
            {account.tags.length === 0 ? (
              '—'
            ) : (
              <Group gap={4}>
                {account.tags.map((t) => (
                  <Badge key={t} variant="light" tt="none">
                    {t}
                  </Badge>
                ))}
              </Group>
            )}
          </Row>
          <Row label="Added">{formatDate(account.createdAt)}</Row>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function SubMeters({ account }: { account: AccountView }) {
  const { data } = useSubMeters(account._id);
  if (account.isSubMeter || !data) return null;
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>Sub-meters</Title>
        {data.data.length === 0 ? (
          <EmptyPanel>This account has no sub-meters.</EmptyPanel>
        ) : (
          data.data.map((s) => (
            <Group key={s._id} gap="xs">
              <Anchor component={Link} to={accountPath(s)}>
                {s.name ?? s._id}
              </Anchor>
              <SubMeterBadge />
              <StatusBadge status={s.status} />
            </Group>
          ))
        )}
        <Text size="xs" c="dimmed">
          Sub-meters are not added to the site's totals: this account's bills already count them.
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * Rebuilds the site's monthly totals from its meters' stored months (PUT /accounts/{id}/invalidate-cache),
 * for when the site's figures look out of step after meters were moved, re-parented or deleted.
 */
function RecalculateTotals({ account }: { account: AccountView }) {
  const recalculateTotals = useRecalculateTotals();
  const [busy, setBusy] = useState(false);
  const mayChange = useMayChangeAccount(account);
  async function recalculate() {
    setBusy(true);
    try {
      const done = await recalculateTotals(account._id);
      showToast(`Totals recalculated: ${done.changed} of ${done.months} monthly figures changed`, 'success');
    } catch (error) {
      showToast(formFailureOf(error, 'There was a problem recalculating the totals.').message ?? '', 'error');
    } finally {
      setBusy(false);
    }
  }
  if (!mayChange) return null;
  return (
    <Group justify="flex-end">
      <Button size="xs" variant="light" onClick={recalculate} loading={busy}>
        Recalculate totals
      </Button>
    </Group>
  );
}

/** /assets/{id}/accounts/{accountId}/overview */
export function AccountOverviewPage() {
  return (
    <AccountLayout tab="overview">
      {(account) => (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <Stack>
            <RecalculateTotals account={account} />
            <Details account={account} />
            <SubMeters account={account} />
          </Stack>
          <StatusHistoryPanel account={account} />
        </SimpleGrid>
      )}
    </AccountLayout>
  );
}
