import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PATHWAY_FIRST_YEAR, PATHWAY_LAST_YEAR } from '../../../shared/benchmarks/crrem.ts';
import { LineChart, type LineSeries } from '../../components/charts/line-chart.tsx';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { type CrremRow, type PathwaySetView, useCrremSite, useCrremTable, usePathwaySets } from './api.ts';
import {
  BenchmarkFilterBar,
  downloadXlsx,
  filtersFromSearch,
  fixed,
  MissingBadge,
  missingText,
  searchOfFilters,
} from './benchmark-parts.tsx';
import { PathwayUploadPanel } from './pathway-upload.tsx';

type SortBy = 'misalignment' | 'gap';

/** Sites never misaligned sort after every year; sites that cannot be benchmarked after them. */
const NEVER = 9999;
const misalignmentSort = (r: CrremRow) => (r.benchmarked ? (r.misalignment?.year ?? NEVER) : NEVER + 1);
const gapSort = (r: CrremRow) => (r.benchmarked ? (r.latest?.carbonGap ?? null) : null);
const yearText = (y: number | null | undefined) =>
  y === null || y === undefined ? 'Not before 2050' : String(y);

/** Says on screen which pathway set the figures come from, and that an illustrative one is not CRREM's. */
function SetNotice({ set }: { set: PathwaySetView }) {
  return set.illustrative ? (
    <Alert color="yellow" title="Illustrative pathways, not CRREM's" role="note">
      These figures use “{set.name}” (version {set.version}): {set.source}. Load CRREM's licensed pathways to
      benchmark against them.
    </Alert>
  ) : (
    <Text size="sm" c="dimmed">
      Pathways: {set.name}, version {set.version} ({set.source})
    </Text>
  );
}

function SiteCharts({ siteId, setId }: { siteId: string; setId?: string }) {
  const detail = useCrremSite(siteId, setId);
  if (detail.error) return <ErrorPanel error={detail.error} />;
  if (!detail.data) return <LoadingPanel label="Loading the site's pathway" />;
  const { site, points, pathway } = detail.data;
  const measured = points.filter((p) => !p.projected);
  // The projection starts from the last measured year, so the two lines join.
  const lastMeasured = measured[measured.length - 1];
  const projected = [...(lastMeasured ? [lastMeasured] : []), ...points.filter((p) => p.projected)];
  const chart = (metric: 'kgCo2eM2' | 'kwhM2'): LineSeries[] => [
    { name: 'Measured', points: measured.map((p) => ({ x: p.year, y: p[metric] })) },
    {
      name: 'Projected',
      points: projected.map((p) => ({ x: p.year, y: p[metric] })),
      dashed: true,
      colour: '#1c7ed6',
    },
    { name: 'Pathway', points: pathway.map((p) => ({ x: p.year, y: p[metric] })), colour: '#2f9e44' },
  ];
  if (!site.benchmarked) return <MissingBadge missing={site.missing} />;
  const carbon = site.misalignment?.carbon;
  const energy = site.misalignment?.energy;
  return (
    <Stack gap="xs">
      <Title order={4}>{site.siteName}</Title>
      <Text size="sm">
        Misaligned from {yearText(site.misalignment?.year)} (carbon {yearText(carbon)}, energy{' '}
        {yearText(energy)}). Pathway: {site.pathway?.country}, {site.pathway?.propertyType}.
      </Text>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <LineChart
          title={`${site.siteName}: carbon intensity against the pathway`}
          unit="kgCO2e/m²/yr"
          series={chart('kgCo2eM2')}
          domainX={[PATHWAY_FIRST_YEAR, PATHWAY_LAST_YEAR]}
          {...(carbon ? { marker: { x: carbon, label: `Misaligned from ${carbon}` } } : {})}
        />
        <LineChart
          title={`${site.siteName}: energy intensity against the pathway`}
          unit="kWh/m²/yr"
          series={chart('kwhM2')}
          domainX={[PATHWAY_FIRST_YEAR, PATHWAY_LAST_YEAR]}
          {...(energy ? { marker: { x: energy, label: `Misaligned from ${energy}` } } : {})}
        />
      </SimpleGrid>
    </Stack>
  );
}

/** /benchmarks/crrem: every readable site against its CRREM pathway, and one site's chart. */
export function CrremPage() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromSearch(params);
  const setId = params.get('setId') ?? undefined;
  const [sortBy, setSortBy] = useState<SortBy>('misalignment');
  const [chosen, setChosen] = useState<string>();
  const [exportError, setExportError] = useState<string>();
  const sets = usePathwaySets();
  const table = useCrremTable({ ...filters, ...(setId ? { setId } : {}) });
  const rows = table.data?.sites;
  const set = table.data?.pathwaySet ?? undefined;
  const setLabel = set ? `${set.name} ${set.version}` : '';

  const columns = useMemo<DataTableColumn<CrremRow>[]>(
    () => [
      {
        key: 'site',
        label: 'Site',
        value: (r) => r.siteName,
        render: (r) => (
          <Anchor component="button" type="button" onClick={() => setChosen(r._id)}>
            {r.siteName}
          </Anchor>
        ),
      },
      { key: 'type', label: 'Property type', value: (r) => r.propertyType ?? '' },
      { key: 'country', label: 'Country', value: (r) => r.country ?? '' },
      {
        key: 'area',
        label: 'Floor area (m²)',
        numeric: true,
        value: (r) => r.latest?.floorAreaM2 ?? r.floorAreaM2 ?? null,
        render: (r) => fixed(r.latest?.floorAreaM2 ?? r.floorAreaM2, 0),
      },
      { key: 'year', label: 'Latest year', numeric: true, value: (r) => r.latest?.year ?? null },
      {
        key: 'kwh',
        label: 'kWh/m²/yr',
        numeric: true,
        value: (r) => r.latest?.kwhM2 ?? null,
        render: (r) => fixed(r.latest?.kwhM2),
      },
      {
        key: 'kg',
        label: 'kgCO2e/m²/yr',
        numeric: true,
        value: (r) => r.latest?.kgCo2eM2 ?? null,
        render: (r) => fixed(r.latest?.kgCo2eM2),
      },
      {
        key: 'pathway',
        label: 'Pathway kgCO2e/m²',
        numeric: true,
        value: (r) => r.latest?.pathwayKgCo2eM2 ?? null,
        render: (r) => fixed(r.latest?.pathwayKgCo2eM2),
      },
      {
        key: 'gap',
        label: 'Gap to pathway (kgCO2e/m²)',
        numeric: true,
        value: (r) => r.latest?.carbonGap ?? null,
        sortValue: gapSort,
        render: (r) => fixed(r.latest?.carbonGap),
      },
      {
        key: 'misalignment',
        label: 'Misalignment year',
        value: (r) => (r.benchmarked ? yearText(r.misalignment?.year) : missingText(r.missing)),
        sortValue: misalignmentSort,
        render: (r) =>
          r.benchmarked ? yearText(r.misalignment?.year) : <MissingBadge missing={r.missing} />,
      },
      { key: 'set', label: 'Pathway set', value: () => setLabel, render: () => setLabel },
    ],
    [setLabel],
  );

  const initialSort =
    sortBy === 'misalignment'
      ? { key: 'misalignment', direction: 'asc' as const }
      : { key: 'gap', direction: 'desc' as const };
  const shown =
    chosen ??
    rows?.filter((r) => r.benchmarked).sort((a, b) => misalignmentSort(a) - misalignmentSort(b))[0]?._id;

  async function exportXlsx() {
    const sorted = [...(rows ?? [])].sort((a, b) =>
      sortBy === 'misalignment'
        ? misalignmentSort(a) - misalignmentSort(b)
        : (gapSort(b) ?? -Infinity) - (gapSort(a) ?? -Infinity),
    );
    await downloadXlsx(
      'crrem-benchmark.xlsx',
      'CRREM',
      [...columns.map((c) => c.label), 'Pathway set version', 'Illustrative'],
      sorted.map((r) => [
        ...columns.map((c) => c.value(r)),
        set?.version ?? '',
        set?.illustrative ? 'yes' : 'no',
      ]),
    );
  }

  const setOptions = (sets.data?.data ?? []).map((s) => ({
    value: s._id,
    label: `${s.name} (${s.version})${s.illustrative ? ', illustrative' : ''}`,
  }));

  return (
    <Stack>
      <Title order={2}>CRREM pathways</Title>
      <Group align="end" justify="space-between">
        <BenchmarkFilterBar
          filters={filters}
          onChange={(f) =>
            setParams(searchOfFilters({ ...f, ...(setId ? { setId } : {}) }), { replace: true })
          }
        />
        {setOptions.length > 1 && (
          <NativeSelect
            label="Pathway set"
            value={setId ?? set?._id ?? ''}
            onChange={(e) =>
              setParams(searchOfFilters({ ...filters, setId: e.currentTarget.value }), { replace: true })
            }
            data={setOptions}
          />
        )}
      </Group>
      {table.error !== undefined && <ErrorPanel error={table.error} />}
      {!table.data && !table.error && <LoadingPanel />}
      {table.data && !set && <EmptyPanel>No pathway set has been loaded yet.</EmptyPanel>}
      {set && <SetNotice set={set} />}
      {set && shown && <SiteCharts siteId={shown} {...(setId ? { setId } : {})} />}
      {set && (
        <>
          <Group justify="space-between">
            <SegmentedControl
              aria-label="Sort sites by"
              value={sortBy}
              onChange={(v) => setSortBy(v as SortBy)}
              data={[
                { value: 'misalignment', label: 'By misalignment year' },
                { value: 'gap', label: 'By gap to the pathway' },
              ]}
            />
            <Button
              size="xs"
              variant="light"
              disabled={(rows?.length ?? 0) === 0}
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
            key={sortBy}
            label="Sites against their CRREM pathway"
            columns={columns}
            rows={rows}
            rowKey={(r) => r._id}
            loading={table.isLoading}
            empty="No sites to benchmark"
            csvFilename="crrem-benchmark.csv"
            initialSort={initialSort}
          />
        </>
      )}
      {session.access.isAdmin && <PathwayUploadPanel />}
    </Stack>
  );
}
