import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { templateOf } from '../../../shared/reports/report-templates.ts';
import { DataTable } from '../../components/data-table.tsx';
import { ErrorPanel } from '../../components/page-state.tsx';
import { useMayChange } from '../../lib/may-change.ts';
import { useReportHistory, useScopeReports, useSiteName } from './api.ts';
import { ReportForm } from './report-form.tsx';
import { REPORT_COLUMNS } from './report-parts.tsx';

/** /reports: the form that asks for a report, and the latest reports under it. */
export function ReportsPage() {
  const { data, error, isLoading } = useReportHistory();
  // Generating writes a report into the company, which staff looking in may not do.
  const mayGenerate = useMayChange();
  // The templates page links here with the template to use.
  const [search] = useSearchParams();
  const chosen = templateOf(search.get('template') ?? '');
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Reports</Title>
        <Group>
          <Anchor component={Link} to="/reports/templates">
            Templates
          </Anchor>
          <Anchor component={Link} to="/reports/dynamic">
            Explore figures
          </Anchor>
          <Anchor component={Link} to="/reports/builder">
            Build your own
          </Anchor>
          <Anchor component={Link} to="/reports/history">
            History
          </Anchor>
        </Group>
      </Group>
      {mayGenerate && <ReportForm templateId={chosen?.id} />}
      {error ? (
        <ErrorPanel error={error} />
      ) : (
        <DataTable
          label="Recent reports"
          columns={REPORT_COLUMNS}
          rows={data?.data.slice(0, 10)}
          rowKey={(r) => r._id}
          loading={isLoading}
          empty="No reports yet: generate one above."
        />
      )}
    </Stack>
  );
}

/** /reports/history: every report the caller may read, newest first, its state kept live. */
export function ReportHistoryPage() {
  const { data, error, isLoading } = useReportHistory();
  const mayGenerate = useMayChange();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Report history</Title>
        {mayGenerate && (
          <Anchor component={Link} to="/reports">
            Generate a report
          </Anchor>
        )}
      </Group>
      {error ? (
        <ErrorPanel error={error} />
      ) : (
        <DataTable
          label="Reports"
          columns={REPORT_COLUMNS}
          rows={data?.data}
          rowKey={(r) => r._id}
          loading={isLoading}
          empty="No reports yet."
          csvFilename="reports.csv"
        />
      )}
    </Stack>
  );
}

/** /assets/:id/reports: the site's reports and the form for a new one. */
export function SiteReportsPage() {
  const { id = '' } = useParams();
  const { data: site } = useSiteName(id);
  const { data, error, isLoading } = useScopeReports(id);
  const mayGenerate = useMayChange();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{site ? `${site.siteName}: reports` : 'Site reports'}</Title>
        <Anchor component={Link} to={`/assets/${id}/overview`}>
          Back to the site
        </Anchor>
      </Group>
      {mayGenerate && <ReportForm site={id} />}
      {error ? (
        <ErrorPanel error={error} />
      ) : (
        <DataTable
          label="Site reports"
          columns={REPORT_COLUMNS}
          rows={data?.data}
          rowKey={(r) => r._id}
          loading={isLoading}
          empty="No reports of this site yet."
        />
      )}
    </Stack>
  );
}
