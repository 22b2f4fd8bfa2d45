import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { meterPointKind } from '../../../shared/schemas/account-rules.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import {
  accountPath,
  SiteCrumbs,
  StatusBadge,
  SubMeterBadge,
  utilityLabel,
} from '../../components/account-frame.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useAsset } from '../../lib/asset-api.ts';
import { useMayChangeItem } from '../../lib/may-change.ts';
import { useAccountsOfAsset } from './api.ts';

/** Each sub-meter straight after its parent, so a reader sees which supply it hangs off. */
export function meterOrder(accounts: readonly AccountView[]): AccountView[] {
  const byName = (a: AccountView, b: AccountView) =>
    (a.name ?? a.type).localeCompare(b.name ?? b.type) || a._id.localeCompare(b._id);
  const ids = new Set(accounts.map((a) => a._id));
  const tops = accounts.filter((a) => !a.parentAccountId || !ids.has(a.parentAccountId)).sort(byName);
  return tops.flatMap((top) => [
    top,
    ...accounts.filter((a) => a.parentAccountId === top._id && a._id !== top._id).sort(byName),
  ]);
}

function MeterRow({ account }: { account: AccountView }) {
  const kind = meterPointKind(account.type);
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap={6} pl={account.parentAccountId ? 'md' : 0}>
          <Anchor component={Link} to={accountPath(account)}>
            {account.name ?? utilityLabel(account.type)}
          </Anchor>
          {account.parentAccountId && <SubMeterBadge />}
        </Group>
      </Table.Td>
      <Table.Td>
        <Badge variant="outline">{utilityLabel(account.type)}</Badge>
      </Table.Td>
      <Table.Td>
        {account.meterPointNumber ? (
          <Text size="sm" ff="monospace" aria-label={kind ?? 'Meter number'}>
            {account.meterPointNumber}
          </Text>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td>
        <StatusBadge status={account.status} />
      </Table.Td>
    </Table.Tr>
  );
}

/** /assets/{id}/accounts: the site's meters, sub-meters under their supply, with a way to add one. */
export function AssetAccountsPage() {
  const { id } = useParams();
  // The site pages' own fetch, so the site's name comes from the cache when they were visited.
  const site = useAsset(id);
  const { data, error, isLoading } = useAccountsOfAsset(id);
  // Adding a meter changes the site: offered to those who may change it (never to staff looking in).
  const mayAdd = useMayChangeItem({ assetId: id, entityId: site.data?.entityId });
  if (isLoading || site.isLoading) return <LoadingPanel />;
  if (error || site.error || !data || !id)
    return <ErrorPanel error={error ?? site.error ?? new Error('Site not found')} />;
  const meters = meterOrder(data.data);
  return (
    <Stack gap="md">
      <SiteCrumbs assetId={id} siteName={site.data?.siteName} />
      <Group justify="space-between">
        <Title order={2}>Meters</Title>
        {mayAdd && (
          <Button component={Link} to={`/new-account?assetId=${encodeURIComponent(id)}`}>
            Add meter
          </Button>
        )}
      </Group>
      {meters.length === 0 ? (
        <EmptyPanel>This site has no meters yet.</EmptyPanel>
      ) : (
        <Paper withBorder>
          <Table aria-label="Meters" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Utility</Table.Th>
                <Table.Th>Meter point number</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {meters.map((a) => (
                <MeterRow key={a._id} account={a} />
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}
