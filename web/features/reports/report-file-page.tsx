import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { QueryPanel, type QueryState } from '../../components/query-panel.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { type ReportView, useRegenerateReport, useReport, useReportLink } from './api.ts';
import { ReportPageHeading } from './report-page-heading.tsx';
import { useStillOnPage } from './use-still-on-page.ts';

const FORMAT_NAMES = { pdf: 'PDF', xlsx: 'Excel workbook', csv: 'CSV' } as const;

/** One report's state: waiting, being built, failed (with a retry), or ready with its file. */
export function ReportFileView({
  report,
  onDownload,
  onRetry,
  failure,
}: {
  report: ReportView;
  onDownload: () => void;
  onRetry?: () => void;
  failure?: string;
}) {
  const building = report.status === 'queued' || report.status === 'generating';
  const progress = report.status === 'generating' ? (report.progress ?? 0) : 0;
  return (
    <Stack gap="sm" data-status={report.status}>
      <Text size="sm" c="dimmed">
        {report.startDate} to {report.endDate} · {FORMAT_NAMES[report.format] ?? report.format} · asked for by{' '}
        {report.requestedByName ?? 'a member of the company'} on {formatDateTime(report.createdAt)}
      </Text>
      {building && (
        <>
          <Text>
            {report.status === 'generating'
              ? `Building the report…`
              : 'The report is queued to be built. It downloads as soon as it is ready.'}
          </Text>
          <Progress value={progress} animated aria-label="Progress of the report" aria-valuenow={progress} />
        </>
      )}
      {report.status === 'failed' && (
        <Alert color="red" title="The report could not be built" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{report.error ?? 'Something went wrong while it was built.'}</Text>
            {onRetry && (
              <Button size="xs" onClick={onRetry}>
                Try again
              </Button>
            )}
          </Stack>
        </Alert>
      )}
      {report.builtGeneration ? (
        <Group>
          <Button onClick={onDownload} aria-label={`Download ${report.name}`}>
            Download
          </Button>
          {report.pages ? <Text size="sm">{report.pages} pages</Text> : null}
        </Group>
      ) : null}
      {failure && (
        <Alert color="red" title="The report could not be downloaded" role="alert">
          {failure}
        </Alert>
      )}
    </Stack>
  );
}

/** The page's frame around a report's read: its name, the way back, and the link to its charts. */
export function ReportFileFrame({
  id,
  query,
  children,
}: {
  id: string;
  query: QueryState<ReportView>;
  children: (report: ReportView) => ReactNode;
}) {
  return (
    <Stack gap="md" maw={720}>
      <ReportPageHeading
        title={query.data?.name ?? 'Report'}
        other={{ to: `/reports/${id}/chart`, label: 'Charts' }}
      />
      <QueryPanel query={query} errorTitle="This report could not be loaded">
        {children}
      </QueryPanel>
    </Stack>
  );
}

/**
 * /reports/:id/download: the page a report's link leads to (from the history or an e-mail). It follows the
 * build and starts the download once, as soon as a file is there.
 */
export function ReportFilePage() {
  const { id = '' } = useParams();
  const query = useReport(id);
  const link = useReportLink();
  const regenerate = useRegenerateReport();
  // Staff looking into another company may read the report but not build it again.
  const mayChange = useMayChange();
  const [failure, setFailure] = useState<string>();
  const downloaded = useRef<number | undefined>(undefined);
  const stillOnPage = useStillOnPage();
  const report = query.data;
  async function download() {
    setFailure(undefined);
    try {
      const { url } = await link(id);
      if (!stillOnPage()) return;
      // The link answers with the file as an attachment: the page stays where it is.
      window.location.assign(url);
    } catch (err) {
      setFailure(err instanceof Error ? err.message : String(err));
    }
  }
  const built = report?.status === 'ready' ? report.builtGeneration : undefined;
  useEffect(() => {
    if (!built || downloaded.current === built) return;
    downloaded.current = built;
    void download();
  });
  const retry = () =>
    void regenerate(id)
      .then(() => query.mutate())
      .catch((err: unknown) => setFailure(err instanceof Error ? err.message : String(err)));
  return (
    <ReportFileFrame id={id} query={query}>
      {(r) => (
        <ReportFileView
          report={r}
          onDownload={() => void download()}
          onRetry={mayChange ? retry : undefined}
          failure={failure}
        />
      )}
    </ReportFileFrame>
  );
}
