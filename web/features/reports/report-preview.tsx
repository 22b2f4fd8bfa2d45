import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  cellText,
  type ReportBlock,
  type ReportCell,
  type ReportChart,
  type ReportTable,
} from '../../../shared/reports/report-document.ts';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import type { PreviewDocument } from './api.ts';

interface Row {
  at: number;
  cells: readonly ReportCell[];
}

export function PreviewTable({ table }: { table: ReportTable }) {
  const columns: DataTableColumn<Row>[] = table.columns.map((c, i) => ({
    key: String(i),
    label: c.header,
    value: (r) => r.cells[i] ?? null,
    render: (r) => cellText(r.cells[i] ?? null, c),
    numeric: c.format !== 'text',
  }));
  const rows = [...table.rows, ...(table.total ? [table.total] : [])].map((cells, at) => ({ at, cells }));
  return (
    <DataTable
      label={table.title}
      columns={columns}
      rows={rows}
      rowKey={(r) => String(r.at)}
      empty="No figures for this period."
      pageSize={50}
    />
  );
}

export function PreviewBlock({ block }: { block: ReportBlock }) {
  if (block.kind === 'paragraph') return <Text size="sm">{block.text}</Text>;
  if (block.kind === 'figures')
    return (
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {block.items.map((f) => (
          <Paper key={f.label} withBorder p="xs">
            <Text size="xs" c="dimmed">
              {f.label}
            </Text>
            <Text fw={700}>{f.value}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    );
  if (block.kind === 'table') return <PreviewTable table={block.table} />;
  return <ReportBarChart chart={block.chart} />;
}

/** A document's parts never move once shown: their place is their identity. */
export const numbered = <T,>(items: readonly T[]) => items.map((item, at) => ({ id: `part-${at}`, item }));

/** The report as the template gives it now: every section with the figures the file would hold. */
export function Preview({
  doc,
  startDate,
  endDate,
}: {
  doc: PreviewDocument;
  startDate: string;
  endDate: string;
}) {
  return (
    <Paper withBorder p="md" aria-label="Preview">
      <Stack gap="sm">
        <Title order={3}>{doc.title}</Title>
        <Text size="sm" c="dimmed">
          {doc.subtitle} · {startDate} to {endDate}
          {doc.factorSets.length > 0 ? ` · factors: ${doc.factorSets.join(', ')}` : ''}
        </Text>
        {numbered(doc.sections).map(({ id, item: s }) => (
          <Stack key={id} gap="xs">
            <Title order={4}>{s.heading}</Title>
            {numbered(s.blocks).map(({ id: blockId, item: b }) => (
              <PreviewBlock key={blockId} block={b} />
            ))}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

/** A report chart drawn with the web kit's bar chart: one series per named series of the report. */
export function ReportBarChart({ chart }: { chart: ReportChart }) {
  return (
    <BarChart
      title={chart.title}
      unit={{ unit: chart.unit }}
      series={chart.series.map((name, i) => ({
        name,
        points: chart.bars.map((b) => ({ x: b.label, y: b.values[i] ?? null })),
      }))}
    />
  );
}

/** Every block of a document of one kind, with the heading of the section it sits in. */
export function blocksOf<K extends ReportBlock['kind']>(
  doc: Pick<PreviewDocument, 'sections'>,
  kind: K,
): { heading: string; block: Extract<ReportBlock, { kind: K }> }[] {
  return doc.sections.flatMap((s) =>
    s.blocks.flatMap((b) =>
      b.kind === kind ? [{ heading: s.heading, block: b as Extract<ReportBlock, { kind: K }> }] : [],
    ),
  );
}
