import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  ENERGY_RATING_LABELS,
  type EnergyBenchmarkKind,
} from '../../../shared/benchmarks/energy-benchmarks.ts';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { type EnergyBenchmarkView, type EnergyRow, useEnergyTable } from './api.ts';
import {
  BenchmarkFilterBar,
  downloadXlsx,
  filtersFromSearch,
  fixed,
  MissingBadge,
  missingText,
  searchOfFilters,
} from './benchmark-parts.tsx';
import { EnergyFiguresForm } from './energy-figures-form.tsx';

const TITLES: Record<EnergyBenchmarkKind, string> = {
  leti: 'LETI operational energy targets',
  reeb: 'REEB energy benchmarks',
  etn: 'ETN energy benchmarks',
};

const REFERENCE_LABELS = { target: 'target', goodPractice: 'good practice', typical: 'typical' } as const;

const figureColumns: DataTableColumn<EnergyBenchmarkView>[] = [
  { key: 'type', label: 'Building type', value: (b) => b.propertyType },
  { key: 'target', label: 'Target (kWh/m²/yr)', numeric: true, value: (b) => b.target ?? null },
  { key: 'good', label: 'Good practice (kWh/m²/yr)', numeric: true, value: (b) => b.goodPractice ?? null },
  { key: 'typical', label: 'Typical (kWh/m²/yr)', numeric: true, value: (b) => b.typical ?? null },
  { key: 'source', label: 'Source', value: (b) => b.source ?? 'Source not recorded' },
  { key: 'period', label: 'Period', value: (b) => b.period ?? 'Period not recorded' },
  {
    key: 'status',
    label: 'Status',
    value: (b) => (b.illustrative ? 'Illustrative' : 'Published'),
    render: (b) =>
      b.illustrative ? (
        <Badge color="yellow" variant="light" title={b.check}>
          Illustrative
        </Badge>
      ) : (
        'Published'
      ),
  },
];

/** Sites that cannot be benchmarked sort after every gap. */
const gapSort = (r: EnergyRow) => (r.benchmarked ? (r.comparison?.gap ?? null) : null);

function EnergyBenchmarkPage({ kind }: { kind: EnergyBenchmarkKind }) {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromSearch(params);
  const table = useEnergyTable(kind, filters);
  const [exportError, setExportError] = useState<string>();
  const benchmarks = table.data?.benchmarks ?? [];
  const byId = useMemo(() => new Map(benchmarks.map((b) => [b._id, b])), [benchmarks]);
  const illustrative = benchmarks.some((b) => b.illustrative);

  const columns = useMemo<DataTableColumn<EnergyRow>[]>(
    () => [
      { key: 'site', label: 'Site', value: (r) => r.siteName },
      { key: 'type', label: 'Property type', value: (r) => r.propertyType ?? '' },
      {
        key: 'area',
        label: 'Floor area (m²)',
        numeric: true,
        value: (r) => r.floorAreaM2 ?? null,
        render: (r) => fixed(r.floorAreaM2, 0),
      },
      { key: 'year', label: 'Year', numeric: true, value: (r) => r.year ?? null },
      {
        key: 'kwh',
        label: 'kWh/m²/yr',
        numeric: true,
        value: (r) => r.kwhM2 ?? null,
        render: (r) => fixed(r.kwhM2),
      },
      {
        key: 'reference',
        label: 'Benchmark (kWh/m²/yr)',
        numeric: true,
        value: (r) => {
          const b = r.benchmarkId ? byId.get(r.benchmarkId) : undefined;
          const ref = r.comparison?.reference;
          return b && ref ? (b[ref] ?? null) : null;
        },
        render: (r) => {
          const b = r.benchmarkId ? byId.get(r.benchmarkId) : undefined;
          const ref = r.comparison?.reference;
          return b && ref ? `${fixed(b[ref], 0)} (${REFERENCE_LABELS[ref]})` : '';
        },
      },
      {
        key: 'gap',
        label: 'Gap (kWh/m²/yr)',
        numeric: true,
        value: (r) => r.comparison?.gap ?? null,
        sortValue: gapSort,
        render: (r) => fixed(r.comparison?.gap),
      },
      {
        key: 'rating',
        label: 'Rating',
        value: (r) =>
          r.benchmarked && r.comparison?.rating
            ? ENERGY_RATING_LABELS[r.comparison.rating]
            : missingText(r.missing),
        render: (r) =>
          r.benchmarked && r.comparison?.rating ? (
            ENERGY_RATING_LABELS[r.comparison.rating]
          ) : (
            <MissingBadge missing={r.missing} />
          ),
      },
      {
        key: 'source',
        label: 'Source',
        value: (r) => {
          const b = r.benchmarkId ? byId.get(r.benchmarkId) : undefined;
          return b
            ? `${b.source ?? ''}${b.period ? `, ${b.period}` : ''}${b.illustrative ? ' (illustrative)' : ''}`
            : '';
        },
      },
    ],
    [byId],
  );

  async function exportXlsx() {
    const rows = [...(table.data?.sites ?? [])].sort(
      (a, b) => (gapSort(b) ?? -Infinity) - (gapSort(a) ?? -Infinity),
    );
    await downloadXlsx(
      `${kind}-benchmark.xlsx`,
      kind.toUpperCase(),
      columns.map((c) => c.label),
      rows.map((r) => columns.map((c) => c.value(r))),
    );
  }

  return (
    <Stack>
      <Title order={2}>{TITLES[kind]}</Title>
      <BenchmarkFilterBar
        filters={filters}
        onChange={(f) => setParams(searchOfFilters(f), { replace: true })}
      />
      {table.error !== undefined && <ErrorPanel error={table.error} />}
      {!table.data && !table.error && <LoadingPanel />}
      {table.data && (
        <>
          {illustrative && (
            <Alert color="yellow" title="Illustrative figures" role="note">
              Some of these figures are illustrative: they have not been confirmed against their published
              source.
            </Alert>
          )}
          <Title order={4}>Benchmark figures</Title>
          <DataTable
            label={`${kind.toUpperCase()} benchmark figures`}
            columns={figureColumns}
            rows={benchmarks}
            rowKey={(b) => b._id}
            empty={<Text>No {kind.toUpperCase()} figures have been loaded yet.</Text>}
            pageSize={10}
          />
          {session.access.isAdmin && <EnergyFiguresForm kind={kind} benchmarks={benchmarks} />}
          <Group justify="space-between">
            <Title order={4}>Sites</Title>
            <Button
              size="xs"
              variant="light"
              disabled={(table.data.sites.length ?? 0) === 0}
              onClick={() =>
                exportXlsx().catch((e: unknown) =>
                  setExportError(e instanceof Error ? e.message : 'The table could not be exported'),
                )
              }
            >
              Download XLSX
            </Button>
          </Group>
          {exportError && <ErrorPanel error={exportError} title="Could not export" />}
          <DataTable
            label={`Sites against ${kind.toUpperCase()}`}
            columns={columns}
            rows={table.data.sites}
            rowKey={(r) => r._id}
            loading={table.isLoading}
            empty="No sites to benchmark"
            csvFilename={`${kind}-benchmark.csv`}
            initialSort={{ key: 'gap', direction: 'desc' }}
          />
        </>
      )}
    </Stack>
  );
}

export const LetiPage = () => <EnergyBenchmarkPage kind="leti" />;
export const ReebPage = () => <EnergyBenchmarkPage kind="reeb" />;
export const EtnPage = () => <EnergyBenchmarkPage kind="etn" />;
