import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { canChange } from '../../../shared/access/route-access.ts';
import { GROUPING_NAMES, MEASURE_NAMES, PERIOD_NAMES } from '../../../shared/reports/custom-templates.ts';
import type { SystemTemplate } from '../../../shared/reports/report-templates.ts';
import { COMPANY_USERS } from '../../../shared/system/permission-sets.ts';
import type { DataTableColumn } from '../../components/data-table.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { QueryPanel, type QueryState } from '../../components/query-panel.tsx';
import { useSession } from '../../lib/app-context.tsx';
import {
  type CustomTemplateView,
  useCustomTemplates,
  useGenerateCustomReport,
  useSystemTemplates,
} from './api.ts';

const SCOPE_NAMES = { company: 'Company', portfolio: 'Portfolio', asset: 'Site' } as const;

/** What a custom template's sections show, in a line: "Key figures of Cost (£); Chart of Energy use by month". */
export function sectionsLine(t: Pick<CustomTemplateView, 'sections'>): string {
  return t.sections
    .map((s) =>
      s.kind === 'text'
        ? `Text "${s.title}"`
        : `${s.title} (${[s.measure ? MEASURE_NAMES[s.measure] : '', s.grouping ? GROUPING_NAMES[s.grouping].toLowerCase() : ''].filter(Boolean).join(', ')})`,
    )
    .join('; ');
}

const systemColumns = (mayGenerate: boolean): readonly DataTableColumn<SystemTemplate>[] => [
  { key: 'name', label: 'Report', value: (t) => t.name },
  { key: 'description', label: 'What it holds', value: (t) => t.description },
  {
    key: 'scopes',
    label: 'Covers',
    value: (t) => t.scopes.map((s) => SCOPE_NAMES[s]).join(', '),
  },
  {
    key: 'use',
    label: 'Actions',
    value: () => '',
    sortable: false,
    render: (t) =>
      mayGenerate && (
        <Anchor component={Link} to={`/reports/generate?template=${t.id}`} aria-label={`Generate ${t.name}`}>
          Generate
        </Anchor>
      ),
  },
];

/** Builds a company template's report with its own scope and period; the history follows the build. */
function GenerateCustom({ template }: { template: CustomTemplateView }) {
  const generate = useGenerateCustomReport();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    setNote(undefined);
    try {
      const report = await generate({ reportTemplateId: template._id, format: 'pdf' });
      setNote(`${report.name} is queued`);
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" loading={busy} onClick={() => void run()} aria-label={`Generate ${template.name}`}>
        Generate PDF
      </Button>
      {note && (
        <Text size="xs" role="status">
          {note}
        </Text>
      )}
    </Group>
  );
}

const customColumns = (
  mayEdit: boolean,
  mayGenerate: boolean,
): readonly DataTableColumn<CustomTemplateView>[] => [
  { key: 'name', label: 'Template', value: (t) => t.name },
  { key: 'scope', label: 'Covers', value: (t) => SCOPE_NAMES[t.scopeType] },
  { key: 'period', label: 'Period', value: (t) => PERIOD_NAMES[t.period] },
  { key: 'sections', label: 'Sections', value: (t) => sectionsLine(t) },
  {
    key: 'actions',
    label: 'Actions',
    value: () => '',
    sortable: false,
    render: (t) => (
      <Group gap="xs" wrap="nowrap">
        {mayGenerate && <GenerateCustom template={t} />}
        {mayEdit && (
          <Anchor component={Link} to={`/reports/builder?template=${t._id}`} aria-label={`Edit ${t.name}`}>
            Edit
          </Anchor>
        )}
      </Group>
    ),
  },
];

/**
 * The page as its two reads give it; `mayEdit` is whether the caller may write the company's templates,
 * `mayGenerate` whether they may build reports (not staff looking into another company).
 */
export function ReportTemplatesView({
  system,
  custom,
  mayEdit,
  mayGenerate = true,
}: {
  system: QueryState<{ data: SystemTemplate[] }>;
  custom: QueryState<{ data: CustomTemplateView[] }>;
  mayEdit: boolean;
  mayGenerate?: boolean;
}) {
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Report templates</Title>
        <Group>
          {mayEdit && (
            <Anchor component={Link} to="/reports/builder">
              New template
            </Anchor>
          )}
          <Anchor component={Link} to="/reports/history">
            History
          </Anchor>
        </Group>
      </Group>
      <Title order={4}>Standard reports</Title>
      <QueryPanel query={system} errorTitle="The standard reports could not be loaded">
        {(d) => (
          <DataTable
            label="Standard reports"
            columns={systemColumns(mayGenerate)}
            rows={d.data}
            rowKey={(t) => t.id}
            empty="No standard reports."
          />
        )}
      </QueryPanel>
      <Title order={4}>Your company's templates</Title>
      <QueryPanel
        query={custom}
        errorTitle="Your company's templates could not be loaded"
        isEmpty={(d) => d.data.length === 0}
        empty={
          mayEdit
            ? 'No templates yet: build one with "New template".'
            : 'No templates yet: a company user can build them.'
        }
      >
        {(d) => (
          <DataTable
            label="Your company's templates"
            columns={customColumns(mayEdit, mayGenerate)}
            rows={d.data}
            rowKey={(t) => t._id}
            empty="No templates yet."
            initialSort={{ key: 'name', direction: 'asc' }}
          />
        )}
      </QueryPanel>
    </Stack>
  );
}

/** /reports/templates: the standard reports and the company's own templates, each ready to generate. */
export function ReportTemplatesPage() {
  const { access } = useSession();
  const system = useSystemTemplates();
  const custom = useCustomTemplates();
  return (
    <ReportTemplatesView
      system={system}
      custom={custom}
      mayEdit={canChange(COMPANY_USERS, access)}
      mayGenerate={canChange('*', access)}
    />
  );
}
