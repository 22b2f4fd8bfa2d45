import {
  Button,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import {
  useConnectorSuppliers,
  useConnectors,
  useRemovePortalLogin,
  useSetPortalLogin,
  useStartRun,
} from './api.ts';
import { RunStatusBadge } from './connector-pages.tsx';

const messageOf = (err: unknown) =>
  err instanceof Error ? err.message : 'There was a problem with submitting.';

/** /connectors/manage: set up a supplier-portal login (the password goes in, never comes back) and run it. */
function ConnectorManageContent() {
  const companyId = useSession().company._id;
  const connectors = useConnectors();
  const suppliers = useConnectorSuppliers();
  const setLogin = useSetPortalLogin(companyId);
  const removeLogin = useRemovePortalLogin(companyId);
  const startRun = useStartRun();
  const [supplierId, setSupplierId] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [enabled, setEnabled] = useState(true);
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const options = (suppliers.data?.data ?? [])
    .filter((s) => s.scraperEnabled)
    .map((s) => ({ value: s._id, label: s.name }));

  const save = async () => {
    if (!supplierId) return;
    setBusy(true);
    setProblem(undefined);
    try {
      await setLogin(supplierId, { username, enabled, ...(password ? { password } : {}) });
      setPassword('');
    } catch (err) {
      setProblem(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const run = async (id: string) => {
    setProblem(undefined);
    try {
      await startRun(id);
    } catch (err) {
      setProblem(messageOf(err));
    }
  };

  return (
    <Stack>
      <Title order={2}>Portal logins</Title>
      <Paper
        withBorder
        p="md"
        component="form"
        aria-label="Portal login"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack>
          <Select label="Supplier" data={options} value={supplierId} onChange={setSupplierId} required />
          <TextInput
            label="User name"
            value={username}
            onChange={(e) => setUsername(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label="Password"
            description="Kept encrypted; leave empty to keep the one set before."
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="new-password"
          />
          <Switch
            label="Fetch bills every day"
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />
          {problem && (
            <div role="alert" style={{ color: 'var(--mantine-color-red-7)' }}>
              {problem}
            </div>
          )}
          <Group>
            <Button type="submit" loading={busy} disabled={!supplierId || !username}>
              Save login
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        {connectors.isLoading && <LoadingPanel />}
        {connectors.error && <ErrorPanel error={connectors.error} />}
        {connectors.data?.data.length === 0 && <EmptyPanel>No portal logins yet.</EmptyPanel>}
        {(connectors.data?.data.length ?? 0) > 0 && (
          <Table aria-label="Portal logins">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Supplier</Table.Th>
                <Table.Th>User name</Table.Th>
                <Table.Th>Password</Table.Th>
                <Table.Th>Last run</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {connectors.data?.data.map((c) => (
                <Table.Tr key={c.supplierId} data-supplier={c.supplierName}>
                  <Table.Td>{c.supplierName}</Table.Td>
                  <Table.Td>{c.username}</Table.Td>
                  <Table.Td>
                    {c.status === 'wrong-password'
                      ? 'Refused by the portal'
                      : c.passwordSet
                        ? 'Set'
                        : 'Not set'}
                  </Table.Td>
                  <Table.Td>{c.lastRun ? <RunStatusBadge status={c.lastRun.status} /> : 'Never'}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="end">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => {
                          setSupplierId(c.supplierId);
                          setUsername(c.username);
                          setEnabled(c.enabled);
                        }}
                      >
                        Edit
                      </Button>
                      <Button size="xs" onClick={() => void run(c.supplierId)}>
                        Run now
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() => void removeLogin(c.supplierId)}
                      >
                        Remove
                      </Button>
                    </Group>
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

export function ConnectorManagePage() {
  return (
    <ChangesOnly>
      <ConnectorManageContent />
    </ChangesOnly>
  );
}
