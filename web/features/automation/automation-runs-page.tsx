import { Button } from '@mantine/core';
import { useState } from 'react';
import {
  countRunColumns,
  leadingRunColumns,
  RunBadge,
  type RunColumn,
  RunsPage,
} from '../../components/runs-table.tsx';
import { downloadFrom } from '../../lib/upload.ts';
import {
  type AutomationRun,
  type AutomationRunStatus,
  useAutomationRuns,
  useErrorCodes,
  useRunAttachment,
} from './api.ts';

const STATUS_COLOUR: Record<AutomationRunStatus, string> = {
  pending: 'gray',
  running: 'blue',
  retrying: 'orange',
  succeeded: 'green',
  failed: 'red',
};

export function AutomationRunStatusBadge({ status }: { status: AutomationRunStatus }) {
  return <RunBadge status={status} colours={STATUS_COLOUR} testId="automation-run-status" />;
}

const took = (start?: string, end?: string) => {
  if (!start || !end) return '—';
  const seconds = Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};

/** /automation/runs: every automation run, newest first, kept current by the worker's live updates. */
export function AutomationRunsPage() {
  const read = useAutomationRuns();
  const codes = useErrorCodes();
  const attachment = useRunAttachment();
  const [problem, setProblem] = useState<string | undefined>();
  const download = async (runId: string) => {
    setProblem(undefined);
    try {
      downloadFrom((await attachment(runId)).url);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'There was a problem.');
    }
  };
  const columns: RunColumn<AutomationRun>[] = [
    ...leadingRunColumns<AutomationRun>({ header: 'Automation', cell: (r) => r.automationName }, (r) => (
      <AutomationRunStatusBadge status={r.status} />
    )),
    { header: 'Took', cell: (r) => took(r.startedAt, r.finishedAt) },
    ...countRunColumns<AutomationRun>('automation-run-fetched'),
    {
      header: 'Problem',
      cell: (r) => (r.errorCode ? (codes.data?.errorCodeMap[r.errorCode] ?? r.errorCode) : ''),
    },
    {
      header: 'Attachment',
      cell: (r) =>
        r.attachment && (
          <Button size="compact-xs" variant="subtle" onClick={() => void download(r._id)}>
            {r.attachment.fileName}
          </Button>
        ),
    },
  ];
  return (
    <RunsPage
      title="Automation runs"
      read={read}
      columns={columns}
      notice={
        problem && (
          <div role="alert" style={{ color: 'var(--mantine-color-red-7)' }}>
            {problem}
          </div>
        )
      }
    />
  );
}
