import { Badge, Group, Pagination, Paper, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { type LogEntry, useLog } from './api.ts';
import { CompanyLayout } from './company-layout.tsx';

export const LOG_PAGE_SIZE = 25;

/** The number of pages a list of `total` entries fills, at least one. */
export const pageCount = (total: number, size = LOG_PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

/** "users" and "asset-groups" read as "User" and "Asset group". */
export function modelLabel(model: string | undefined): string {
  if (!model) return '';
  const words = model.replace(/[-_]+/g, ' ').replace(/ies$/, 'y').replace(/s$/, '');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function LogRow({ entry }: { entry: LogEntry }) {
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.createdAt)}</Table.Td>
      <Table.Td>{entry.userName ?? entry.userSub ?? '—'}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Badge variant="light" size="sm">
            {entry.type}
          </Badge>
          <Text size="sm">{modelLabel(entry.model)}</Text>
        </Group>
      </Table.Td>
      <Table.Td>{entry.message ?? ''}</Table.Td>
    </Table.Tr>
  );
}

/** /company/log: who changed what in the company, and when, newest first. */
export function CompanyLogPage() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useLog((page - 1) * LOG_PAGE_SIZE, LOG_PAGE_SIZE);
  const pages = pageCount(data?.total ?? 0);
  return (
    <CompanyLayout tab="log">
      <Paper withBorder p="md">
        {isLoading && !data && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && data.data.length === 0 && <EmptyPanel>Nothing has been logged yet.</EmptyPanel>}
        {data && data.data.length > 0 && (
          <Table striped aria-label="Activity log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Details</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((e) => (
                <LogRow key={e._id} entry={e} />
              ))}
            </Table.Tbody>
          </Table>
        )}
        {pages > 1 && (
          <Group justify="center" mt="md">
            <Pagination total={pages} value={page} onChange={setPage} aria-label="Log pages" />
          </Group>
        )}
      </Paper>
    </CompanyLayout>
  );
}
