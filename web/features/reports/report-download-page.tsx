import { Alert, Anchor, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  REPORT_FORMATS,
  type ReportFormat,
  type ReportScopeType,
  type SystemTemplateId,
  templateOf,
} from '../../../shared/reports/report-templates.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useMayChange } from '../../lib/may-change.ts';
import {
  type ReportView,
  usePortfolioChoices,
  useQueueReport,
  useRegenerateReport,
  useRelistReports,
  useReportLink,
  useScopeReports,
  useSiteName,
} from './api.ts';
import { useStillOnPage } from './use-still-on-page.ts';

/** A report built this long ago or less is downloaded again rather than built anew. */
const REUSE_MS = 24 * 60 * 60 * 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Wanted {
  templateId: SystemTemplateId;
  startDate: string;
  endDate: string;
  format: ReportFormat;
}

/** The period and format the address asks for: last calendar year as a PDF unless it says otherwise. */
function wantedOf(type: string, search: URLSearchParams): Wanted | string {
  const template = templateOf(type);
  if (!template) return `There is no report called "${type}".`;
  const year = new Date().getFullYear() - 1;
  const startDate = search.get('startDate') ?? `${year}-01-01`;
  const endDate = search.get('endDate') ?? `${year}-12-31`;
  const format = search.get('format') ?? 'pdf';
  if (!ISO_DATE.test(startDate) || !ISO_DATE.test(endDate))
    return 'The start and end dates must be written as YYYY-MM-DD.';
  if (!(REPORT_FORMATS as readonly string[]).includes(format))
    return `The format must be one of ${REPORT_FORMATS.join(', ')}.`;
  return { templateId: template.id, startDate, endDate, format: format as ReportFormat };
}

/** The report of the same template, period and format, still being built or built lately, newest first. */
function reusable(reports: readonly ReportView[] | undefined, wanted: Wanted, now: number) {
  return reports?.find(
    (r) =>
      r.type === wanted.templateId &&
      r.startDate === wanted.startDate &&
      r.endDate === wanted.endDate &&
      r.format === wanted.format &&
      r.status !== 'failed' &&
      (r.status !== 'ready' || now - Date.parse(r.completedAt ?? r.createdAt) <= REUSE_MS),
  );
}

function DownloadProgress({
  scopeType,
  scopeId,
  wanted,
}: {
  scopeType: ReportScopeType;
  scopeId: string;
  wanted: Wanted;
}) {
  const { data, error } = useScopeReports(scopeId);
  const queueReport = useQueueReport();
  const relist = useRelistReports();
  // The report as the API answered the request for it (queued), until the lists hold it.
  const [queued, setQueued] = useState<ReportView>();
  const regenerate = useRegenerateReport();
  const mayChange = useMayChange();
  const link = useReportLink();
  const [failure, setFailure] = useState<string>();
  const [startedAt] = useState(() => Date.now());
  const asked = useRef(false);
  const downloadedId = useRef<string | undefined>(undefined);
  const stillOnPage = useStillOnPage();
  const reports = data?.data;
  // Reports asked for on this page count whenever they were made; older ones only within the reuse window.
  const report = reports ? reusable(reports, wanted, startedAt) : undefined;
  const failed = reports?.find(
    (r) =>
      r.type === wanted.templateId &&
      r.startDate === wanted.startDate &&
      r.endDate === wanted.endDate &&
      r.format === wanted.format &&
      r.status === 'failed' &&
      Date.parse(r.createdAt) >= startedAt - 1000,
  );

  useEffect(() => {
    // Building is a change the API refuses staff looking into another company: they download what is built.
    if (!reports || report || failed || asked.current || !mayChange) return;
    asked.current = true;
    queueReport({ ...wanted, scopeType, scopeId })
      .then((answer) => {
        setQueued(answer);
        return relist();
      })
      .catch((err: unknown) => setFailure(err instanceof Error ? err.message : String(err)));
  }, [reports, report, failed, queueReport, relist, wanted, scopeType, scopeId, mayChange]);

  const ready = report?.status === 'ready' && report.builtGeneration ? report : undefined;
  async function download(r: ReportView) {
    setFailure(undefined);
    try {
      const { url } = await link(r._id);
      if (!stillOnPage()) return;
      // The link answers with the file as an attachment: the page stays where it is.
      window.location.assign(url);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
    }
  }
  useEffect(() => {
    if (!ready || downloadedId.current === ready._id) return;
    downloadedId.current = ready._id;
    void download(ready);
  });

  if (error) return <ErrorPanel error={error} />;
  if (failure)
    return (
      <Alert color="red" title="The report could not be downloaded" role="alert">
        {failure}
      </Alert>
    );
  if (failed && !report)
    return (
      <Alert color="red" title="The report could not be built" role="alert">
        <Stack gap="xs">
          <Text size="sm">{failed.error ?? 'Something went wrong while it was built.'}</Text>
          {mayChange && (
            <Group>
              <Button
                size="xs"
                onClick={() =>
                  void regenerate(failed._id).catch((err: unknown) =>
                    setFailure(err instanceof Error ? err.message : String(err)),
                  )
                }
              >
                Try again
              </Button>
            </Group>
          )}
        </Stack>
      </Alert>
    );
  if (ready)
    return (
      <Stack gap="xs" data-status="ready">
        <Text>
          {ready.name} is ready; its download has started.
          {ready.pages ? ` ${ready.pages} pages.` : ''}
        </Text>
        <Group>
          <Button onClick={() => void download(ready)} aria-label={`Download ${ready.name}`}>
            Download again
          </Button>
        </Group>
      </Stack>
    );
  if (reports && !report && !failed && !mayChange)
    return (
      <Alert color="gray" title="Not built in the last day" role="status">
        You can read this company's data but not build reports in it, so only a report built lately is
        downloaded here.
      </Alert>
    );
  const shown = report ?? queued;
  const progress = shown?.status === 'generating' ? (shown.progress ?? 0) : 0;
  return (
    <Stack gap="xs" data-status={shown?.status ?? 'asking'}>
      <Text>
        {shown?.status === 'generating'
          ? `Building ${shown.name}…`
          : 'The report is queued to be built. It downloads as soon as it is ready.'}
      </Text>
      <Progress value={progress} animated aria-label="Progress of the report" aria-valuenow={progress} />
    </Stack>
  );
}

function ReportDownload({
  scopeType,
  scopeId,
  scopeName,
  back,
}: {
  scopeType: ReportScopeType;
  scopeId: string;
  scopeName: string | undefined;
  back: { to: string; label: string };
}) {
  const { reportType = '' } = useParams();
  const [search] = useSearchParams();
  const wanted = wantedOf(reportType, search);
  const template = templateOf(reportType);
  const refused =
    typeof wanted === 'string'
      ? wanted
      : template && !template.scopes.includes(scopeType)
        ? `The ${template.name} report covers ${template.scopes.join(' or ')}, not one ${scopeType === 'asset' ? 'site' : scopeType}.`
        : undefined;
  return (
    <Stack gap="md" maw={640}>
      <Group justify="space-between">
        <Title order={2}>
          {template?.name ?? 'Report'}
          {scopeName ? `: ${scopeName}` : ''}
        </Title>
        <Anchor component={Link} to={back.to}>
          {back.label}
        </Anchor>
      </Group>
      {typeof wanted !== 'string' && (
        <Text size="sm" c="dimmed">
          {wanted.startDate} to {wanted.endDate}, {wanted.format.toUpperCase()}
        </Text>
      )}
      {refused || typeof wanted === 'string' ? (
        <Alert color="red" title="This report cannot be made" role="alert">
          {refused}
        </Alert>
      ) : (
        <DownloadProgress scopeType={scopeType} scopeId={scopeId} wanted={wanted} />
      )}
    </Stack>
  );
}

/** /portfolios/:id/reports/:reportType/download: the portfolio's report built (or one built lately) and downloaded. */
export function PortfolioReportDownloadPage() {
  const { id = '' } = useParams();
  const { data, isLoading } = usePortfolioChoices();
  if (isLoading) return <LoadingPanel />;
  const name = data?.data.find((p) => p._id === id)?.name;
  return (
    <ReportDownload
      scopeType="portfolio"
      scopeId={id}
      scopeName={name}
      back={{ to: `/portfolios/${id}/reports`, label: 'Back to the portfolio' }}
    />
  );
}

/** /assets/:id/reports/:reportType/download: the same for one site. */
export function SiteReportDownloadPage() {
  const { id = '' } = useParams();
  const { data: site } = useSiteName(id);
  return (
    <ReportDownload
      scopeType="asset"
      scopeId={id}
      scopeName={site?.siteName}
      back={{ to: `/assets/${id}/reports`, label: 'Back to the site' }}
    />
  );
}
