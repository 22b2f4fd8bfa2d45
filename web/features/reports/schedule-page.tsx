import {
  Anchor,
  Badge,
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { MONTH_NAMES, WEEKDAY_NAMES } from '../../../shared/reports/calendar-names.ts';
import {
  DEFAULT_TIME_ZONE,
  describeTiming,
  SCHEDULE_FREQUENCIES,
  type ScheduleFrequency,
} from '../../../shared/reports/report-schedule.ts';
import {
  REPORT_FORMATS,
  type ReportFormat,
  type ReportScopeType,
  type SystemTemplateId,
} from '../../../shared/reports/report-templates.ts';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { ErrorPanel } from '../../components/page-state.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { useFormValues } from '../../lib/use-form-values.ts';
import {
  type ScheduleBody,
  type ScheduleView,
  useCreateSchedule,
  useCustomTemplates,
  useDeleteSchedule,
  useRecipientChoices,
  useSchedules,
  useSendScheduleNow,
  useSystemTemplates,
  useUpdateSchedule,
} from './api.ts';
import { ScopeFields } from './report-parts.tsx';
import { offeredScope, scopeIdOf, useReportSubmit } from './report-submit.ts';

const FREQUENCY_LABELS: Readonly<Record<ScheduleFrequency, string>> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly (Jan, Apr, Jul, Oct)',
  yearly: 'Yearly',
};
const FORMAT_LABELS = { pdf: 'PDF', xlsx: 'Excel workbook (XLSX)', csv: 'CSV' } as const;

const addressesOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** The form of a new scheduled report: which report, for what, to whom, and when on whose clock. */
function ScheduleForm() {
  const { data: templates } = useSystemTemplates();
  const create = useCreateSchedule();
  const { failure, busy, done: saved, run } = useReportSubmit();
  const [members, setMembers] = useState<string[]>([]);
  const { values, field, set } = useFormValues(
    {
      name: '',
      templateId: 'portfolio-summary',
      scopeType: 'company',
      scopeId: '',
      format: 'pdf',
      recipients: '',
      frequency: 'monthly',
      dayOfWeek: '1',
      dayOfMonth: '1',
      month: '1',
      time: '07:00',
      timeZone: DEFAULT_TIME_ZONE,
    },
    failure.fields,
  );
  const all = templates?.data ?? [];
  const { data: own } = useCustomTemplates();
  const template = all.find((t) => t.id === values.templateId);
  // A company's own template is named `own:{id}` among the system ones; it may cover any scope.
  const ownId = values.templateId.startsWith('own:') ? values.templateId.slice(4) : undefined;
  const scopes: readonly ReportScopeType[] = ownId
    ? ['company', 'portfolio', 'asset']
    : (template?.scopes ?? ['company']);
  const scopeType = offeredScope(scopes, values.scopeType);
  const frequency = values.frequency as ScheduleFrequency;
  const { data: readers } = useRecipientChoices(scopeType, values.scopeId);
  const memberChoices = (readers?.data ?? []).map((m) => ({
    value: m.email,
    label: m.name === m.email ? m.email : `${m.name} (${m.email})`,
  }));
  // A member picked for one scope who may not read the next is dropped, not sent a report of it.
  const pickable = new Set(memberChoices.map((c) => c.value));
  const picked = readers ? members.filter((m) => pickable.has(m)) : members;

  const submit = () =>
    run(async () => {
      const body: ScheduleBody = {
        ...(values.name.trim() ? { name: values.name.trim() } : {}),
        ...(ownId ? { reportTemplateId: ownId } : { templateId: values.templateId as SystemTemplateId }),
        scopeType,
        ...scopeIdOf(scopeType, values.scopeId),
        format: values.format as ReportFormat,
        recipients: [...new Set([...picked, ...addressesOf(values.recipients)])],
        frequency,
        dayOfWeek: Number(values.dayOfWeek),
        dayOfMonth: Number(values.dayOfMonth),
        month: Number(values.month),
        time: values.time,
        timeZone: values.timeZone.trim() || DEFAULT_TIME_ZONE,
      };
      const schedule = await create(body);
      setMembers([]);
      set('recipients')('');
      return schedule.nextRunAt ? formatDateTime(schedule.nextRunAt) : 'soon';
    });

  return (
    <FormPanel title="Schedule a report" label="Schedule a report" failure={failure} onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label="Name" placeholder={template?.name} {...field('name')} />
        <NativeSelect
          label="Template"
          {...field('templateId')}
          error={failure.fields.templateId ?? failure.fields.reportTemplateId}
          data={[
            ...all.map((t) => ({ value: t.id, label: t.name })),
            ...(own?.data ?? []).map((t) => ({ value: `own:${t._id}`, label: `${t.name} (own template)` })),
          ]}
        />
        <NativeSelect
          label="Format"
          {...field('format')}
          data={REPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] }))}
        />
      </SimpleGrid>
      <ScopeFields scopes={scopes} scopeType={scopeType} form={{ field, set }} failure={failure} />
      <MultiSelect
        label="Members"
        description="Colleagues who may read this report"
        placeholder={memberChoices.length > 0 ? 'Choose members' : undefined}
        data={memberChoices}
        value={picked}
        onChange={setMembers}
        searchable
        nothingFoundMessage="No member may read this scope"
        clearable
      />
      <TextInput
        label="Other addresses"
        description="E-mail addresses of people outside the company, separated by commas"
        {...field('recipients')}
        error={
          failure.fields.recipients ??
          Object.entries(failure.fields).find(([k]) => k.startsWith('recipients.'))?.[1]
        }
      />
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <NativeSelect
          label="Frequency"
          {...field('frequency')}
          data={SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
        />
        {frequency === 'weekly' ? (
          <NativeSelect
            label="On"
            {...field('dayOfWeek')}
            data={WEEKDAY_NAMES.map((d, i) => ({ value: String(i + 1), label: d }))}
          />
        ) : (
          <NativeSelect
            label="Day of the month"
            {...field('dayOfMonth')}
            data={Array.from({ length: 31 }, (_, i) => ({
              value: String(i + 1),
              label: i + 1 > 28 ? `${i + 1} (or the last day)` : String(i + 1),
            }))}
          />
        )}
        {frequency === 'yearly' && (
          <NativeSelect
            label="Month"
            {...field('month')}
            data={MONTH_NAMES.map((m, i) => ({ value: String(i + 1), label: m }))}
          />
        )}
        <TextInput label="Time" type="time" {...field('time')} />
        <TextInput label="Time zone" {...field('timeZone')} />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Each mail carries the report for the period just ended: the week, month, quarter or twelve months
        before it is sent.
      </Text>
      <Group>
        <Button type="submit" loading={busy}>
          Schedule
        </Button>
        {saved && (
          <Text size="sm" role="status">
            Scheduled: the first report goes out {saved}.
          </Text>
        )}
      </Group>
    </FormPanel>
  );
}

/** Send now, pause or resume, and delete. */
function ScheduleActions({ schedule }: { schedule: ScheduleView }) {
  const sendNow = useSendScheduleNow();
  const update = useUpdateSchedule();
  const remove = useDeleteSchedule();
  const [note, setNote] = useState<string>();
  const label = schedule.name ?? schedule.templateId ?? 'scheduled report';
  const run = (work: () => Promise<string | undefined>) => {
    setNote(undefined);
    work()
      .then(setNote)
      .catch((err: unknown) => setNote(err instanceof Error ? err.message : String(err)));
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        aria-label={`Send ${label} now`}
        onClick={() =>
          run(async () => {
            const out = await sendNow(schedule._id);
            return `Sending ${out.startDate} to ${out.endDate} to ${out.recipients.length}`;
          })
        }
      >
        Send now
      </Button>
      <Button
        size="xs"
        variant="subtle"
        aria-label={`${schedule.paused ? 'Resume' : 'Pause'} ${label}`}
        onClick={() =>
          run(async () => {
            await update(schedule._id, { paused: !schedule.paused });
            return undefined;
          })
        }
      >
        {schedule.paused ? 'Resume' : 'Pause'}
      </Button>
      <Button
        size="xs"
        variant="subtle"
        color="red"
        aria-label={`Delete ${label}`}
        onClick={() =>
          run(async () => {
            await remove(schedule._id);
            return undefined;
          })
        }
      >
        Delete
      </Button>
      {note && (
        <Text size="xs" role="status">
          {note}
        </Text>
      )}
    </Group>
  );
}

const COLUMNS: readonly DataTableColumn<ScheduleView>[] = [
  { key: 'name', label: 'Report', value: (s) => s.name ?? s.templateId ?? '' },
  { key: 'timing', label: 'When', value: (s) => describeTiming(s) },
  { key: 'recipients', label: 'Recipients', value: (s) => s.recipients.join(', ') },
  {
    key: 'nextRunAt',
    label: 'Next',
    value: (s) => (s.paused ? 'Paused' : s.nextRunAt ? formatDateTime(s.nextRunAt) : ''),
    sortValue: (s) => s.nextRunAt ?? '',
  },
  {
    key: 'last',
    label: 'Last sent',
    value: (s) => (s.lastRunAt ? formatDateTime(s.lastRunAt) : ''),
    render: (s) =>
      s.lastStatus === 'failed' ? (
        <Badge color="red" variant="light" title={s.lastError}>
          Failed
        </Badge>
      ) : (
        <Text size="sm">{s.lastRunAt ? formatDateTime(s.lastRunAt) : 'Not yet'}</Text>
      ),
  },
  {
    key: 'actions',
    label: 'Actions',
    value: () => '',
    sortable: false,
    render: (s) => <ScheduleActions schedule={s} />,
  },
];

/** /reports/schedule: reports sent by e-mail on a timetable, and the form for a new one. */
export function ReportSchedulePage() {
  const { data, error, isLoading } = useSchedules();
  const mayChange = useMayChange();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Scheduled reports</Title>
        <Anchor component={Link} to="/reports/history">
          Report history
        </Anchor>
      </Group>
      {mayChange && <ScheduleForm />}
      {error ? (
        <ErrorPanel error={error} />
      ) : (
        <DataTable
          label="Scheduled reports"
          columns={mayChange ? COLUMNS : COLUMNS.filter((c) => c.key !== 'actions')}
          rows={data?.data}
          rowKey={(s) => s._id}
          loading={isLoading}
          empty="No scheduled reports yet."
        />
      )}
    </Stack>
  );
}
