import { Paper, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { QueryPanel, type QueryState } from '../../components/query-panel.tsx';
import { type PreviewDocument, useReport, useReportDocument } from './api.ts';
import { ReportPageHeading } from './report-page-heading.tsx';
import { blocksOf, numbered, PreviewBlock, ReportBarChart } from './report-preview.tsx';

type DocumentAnswer = { document: PreviewDocument; startDate: string; endDate: string };

const hasNoCharts = (d: DocumentAnswer) => blocksOf(d.document, 'chart').length === 0;

/** A report's charts, each under its section's heading, with the report's key figures above them. */
export function ReportChartsView({ answer }: { answer: DocumentAnswer }) {
  const { document: doc } = answer;
  const figures = blocksOf(doc, 'figures');
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {doc.subtitle} · {answer.startDate} to {answer.endDate}
        {doc.factorSets.length > 0 ? ` · factors: ${doc.factorSets.join(', ')}` : ''}
      </Text>
      {numbered(figures).map(({ id, item }) => (
        <PreviewBlock key={id} block={item.block} />
      ))}
      {numbered(blocksOf(doc, 'chart')).map(({ id, item }) => (
        <Paper key={id} withBorder p="md" aria-label={item.block.chart.title}>
          <Stack gap="xs">
            <Title order={4}>{item.heading}</Title>
            <ReportBarChart chart={item.block.chart} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** The page as its two reads give it: the report (its name) and its figures. */
export function ReportChartView({
  id,
  report,
  content,
}: {
  id: string;
  report: QueryState<{ name: string }>;
  content: QueryState<DocumentAnswer>;
}) {
  return (
    <Stack gap="md">
      <ReportPageHeading
        title={report.data ? `${report.data.name}: charts` : 'Report charts'}
        other={{ to: `/reports/${id}/download`, label: 'Download' }}
      />
      <QueryPanel
        // A report that is not there (or not the caller's) says so rather than why its figures failed.
        query={{ ...content, error: report.error ?? content.error }}
        errorTitle="This report's figures could not be loaded"
        loadingLabel="Reading the report's figures…"
        isEmpty={hasNoCharts}
        empty="This report has no charts: its figures are in its tables, in the downloaded file."
      >
        {(answer) => <ReportChartsView answer={answer} />}
      </QueryPanel>
    </Stack>
  );
}

/** /reports/:id/chart: a report's charts drawn in the page, from the same figures as its file. */
export function ReportChartPage() {
  const { id = '' } = useParams();
  const report = useReport(id);
  const content = useReportDocument(id);
  return <ReportChartView id={id} report={report} content={content} />;
}
