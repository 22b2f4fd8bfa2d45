import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Popover,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type ChangeEvent, useState } from 'react';
import { Link } from 'react-router';
import type { ReportScopeType } from '../../../shared/reports/report-templates.ts';
import type { DataTableColumn } from '../../components/data-table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMayChange } from '../../lib/may-change.ts';
import {
  type ReportView,
  usePortfolioChoices,
  useRegenerateReport,
  useReportLink,
  useSendReport,
  useSiteChoices,
} from './api.ts';

const STATUS_COLOURS = { queued: 'gray', generating: 'blue', ready: 'green', failed: 'red' } as const;
const STATUS_LABELS = {
  queued: 'Queued',
  generating: 'Generating',
  ready: 'Ready',
  failed: 'Failed',
} as const;

/** The report's state as it changes: the worker's live messages refresh the list it is in. */
export function ReportStatusCell({ report }: { report: ReportView }) {
  const building = report.status === 'generating';
  return (
    <Group gap="xs" wrap="nowrap" data-status={report.status}>
      <Badge color={STATUS_COLOURS[report.status] ?? 'gray'} variant="light">
        {STATUS_LABELS[report.status] ?? report.status}
      </Badge>
      {building && (
        <Progress
          value={report.progress ?? 0}
          w={80}
          aria-label={`Progress of ${report.name}`}
          aria-valuenow={report.progress ?? 0}
        />
      )}
      {report.status === 'failed' && report.error && (
        <Text size="xs" c="red">
          {report.error}
        </Text>
      )}
    </Group>
  );
}

/** E-mails the built report to the addresses given: attached, or linked when it is over 10 MB. */
function SendReport({ report }: { report: ReportView }) {
  const send = useSendReport();
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string>();
  async function submit() {
    setBusy(true);
    setNote(undefined);
    try {
      const recipients = to
        .split(/[\s,;]+/)
        .map((a) => a.trim())
        .filter(Boolean);
      const out = await send(report._id, recipients);
      setNote(`Sent to ${out.sent} ${out.sent === 1 ? 'person' : 'people'}`);
      setTo('');
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Popover position="bottom-end" withArrow trapFocus>
      <Popover.Target>
        <Button size="xs" variant="subtle" aria-label={`E-mail ${report.name}`}>
          E-mail
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={280}>
          <TextInput
            label="Send to"
            description="E-mail addresses, separated by commas"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <Button size="xs" onClick={() => void submit()} loading={busy} disabled={!to.trim()}>
            Send
          </Button>
          {note && (
            <Text size="xs" role="status">
              {note}
            </Text>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Download (while a file is there) and build again (once the last build has ended). */
export function ReportActions({ report }: { report: ReportView }) {
  const link = useReportLink();
  const regenerate = useRegenerateReport();
  // Staff looking into another company may download its reports but not send or rebuild them.
  const mayChange = useMayChange();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  async function download() {
    setBusy(true);
    setFailure(undefined);
    try {
      const { url } = await link(report._id);
      // The link answers with the file as an attachment: the page stays where it is.
      window.location.assign(url);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  const building = report.status === 'queued' || report.status === 'generating';
  return (
    <Group gap="xs" wrap="nowrap">
      {report.builtGeneration ? (
        <Button size="xs" onClick={download} loading={busy} aria-label={`Download ${report.name}`}>
          Download
        </Button>
      ) : null}
      {report.builtGeneration && mayChange ? <SendReport report={report} /> : null}
      {!building && mayChange && (
        <Button
          size="xs"
          variant="subtle"
          onClick={() => void regenerate(report._id).catch((err: unknown) => setFailure(String(err)))}
          aria-label={`Generate ${report.name} again`}
        >
          Regenerate
        </Button>
      )}
      {failure && (
        <Text size="xs" c="red" role="alert">
          {failure}
        </Text>
      )}
    </Group>
  );
}

const FORMAT_LABELS = { pdf: 'PDF', xlsx: 'Excel', csv: 'CSV' } as const;

/** The history's columns: what, who, when, state, and the actions. */
export const REPORT_COLUMNS: readonly DataTableColumn<ReportView>[] = [
  {
    key: 'name',
    label: 'Report',
    value: (r) => r.name,
    render: (r) => (
      <Anchor component={Link} to={`/reports/${r._id}/download`}>
        {r.name}
      </Anchor>
    ),
  },
  { key: 'format', label: 'Format', value: (r) => FORMAT_LABELS[r.format] ?? r.format },
  { key: 'requestedBy', label: 'Requested by', value: (r) => r.requestedByName ?? '' },
  {
    key: 'createdAt',
    label: 'Requested',
    value: (r) => formatDateTime(r.createdAt),
    sortValue: (r) => r.createdAt,
  },
  {
    key: 'status',
    label: 'Status',
    value: (r) => STATUS_LABELS[r.status] ?? r.status,
    render: (r) => <ReportStatusCell report={r} />,
  },
  {
    key: 'actions',
    csv: false,
    label: 'Actions',
    value: () => '',
    sortable: false,
    render: (r) => <ReportActions report={r} />,
  },
];

const SCOPE_LABELS: Readonly<Record<ReportScopeType, string>> = {
  company: 'Whole company',
  portfolio: 'A portfolio',
  asset: 'A site',
};

/** What the scope fields bind of a report or schedule form (`useFormValues`). */
interface ScopeForm {
  field: (k: 'scopeId') => {
    value: string;
    error?: string;
    onChange: (e: ChangeEvent<HTMLSelectElement>) => void;
  };
  set: (k: 'scopeType') => (value: string) => void;
}

/**
 * What a report covers: the whole company, or one portfolio or site chosen from the caller's. Bound to the
 * form's `scopeType` and `scopeId`; the server's message on the scope shows beside it.
 */
export function ScopeFields({
  scopes,
  scopeType,
  form,
  failure,
}: {
  scopes: readonly ReportScopeType[];
  scopeType: string;
  form: ScopeForm;
  failure: { fields: Readonly<Record<string, string>> };
}) {
  const { data: portfolios } = usePortfolioChoices();
  const { data: sites } = useSiteChoices();
  const choices =
    scopeType === 'portfolio'
      ? (portfolios?.data ?? []).map((p) => ({ value: p._id, label: p.name }))
      : (sites?.data ?? []).map((s) => ({ value: s._id, label: s.siteName }));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NativeSelect
        label="Covering"
        value={scopeType}
        error={failure.fields.scopeType}
        onChange={(e) => form.set('scopeType')(e.currentTarget.value)}
        data={scopes.map((s) => ({ value: s, label: SCOPE_LABELS[s] }))}
      />
      {scopeType !== 'company' && (
        <NativeSelect
          label={scopeType === 'portfolio' ? 'Portfolio' : 'Site'}
          {...form.field('scopeId')}
          data={[{ value: '', label: 'Choose…' }, ...choices]}
        />
      )}
    </SimpleGrid>
  );
}
