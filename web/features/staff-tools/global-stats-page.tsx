import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useGlobalStats } from './api.ts';
import { StaffTable } from './staff-table.tsx';

const COUNTS = [
  ['users', 'Users'],
  ['entities', 'Entities'],
  ['assets', 'Sites'],
  ['accounts', 'Meters'],
  ['invoicesThisMonth', 'Invoices this month'],
] as const;

/** /admin/tools/stats: counts of every company (GET /util/global-stats), for staff. */
export function GlobalStatsPage() {
  const { data, error, isLoading } = useGlobalStats();
  return (
    <Stack>
      <Title order={2}>Global statistics</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem getting stats." />}
      {data && (
        <>
          <Text size="sm" c="dimmed">
            Invoices counted for {data.month}; figures as of{' '}
            {new Date(data.generatedAt).toLocaleString('en-GB')}.
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            <Paper withBorder p="sm">
              <Text size="xs" c="dimmed">
                Companies
              </Text>
              <Text fw={700}>{formatNumber(data.totals.companies)}</Text>
            </Paper>
            {COUNTS.map(([key, label]) => (
              <Paper withBorder p="sm" key={key}>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={700}>{formatNumber(data.totals[key])}</Text>
              </Paper>
            ))}
          </SimpleGrid>
          <StaffTable
            label="Companies"
            head={
              <>
                <Table.Th>Company</Table.Th>
                {COUNTS.map(([key, label]) => (
                  <Table.Th key={key} ta="right">
                    {label}
                  </Table.Th>
                ))}
              </>
            }
          >
            {data.companies.map((c) => (
              <Table.Tr key={c._id}>
                <Table.Td>
                  <Group gap={6}>
                    {c.name}
                    {c.isDemo && (
                      <Badge size="xs" variant="light">
                        Demo
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                {COUNTS.map(([key]) => (
                  <Table.Td key={key} ta="right">
                    {formatNumber(c[key])}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </StaffTable>
        </>
      )}
    </Stack>
  );
}
