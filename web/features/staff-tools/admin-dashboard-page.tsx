import { Badge, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useAdminOverview } from './api.ts';
import { StaffTable } from './staff-table.tsx';

const TOTALS = [
  ['companies', 'Companies'],
  ['users', 'Users'],
  ['sites', 'Sites'],
  ['meters', 'Meters'],
  ['billsThisMonth', 'Bills captured this month'],
  ['validationFailures', 'Validation failures this month'],
] as const;

const count = (n: number | null) => (n === null ? 'not known' : formatNumber(n));

/** /admin: counts across companies, queue depths with their dead letters, and the latest errors. */
export function AdminDashboardPage() {
  const { data, error, isLoading } = useAdminOverview();
  return (
    <Stack>
      <Title order={2}>Admin dashboard</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem getting the counts." />}
      {data && (
        <>
          <Text size="sm" c="dimmed">
            As of {formatDateTime(data.generatedAt)}; bills counted for {data.month}.
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            {TOTALS.map(([key, label]) => (
              <Paper withBorder p="sm" key={key}>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={700} size="xl">
                  {formatNumber(data.totals[key])}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          <Title order={3}>Queues</Title>
          <StaffTable
            label="Queues"
            head={
              <>
                <Table.Th>Queue</Table.Th>
                <Table.Th ta="right">Waiting</Table.Th>
                <Table.Th ta="right">Being worked on</Table.Th>
                <Table.Th ta="right">Dead letters</Table.Th>
              </>
            }
          >
            {data.queues.map((q) => (
              <Table.Tr key={q.queue}>
                <Table.Td>{q.queue}</Table.Td>
                <Table.Td ta="right">{count(q.visible)}</Table.Td>
                <Table.Td ta="right">{count(q.inFlight)}</Table.Td>
                <Table.Td ta="right">
                  {q.deadLetters ? (
                    <Badge color="red">{formatNumber(q.deadLetters)}</Badge>
                  ) : (
                    count(q.deadLetters)
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </StaffTable>
          <Title order={3}>Last errors</Title>
          {data.lastErrors.length === 0 ? (
            <Text c="dimmed">No bill failed to be read this month.</Text>
          ) : (
            <StaffTable
              label="Last errors"
              head={
                <>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Company</Table.Th>
                  <Table.Th>Error</Table.Th>
                </>
              }
            >
              {data.lastErrors.map((e) => (
                <Table.Tr key={`${e.companyId}${e.at}${e.message}`}>
                  <Table.Td>{formatDateTime(e.at)}</Table.Td>
                  <Table.Td>{e.companyName}</Table.Td>
                  <Table.Td>{e.message}</Table.Td>
                </Table.Tr>
              ))}
            </StaffTable>
          )}
        </>
      )}
    </Stack>
  );
}
