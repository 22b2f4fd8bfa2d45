import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { type RunStatus, type ScraperRun, useConnectors, useRunLog, useRuns } from './api.ts';

const STATUS_COLOUR: Record<RunStatus, string> = {
  pending: 'gray',
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  return (
    <Badge color={STATUS_COLOUR[status]} variant="light" data-testid="run-status">
      {status}
    </Badge>
  );
}

const when = (iso?: string) => (iso ? new Date(iso).toLocaleString('en-GB') : '—');

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
  const { data, error, isLoading } = useRuns();
  const runs = data?.data ?? [];
  return (
    <Stack>
      <Title order={2}>Connector runs</Title>
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && runs.length === 0 && <EmptyPanel>No runs yet.</EmptyPanel>}
        {runs.length > 0 && (
          <Table striped aria-label="Connector runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Started</Table.Th>
                <Table.Th>Supplier</Table.Th>
                <Table.Th>How</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Listed</Table.Th>
                <Table.Th>Fetched</Table.Th>
                <Table.Th>Already held</Table.Th>
                <Table.Th>Problem</Table.Th>
                <Table.Th>Logs</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((r) => (
                <Table.Tr key={r._id} data-run-id={r._id}>
                  <Table.Td>{when(r.startedAt ?? r.createdAt)}</Table.Td>
                  <Table.Td>{r.supplierName}</Table.Td>
                  <Table.Td>{r.trigger === 'manual' ? 'By hand' : 'Scheduled'}</Table.Td>
                  <Table.Td>
                    <RunStatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>{r.counts.listed}</Table.Td>
                  <Table.Td data-testid="run-fetched">{r.counts.fetched}</Table.Td>
                  <Table.Td>{r.counts.skipped}</Table.Td>
                  <Table.Td>{r.error?.message ?? ''}</Table.Td>
                  <Table.Td>
                    <LogLinks run={r} />
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
