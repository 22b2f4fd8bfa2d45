import { Badge, Button, Paper, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { downloadFrom } from '../../lib/upload.ts';
import { type AutomationRunStatus, useAutomationRuns, useErrorCodes, useRunAttachment } from './api.ts';

const STATUS_COLOUR: Record<AutomationRunStatus, string> = {
  pending: 'gray',
  running: 'blue',
  retrying: 'orange',
  succeeded: 'green',
  failed: 'red',
};

export function AutomationRunStatusBadge({ status }: { status: AutomationRunStatus }) {
  return (
    <Badge color={STATUS_COLOUR[status]} variant="light" data-testid="automation-run-status">
      {status}
    </Badge>
  );
}

export const when = (iso?: string) => (iso ? new Date(iso).toLocaleString('en-GB') : '—');

const took = (start?: string, end?: string) => {
  if (!start || !end) return '—';
  const seconds = Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};

/** /automation/runs: every automation run, newest first, kept current by the worker's live updates. */
export function AutomationRunsPage() {
  const { data, error, isLoading } = useAutomationRuns();
  const codes = useErrorCodes();
  const attachment = useRunAttachment();
  const [problem, setProblem] = useState<string | undefined>();
  const runs = data?.data ?? [];
  const download = async (runId: string) => {
    setProblem(undefined);
    try {
      downloadFrom((await attachment(runId)).url);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'There was a problem.');
    }
  };
  return (
    <Stack>
      <Title order={2}>Automation runs</Title>
      {problem && (
        <div role="alert" style={{ color: 'var(--mantine-color-red-7)' }}>
          {problem}
        </div>
      )}
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && runs.length === 0 && <EmptyPanel>No runs yet.</EmptyPanel>}
        {runs.length > 0 && (
          <Table striped aria-label="Automation runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Started</Table.Th>
                <Table.Th>Automation</Table.Th>
                <Table.Th>How</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Took</Table.Th>
                <Table.Th>Fetched</Table.Th>
                <Table.Th>Already held</Table.Th>
                <Table.Th>Problem</Table.Th>
                <Table.Th>Attachment</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((r) => (
                <Table.Tr key={r._id} data-run-id={r._id}>
                  <Table.Td>{when(r.startedAt ?? r.createdAt)}</Table.Td>
                  <Table.Td>{r.automationName}</Table.Td>
                  <Table.Td>{r.trigger === 'manual' ? 'By hand' : 'Scheduled'}</Table.Td>
                  <Table.Td>
                    <AutomationRunStatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>{took(r.startedAt, r.finishedAt)}</Table.Td>
                  <Table.Td data-testid="automation-run-fetched">{r.counts.fetched}</Table.Td>
                  <Table.Td>{r.counts.skipped}</Table.Td>
                  <Table.Td>
                    {r.errorCode ? (codes.data?.errorCodeMap[r.errorCode] ?? r.errorCode) : ''}
                  </Table.Td>
                  <Table.Td>
                    {r.attachment && (
                      <Button size="compact-xs" variant="subtle" onClick={() => void download(r._id)}>
                        {r.attachment.fileName}
                      </Button>
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
