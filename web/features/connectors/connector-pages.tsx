import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import {
  countRunColumns,
  leadingRunColumns,
  RunBadge,
  type RunColumn,
  RunsPage,
  when,
} from '../../components/runs-table.tsx';
import { type RunStatus, type ScraperRun, useConnectors, useRunLog, useRuns } from './api.ts';

const STATUS_COLOUR: Record<RunStatus, string> = {
  pending: 'gray',
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return <RunBadge status={status} colours={STATUS_COLOUR} testId="run-status" />;
}

function LogLinks({ run }: { run: ScraperRun }) {
  const readLog = useRunLog();
  const open = async (logId: string) => {
    const log = await readLog(run._id, logId);
    const url = URL.createObjectURL(new Blob([log.text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = log.fileName;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Group gap={4}>
      {run.logs.map((l) => (
        <Button key={l._id} size="compact-xs" variant="subtle" onClick={() => void open(l._id)}>
          {l.step}
        </Button>
      ))}
    </Group>
  );
}

/** /connectors/runs: every run, newest first, kept current by the connector worker's live updates. */
export function ConnectorRunsPage() {
  const columns: RunColumn<ScraperRun>[] = [
    ...leadingRunColumns<ScraperRun>({ header: 'Supplier', cell: (r) => r.supplierName }, (r) => (
      <RunStatusBadge status={r.status} />
    )),
    { header: 'Listed', cell: (r) => r.counts.listed },
    ...countRunColumns<ScraperRun>('run-fetched'),
    { header: 'Problem', cell: (r) => r.error?.message ?? '' },
    { header: 'Logs', cell: (r) => <LogLinks run={r} /> },
  ];
  return <RunsPage title="Connector runs" read={useRuns()} columns={columns} />;
}

/** /connectors/dashboard: each portal login at a glance, and the month's figures. */
export function ConnectorDashboardPage() {
  const connectors = useConnectors();
  const runs = useRuns();
  const all = runs.data?.data ?? [];
  const fetched = all.reduce((n, r) => n + r.counts.fetched, 0);
  const failed = all.filter((r) => r.status === 'failed').length;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Connectors</Title>
        <Button component={Link} to="/connectors/manage">
          Manage portal logins
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            Portal logins
          </Text>
          <Text size="xl" fw={700}>
            {connectors.data?.total ?? '…'}
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            Bills fetched (last 100 runs)
          </Text>
          <Text size="xl" fw={700}>
            {runs.data ? fetched : '…'}
          </Text>
        </Paper>
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            Failed runs (last 100)
          </Text>
          <Text size="xl" fw={700}>
            {runs.data ? failed : '…'}
          </Text>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="md">
        {connectors.isLoading && <LoadingPanel />}
        {connectors.error && <ErrorPanel error={connectors.error} />}
        {connectors.data?.data.length === 0 && <EmptyPanel>No portal logins yet.</EmptyPanel>}
        {(connectors.data?.data.length ?? 0) > 0 && (
          <Table aria-label="Portal logins">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Supplier</Table.Th>
                <Table.Th>Login</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Last run</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {connectors.data?.data.map((c) => (
                <Table.Tr key={c.supplierId}>
                  <Table.Td>{c.supplierName}</Table.Td>
                  <Table.Td>{c.username}</Table.Td>
                  <Table.Td>
                    {c.status === 'wrong-password' ? (
                      <Badge color="red">Password refused</Badge>
                    ) : c.status === 'off' ? (
                      <Badge color="gray">Off</Badge>
                    ) : (
                      <Badge color="green">Ready</Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {c.lastRun ? (
                      <Group gap="xs">
                        <RunStatusBadge status={c.lastRun.status} />
                        <Text size="sm">{when(c.lastRun.finishedAt ?? c.lastRun.createdAt)}</Text>
                      </Group>
                    ) : (
                      'Never'
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}
