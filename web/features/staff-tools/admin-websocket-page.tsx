import { Alert, Button, Group, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useBroadcast, useCompanyChoices, useLiveConnections } from './api.ts';
import { StaffTable } from './staff-table.tsx';

/** /admin/tools/websocket: open live connections by company and user, and a test broadcast. */
export function AdminWebsocketPage() {
  const { data, error, isLoading } = useLiveConnections();
  const companies = useCompanyChoices();
  const broadcast = useBroadcast();
  const [companyId, setCompanyId] = useState<string | null>(null);
  const [message, setMessage] = useState('Test message from Voltfolio staff');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const send = async () => {
    if (!companyId) return;
    try {
      const { delivered } = await broadcast({ companyId, message });
      setOutcome({ ok: true, text: `Sent to ${delivered} open connection${delivered === 1 ? '' : 's'}.` });
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <Stack>
      <Title order={2}>Live connections</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem getting the connections." />}
      {data && data.data.length === 0 && <EmptyPanel>No one is connected just now.</EmptyPanel>}
      {data && data.data.length > 0 && (
        <StaffTable
          label="Live connections"
          head={
            <>
              <Table.Th>Company</Table.Th>
              <Table.Th>User</Table.Th>
              <Table.Th ta="right">Connections</Table.Th>
              <Table.Th>Connected since</Table.Th>
            </>
          }
        >
          {data.data.flatMap((c) =>
            c.users.map((u) => (
              <Table.Tr key={`${c.companyId}${u.sub}`}>
                <Table.Td>{c.companyName}</Table.Td>
                <Table.Td>{u.sub}</Table.Td>
                <Table.Td ta="right">{u.connections}</Table.Td>
                <Table.Td>{formatDateTime(u.since)}</Table.Td>
              </Table.Tr>
            )),
          )}
        </StaffTable>
      )}
      <Title order={3}>Test broadcast</Title>
      <Group align="flex-end">
        <Select
          label="Company"
          searchable
          data={(companies.data?.data ?? []).map((c) => ({ value: c._id, label: c.name }))}
          value={companyId}
          onChange={setCompanyId}
        />
        <TextInput
          label="Message"
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          w={360}
        />
        <Button onClick={() => void send()} disabled={!companyId || message.trim() === ''}>
          Send test broadcast
        </Button>
      </Group>
      {outcome && (
        <Alert color={outcome.ok ? 'teal' : 'red'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </Alert>
      )}
    </Stack>
  );
}
