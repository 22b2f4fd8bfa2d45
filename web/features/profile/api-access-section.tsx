import { Alert, Button, Code, CopyButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatCount, formatDate } from '../../lib/format.ts';
import {
  type ApiUsage,
  errorMessage,
  type IssuedKey,
  isMissingRoute,
  useApiUsage,
  useEnableApi,
  useIssueApiKey,
} from './profile-api.ts';

function NewKey({ issued, onDone }: { issued: IssuedKey; onDone: () => void }) {
  return (
    <Alert color="yellow" title="Your new API key" role="status">
      <Stack gap="xs">
        <Text size="sm">{issued.message ?? 'Copy this key now: it is not shown again.'}</Text>
        <Code block data-testid="api-key">
          {issued.key}
        </Code>
        <Group gap="xs">
          <CopyButton value={issued.key}>
            {({ copied, copy }) => (
              <Button size="xs" color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            I have copied it
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function Usage({ usage }: { usage: ApiUsage }) {
  const row = (label: string, value: string) => (
    <Table.Tr key={label}>
      <Table.Th w={220}>{label}</Table.Th>
      <Table.Td>{value}</Table.Td>
    </Table.Tr>
  );
  return (
    <Table>
      <Table.Tbody>
        {row(
          'Calls limit per period',
          `${formatCount(usage.plan.callsPerPeriod)} every ${usage.plan.periodDays} days`,
        )}
        {row('Rate limit per second', formatCount(usage.plan.ratePerSecond))}
        {row(
          'Calls this period',
          `${formatCount(usage.callsThisPeriod)}${usage.remaining !== undefined ? ` (${formatCount(usage.remaining)} left)` : ''}`,
        )}
        {usage.resetsAt && row('Period resets', formatDate(usage.resetsAt))}
        {row(
          'API key',
          usage.key
            ? `${usage.key.prefix}…${usage.key.createdAt ? ` (created ${formatDate(usage.key.createdAt)})` : ''}`
            : 'No key yet',
        )}
      </Table.Tbody>
    </Table>
  );
}

/** API access: turn it on, make or replace the key (shown once, with a copy button), see the usage. */
export function ApiAccessSection() {
  const { data, error, isLoading } = useApiUsage();
  const enableApi = useEnableApi();
  const issueKey = useIssueApiKey();
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      showToast(errorMessage(e), 'error');
    } finally {
      setBusy(false);
    }
  };
  const enable = () =>
    act(async () => {
      await enableApi();
    });
  const issue = () =>
    act(async () => {
      setIssued(await issueKey());
      setConfirming(false);
    });

  let body: ReactNode;
  if (isLoading) body = <LoadingPanel />;
  else if (isMissingRoute(error)) body = <Text c="dimmed">API access is not offered yet.</Text>;
  else if (error) body = <ErrorPanel error={error} />;
  else if (data && !data.enabled) {
    body = (
      <Group>
        <Text size="sm">API access is off for your account.</Text>
        <Button onClick={enable} loading={busy}>
          Turn on API access
        </Button>
      </Group>
    );
  } else if (data) {
    body = (
      <Stack>
        {issued && <NewKey issued={issued} onDone={() => setIssued(null)} />}
        <Usage usage={data} />
        <Text size="xs" c="dimmed">
          Usage is updated every 1-2 hours.
        </Text>
        {confirming ? (
          <Group>
            <Text size="sm">The current key stops working as soon as a new one is made.</Text>
            <Button color="red" onClick={issue} loading={busy}>
              Replace the key
            </Button>
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </Group>
        ) : (
          <Group>
            <Button onClick={data.key ? () => setConfirming(true) : issue} loading={busy}>
              {data.key ? 'Replace API key' : 'Create API key'}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>API access</Title>
        {body}
      </Stack>
    </Paper>
  );
}
