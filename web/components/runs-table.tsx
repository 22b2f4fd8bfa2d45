import { Badge, Paper, Stack, Table, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from './page-state.tsx';

/** What every run of a background fetch (a connector's, an automation's) shows in its list. */
export interface RunRow {
  _id: string;
  createdAt?: string;
  startedAt?: string;
  trigger: string;
  counts: { fetched: number; skipped: number };
}

export interface RunColumn<R> {
  header: string;
  cell: (run: R) => ReactNode;
  testId?: string;
}

export const when = (iso?: string) => (iso ? new Date(iso).toLocaleString('en-GB') : '—');

/** A run's status as a coloured badge; each kind of run names its own colours. */
export function RunBadge<S extends string>({
  status,
  colours,
  testId,
}: {
  status: S;
  colours: Record<S, string>;
  testId: string;
}) {
  return (
    <Badge color={colours[status]} variant="light" data-testid={testId}>
      {status}
    </Badge>
  );
}

/** The columns every run list opens with: when it started, what it ran for, how it was started, its status. */
export const leadingRunColumns = <R extends RunRow>(
  subject: RunColumn<R>,
  status: (run: R) => ReactNode,
): RunColumn<R>[] => [
  { header: 'Started', cell: (r) => when(r.startedAt ?? r.createdAt) },
  subject,
  { header: 'How', cell: (r) => (r.trigger === 'manual' ? 'By hand' : 'Scheduled') },
  { header: 'Status', cell: status },
];

/** What a run fetched and what it found already held. */
export const countRunColumns = <R extends RunRow>(fetchedTestId: string): RunColumn<R>[] => [
  { header: 'Fetched', cell: (r) => r.counts.fetched, testId: fetchedTestId },
  { header: 'Already held', cell: (r) => r.counts.skipped },
];

/** A page of runs, newest first as the read gives them, in one striped table. */
export function RunsPage<R extends RunRow>({
  title,
  read,
  columns,
  notice,
}: {
  title: string;
  read: { data?: { data: R[] }; error?: unknown; isLoading: boolean };
  columns: readonly RunColumn<R>[];
  notice?: ReactNode;
}) {
  const runs = read.data?.data ?? [];
  return (
    <Stack>
      <Title order={2}>{title}</Title>
      {notice}
      <Paper withBorder p="md">
        {read.isLoading && <LoadingPanel />}
        {read.error !== undefined && read.error !== null && <ErrorPanel error={read.error} />}
        {read.data && runs.length === 0 && <EmptyPanel>No runs yet.</EmptyPanel>}
        {runs.length > 0 && (
          <Table striped aria-label={title}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.header}>{c.header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((r) => (
                <Table.Tr key={r._id} data-run-id={r._id}>
                  {columns.map((c) => (
                    <Table.Td key={c.header} data-testid={c.testId}>
                      {c.cell(r)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}
