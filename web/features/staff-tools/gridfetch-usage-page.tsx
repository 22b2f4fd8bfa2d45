import { Anchor, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useGridfetchUsage } from './api.ts';
import { StaffTable } from './staff-table.tsx';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** /admin/gridfetch/usage: grid data fetches per company and month (GET /util/gridfetch-usage). */
export function GridfetchUsagePage() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // Only whole months are sent; the server's own default range applies until both are typed.
  const query = new URLSearchParams({
    ...(MONTH.test(from) ? { from } : {}),
    ...(MONTH.test(to) ? { to } : {}),
  }).toString();
  const { data, error, isLoading } = useGridfetchUsage(query);
  return (
    <Stack>
      <Title order={2}>Grid data usage</Title>
      <Group align="end">
        <TextInput
          label="From month"
          type="month"
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput label="To month" type="month" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
      </Group>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && data.data.length === 0 && <EmptyPanel>No fetches in this range.</EmptyPanel>}
      {data && data.data.length > 0 && (
        <>
          <Text size="sm" c="dimmed">
            {data.from} to {data.to}: {formatNumber(data.totals.fetches)} fetches,{' '}
            {formatNumber(data.totals.intervals)} half-hourly values.
          </Text>
          <StaffTable
            label="Fetches per company and month"
            scroll
            head={
              <>
                <Table.Th>Company</Table.Th>
                {data.months.map((m) => (
                  <Table.Th key={m} ta="right">
                    {m}
                  </Table.Th>
                ))}
                <Table.Th ta="right">Fetches</Table.Th>
                <Table.Th ta="right">Values</Table.Th>
                <Table.Th>Letters of authority</Table.Th>
              </>
            }
          >
            {data.data.map((row) => (
              <Table.Tr key={row.company._id}>
                <Table.Td>{row.company.name}</Table.Td>
                {data.months.map((m) => (
                  <Table.Td key={m} ta="right">
                    {formatNumber(row.months.find((x) => x.month === m)?.fetches ?? 0)}
                  </Table.Td>
                ))}
                <Table.Td ta="right">{formatNumber(row.totals.fetches)}</Table.Td>
                <Table.Td ta="right">{formatNumber(row.totals.intervals)}</Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    {row.loas.map((l) => (
                      <Anchor key={l._id} href={l.downloadUrl} target="_blank" rel="noreferrer" size="sm">
                        {l.fileName}
                      </Anchor>
                    ))}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </StaffTable>
        </>
      )}
    </Stack>
  );
}
