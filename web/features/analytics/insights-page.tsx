import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import { BarChart, type BarClick } from '../../components/charts/bar-chart.tsx';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { DateRangeField } from '../../components/date-range-presets.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { withProvenance } from '../../lib/provenance-link.ts';
import type { AnalyticsAnswer, BucketFigures } from './analytics-answer.ts';
import {
  type NamedOption,
  useAnalytics,
  useEntityOptions,
  usePortfolioOptions,
  useSiteOptions,
  useSitesAnalytics,
} from './api.ts';
import { downloadBlob, downloadChartPng } from './chart-export.ts';
import { EmissionsChangePanel } from './emissions-change.tsx';
import { FactorSetPanel } from './factor-set-panel.tsx';
import {
  type ChartSeries,
  changeOf,
  changeText,
  drillOfBar,
  figureText,
  measureUnit,
  rowUtilities,
  type SiteRow,
  seriesBySite,
  seriesByUtility,
  siteRows,
  type TotalCard,
  totalCards,
  UTILITY_LABELS,
} from './insights-figures.ts';
import {
  analyticsQuery,
  COMPARE_PERIODS,
  filtersFromQuery,
  GRANULARITIES,
  type InsightsFilters,
  type Measure,
  queryOfFilters,
  type ScopeKind,
  UTILITIES,
} from './insights-filters.ts';
import { isAbort } from './latest-request.ts';
import { ScopeThreeGaps } from './scope-three-gaps.tsx';

/** What a click on a bar or a site names, for the drill-down to where a figure comes from. */
export interface DrillTarget {
  assetId?: string;
  month?: string;
  utilityType?: string;
  /** A clicked bar's period, narrower than the page's window. */
  from?: string;
  to?: string;
}

/** The drill-down's selection: the target within the window it was clicked in. */
export interface DrillSelection extends DrillTarget {
  accountId?: string;
  from: string;
  to: string;
}

const TITLES: Record<Measure, string> = {
  emissions: 'Emissions',
  consumption: 'Consumption',
  costs: 'Costs',
};
/** Sites the chart by site draws one by one; the rest are added up as "Other sites". */
const CHART_SITES = 5;

/** A table figure in the unit its column header names. */
const cellText = (v: number | undefined) =>
  v === undefined ? '' : v.toLocaleString('en-GB', { maximumFractionDigits: 2 });

const optionName = (o: NamedOption) => o.name ?? o.legalName ?? o.siteName ?? o._id;

function ChangeLine({ card }: { card: TotalCard }) {
  const change = changeOf(card.value, card.previous);
  if (!change) return null;
  // Less consumed, emitted or spent is the good direction on every page.
  const colour = change.direction === 'up' ? 'red' : change.direction === 'down' ? 'teal' : 'dimmed';
  return (
    <Text size="sm" c={colour} aria-label={`${card.label}: change`}>
      {changeText(change)} vs {figureText(card.previous ?? 0, card.unit)}
    </Text>
  );
}

/** The total cards; a click anywhere on one opens the drill-down to where its figure comes from. */
function Cards({ cards, onOpen }: { cards: TotalCard[]; onOpen: () => void }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      {cards.map((c) => (
        <Paper key={c.key} withBorder p="md" data-card={c.key} onClick={onOpen} style={{ cursor: 'pointer' }}>
          <Text size="sm" c="dimmed">
            {c.label}
          </Text>
          <Text fz={22} fw={700} aria-label={c.label}>
            {figureText(c.value, c.unit)}
          </Text>
          <ChangeLine card={c} />
          {c.estimated > 0 && (
            <Text size="xs" c="dimmed">
              of which estimated {figureText(c.estimated, c.unit)}
            </Text>
          )}
          {/* The card's click opens it; the button is there for the keyboard and to name the action. */}
          <Anchor component="button" type="button" size="xs" aria-label={`Where does ${c.label} come from?`}>
            Where does this come from?
          </Anchor>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function ScopePicker({
  filters,
  onChange,
}: {
  filters: InsightsFilters;
  onChange: (f: InsightsFilters) => void;
}) {
  // The kind picked, before an item of it is: its list is asked for as soon as it is picked.
  const [kind, setKind] = useState<ScopeKind>(filters.scope);
  const portfolios = usePortfolioOptions(kind === 'portfolio');
  const entities = useEntityOptions(kind === 'entity');
  const sites = useSiteOptions(kind === 'site');
  const list = { company: undefined, portfolio: portfolios, entity: entities, site: sites }[kind];
  const options = (list?.data?.data ?? []).map((o) => ({ value: o._id, label: optionName(o) }));
  return (
    <>
      <NativeSelect
        label="Scope"
        value={kind}
        onChange={(e) => {
          const next = e.currentTarget.value as ScopeKind;
          setKind(next);
          if (next === 'company') onChange({ ...filters, scope: 'company', scopeId: undefined });
        }}
        data={[
          { value: 'company', label: 'Whole portfolio' },
          { value: 'portfolio', label: 'Portfolio' },
          { value: 'entity', label: 'Entity' },
          { value: 'site', label: 'Site' },
        ]}
      />
      {kind !== 'company' && (
        <NativeSelect
          label={{ portfolio: 'Portfolio', entity: 'Entity', site: 'Site' }[kind]}
          value={filters.scope === kind ? (filters.scopeId ?? '') : ''}
          onChange={(e) => {
            const id = e.currentTarget.value;
            onChange(id ? { ...filters, scope: kind, scopeId: id } : { ...filters, scope: 'company' });
          }}
          data={[{ value: '', label: list?.isLoading ? 'Loading…' : 'Choose…' }, ...options]}
        />
      )}
    </>
  );
}

function Filters({
  measure,
  filters,
  onChange,
}: {
  measure: Measure;
  filters: InsightsFilters;
  onChange: (f: InsightsFilters) => void;
}) {
  return (
    <Paper withBorder p="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DateRangeField
          value={{ start: filters.start, end: filters.end }}
          onChange={({ start, end }) => onChange({ ...filters, start, end })}
        />
        <NativeSelect
          label="Granularity"
          value={filters.granularity}
          onChange={(e) => {
            const granularity = GRANULARITIES.find((g) => g.value === e.currentTarget.value)?.value;
            if (granularity) onChange({ ...filters, granularity });
          }}
          data={GRANULARITIES.map((g) => ({ value: g.value, label: g.label }))}
        />
        <NativeSelect
          label="Utility"
          value={filters.utility ?? ''}
          onChange={(e) => {
            const value = e.currentTarget.value;
            const utility = UTILITIES.find((u) => u === value);
            onChange({ ...filters, utility });
          }}
          data={[
            { value: '', label: 'All utilities' },
            ...UTILITIES.map((u) => ({ value: u, label: UTILITY_LABELS[u] })),
          ]}
        />
        <NativeSelect
          label="Compare with"
          value={filters.compare}
          onChange={(e) => {
            const compare = COMPARE_PERIODS.find((c) => c.value === e.currentTarget.value)?.value;
            if (compare) onChange({ ...filters, compare });
          }}
          data={COMPARE_PERIODS.map((c) => ({ value: c.value, label: c.label }))}
        />
        {measure === 'emissions' && (
          <NativeSelect
            label="Scope 2 method"
            value={filters.basis}
            onChange={(e) =>
              onChange({ ...filters, basis: e.currentTarget.value === 'market' ? 'market' : 'location' })
            }
            data={[
              { value: 'location', label: 'Location-based' },
              { value: 'market', label: 'Market-based' },
            ]}
          />
        )}
        <ScopePicker filters={filters} onChange={onChange} />
      </Group>
    </Paper>
  );
}

/** Emissions charted in tonnes once the tallest bar passes ten tonnes, else in kg. */
function chartScale(
  measure: Measure,
  series: readonly ChartSeries[],
): { factor: number; unit: string } | undefined {
  if (measure !== 'emissions') return undefined;
  const tallest = Math.max(
    0,
    ...(series[0]?.points ?? []).map((_, i) => series.reduce((n, s) => n + (s.points[i]?.y ?? 0), 0)),
  );
  return tallest > 10_000 ? { factor: 1000, unit: 't CO₂e' } : { factor: 1, unit: 'kg CO₂e' };
}

interface ViewData {
  answer?: Pick<
    AnalyticsAnswer,
    'totals' | 'comparison' | 'buckets' | 'factorVersions' | 'emissionsBasis' | 'scopes'
  >;
  sites: SiteRow[];
  siteSeries?: ChartSeries[];
  loading: boolean;
  error?: unknown;
}

/** The figures of a view: the scope's answer, its sites, and the sites' periods for the chart by site. */
function useView(measure: Measure, filters: InsightsFilters, withCosts: boolean): ViewData {
  const query = analyticsQuery(filters, measure, { withCosts });
  // Telling estimated from billed figures reads every meter's months, which takes far longer than the
  // roll-ups: the figures are shown from the roll-ups first, and their estimated parts when they come.
  const quick = useAnalytics('consumption', { ...query, estimateBreakdown: 'false' }, 'consumption-quick');
  const detailed = useAnalytics('consumption', query);
  const bySiteQuery = {
    ...analyticsQuery(filters, measure, { withCosts, dateBreakdown: false }),
    comparePeriod: 'none',
  };
  const bySite = useAnalytics('asset-consumption', bySiteQuery);
  const rows = useMemo(
    () => siteRows(measure, bySite.data?.assets ?? [], filters.utility),
    [bySite.data, measure, filters.utility],
  );
  const wantSites = filters.breakdown === 'site';
  const top =
    wantSites && bySite.data
      ? rows.slice(0, CHART_SITES).map((r) => ({ _id: r.assetId, siteName: r.siteName }))
      : undefined;
  // Each charted site is asked alone, so the scope's own parameter is left out.
  const siteQuery = (({ assetId: _a, assetGroupId: _g, entityId: _e, ...rest }) => rest)(query);
  const chartSites = useSitesAnalytics(
    'chart-sites',
    top,
    wantSites ? { ...siteQuery, comparePeriod: 'none' } : null,
  );

  // While the detailed answer of this view is loading, its data (kept from the view before) is not this view's.
  const answer = (!detailed.isLoading && detailed.data) || quick.data || detailed.data;
  const perSite = chartSites.data;
  const visibleError = [detailed.error, bySite.error, chartSites.error].find((e) => e && !isAbort(e));
  if (!answer) return { sites: [], loading: !visibleError, error: visibleError };
  const siteSeries =
    filters.breakdown === 'site' && perSite
      ? seriesBySite(
          measure,
          answer.buckets ?? [],
          // The largest sites, in the order of the table.
          rows
            .slice(0, CHART_SITES)
            .flatMap((r) => perSite.filter((s) => s.assetId === r.assetId))
            .map((s) => ({ assetId: s.assetId, name: s.siteName, buckets: s.answer.buckets ?? [] })),
          filters.utility,
        )
      : undefined;
  return {
    answer,
    sites: rows,
    siteSeries,
    loading: detailed.isValidating || bySite.isValidating,
    error: visibleError,
  };
}

function Insights({ measure, onDrill }: { measure: Measure; onDrill: (target: DrillTarget) => void }) {
  const [search, setSearch] = useSearchParams();
  const now = useMemo(() => new Date(), []);
  const filters = filtersFromQuery(search, now);
  const setFilters = (f: InsightsFilters) => setSearch(queryOfFilters(f, now), { replace: true });
  const hideCosts = useSession().company.settings?.hideCostData === true;
  const view = useView(measure, filters, !hideCosts);
  const figureRef = useRef<HTMLDivElement>(null);
  const [exportError, setExportError] = useState<string>();
  const answer = view.answer;
  const buckets: readonly BucketFigures[] = answer?.buckets ?? [];
  const unit = measureUnit(measure, filters.utility, answer?.totals);
  const rawSeries =
    filters.breakdown === 'site'
      ? (view.siteSeries ?? [])
      : seriesByUtility(measure, buckets, filters.utility);
  const scale = chartScale(measure, rawSeries);
  const series = scale
    ? rawSeries.map((s) => ({
        ...s,
        points: s.points.map((p) => ({ ...p, y: p.y === null ? null : p.y / scale.factor })),
      }))
    : rawSeries;
  const chartUnit = scale?.unit ?? unit;
  const otherUnits = UTILITIES.filter((u) => {
    const f = answer?.totals.utilities[u];
    return f !== undefined && f.unit !== 'kWh';
  }).map((u) => UTILITY_LABELS[u]);
  const cards = answer ? totalCardsOf(measure, answer, filters.utility) : [];
  const utilities = rowUtilities(view.sites ?? []);
  const valueLabel = `${TITLES[measure]} (${unit})`;
  const columns: DataTableColumn<SiteRow>[] = [
    {
      key: 'site',
      label: 'Site',
      value: (r) => r.siteName,
      render: (r) => (
        <UnstyledButton
          c="blue"
          fz="sm"
          onClick={() =>
            onDrill({ assetId: r.assetId, ...(filters.utility ? { utilityType: filters.utility } : {}) })
          }
        >
          {r.siteName}
        </UnstyledButton>
      ),
    },
    {
      key: 'value',
      label: valueLabel,
      value: (r) => r.value,
      numeric: true,
      render: (r) => cellText(r.value),
    },
    ...utilities.map(
      (u): DataTableColumn<SiteRow> => ({
        key: u,
        label: `${UTILITY_LABELS[u]} (${unit})`,
        value: (r) => r.utilities[u],
        numeric: true,
        render: (r) => cellText(r.utilities[u]),
      }),
    ),
    {
      key: 'estimated',
      label: `Estimated (${unit})`,
      value: (r) => r.estimated,
      numeric: true,
      render: (r) => cellText(r.estimated),
    },
    { key: 'share', label: 'Share (%)', value: (r) => r.share, numeric: true },
  ];

  // On a page scoped to one site, the drill-down starts at that site.
  const scopeSite = filters.scope === 'site' && filters.scopeId ? { assetId: filters.scopeId } : {};
  const barClicked = (click: BarClick) =>
    onDrill({
      ...scopeSite,
      ...drillOfBar(click, {
        buckets,
        breakdown: filters.breakdown,
        granularity: filters.granularity,
        utility: filters.utility,
        sites: view.sites,
      }),
    });

  async function exportXlsx() {
    // The zip writer is fetched on the first export, not with the page.
    const { writeXlsx } = await import('../../../shared/reports/xlsx.ts');
    const bytes = writeXlsx([
      {
        name: 'Sites',
        header: columns.map((c) => c.label),
        rows: (view.sites ?? []).map((r) => columns.map((c) => c.value(r))),
      },
      {
        name: 'Periods',
        header: ['Period', ...series.map((s) => `${s.name} (${chartUnit})`)],
        rows: buckets.map((b, i) => [b.label, ...series.map((s) => s.points[i]?.y ?? null)]),
      },
    ]);
    downloadBlob(
      `${measure}-by-site.xlsx`,
      new Blob([bytes.slice().buffer], {
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
    );
  }

  return (
    <Stack>
      <Filters measure={measure} filters={filters} onChange={setFilters} />
      {view.error !== undefined && <ErrorPanel error={view.error} />}
      {!answer && !view.error && <LoadingPanel />}
      {answer && (
        <>
          <Cards
            cards={cards}
            onOpen={() =>
              onDrill({
                ...scopeSite,
                ...(filters.utility ? { utilityType: filters.utility } : {}),
              })
            }
          />
          {measure === 'emissions' && (
            <Text size="xs" c="dimmed">
              {answer.factorVersions.length > 0
                ? `Emission factors: ${answer.factorVersions.join(', ')}. `
                : ''}
              {answer.emissionsBasis === 'market'
                ? `Scope 2 market-based: electricity under renewable contracts with REGOs counts 0, the rest the residual mix (${(answer.scopes?.totals.factorSets.scope2Market ?? []).join(', ') || 'none'}).`
                : ''}
            </Text>
          )}
          {measure === 'emissions' && <ScopeThreeGaps notCovered={answer.scopes?.totals.notCovered ?? []} />}
          <Group justify="space-between">
            <SegmentedControl
              aria-label="Chart by"
              value={filters.breakdown}
              onChange={(v) => setFilters({ ...filters, breakdown: v === 'site' ? 'site' : 'utility' })}
              data={[
                { value: 'utility', label: 'By utility' },
                { value: 'site', label: 'By site' },
              ]}
            />
            <Button
              size="xs"
              variant="light"
              onClick={() => {
                setExportError(undefined);
                if (figureRef.current)
                  downloadChartPng(figureRef.current, `${measure}-chart.png`).catch((e: unknown) =>
                    setExportError(e instanceof Error ? e.message : 'The chart could not be exported'),
                  );
              }}
            >
              Download PNG
            </Button>
          </Group>
          {exportError && <Alert color="red">{exportError}</Alert>}
          {series.length === 0 ? (
            <EmptyPanel>{view.loading ? 'Loading…' : 'No figures in this period.'}</EmptyPanel>
          ) : (
            <BarChart
              title={`${TITLES[measure]} by ${filters.breakdown} (${chartUnit})`}
              series={series}
              unit={{ unit: chartUnit }}
              onBarClick={barClicked}
              figureRef={figureRef}
            />
          )}
          {measure === 'emissions' && answer.comparison?.emissionsChange && (
            <EmissionsChangePanel change={answer.comparison.emissionsChange} />
          )}
          {measure === 'emissions' && <FactorSetPanel />}
          {measure === 'consumption' && !filters.utility && otherUnits.length > 0 && (
            <Text size="xs" c="dimmed">
              {otherUnits.join(' and ')} {otherUnits.length > 1 ? 'are' : 'is'} measured in other units than
              kWh: choose {otherUnits.length > 1 ? 'one' : 'it'} under Utility to chart it.
            </Text>
          )}
          <Group justify="space-between">
            <Title order={4}>Top sites</Title>
            <Button
              size="xs"
              variant="light"
              onClick={() =>
                exportXlsx().catch((e: unknown) =>
                  setExportError(e instanceof Error ? e.message : 'The table could not be exported'),
                )
              }
              disabled={(view.sites.length ?? 0) === 0}
            >
              Download XLSX
            </Button>
          </Group>
          <DataTable
            label="Top sites"
            columns={columns}
            rows={view.sites}
            rowKey={(r) => r.assetId}
            loading={view.loading}
            empty="No site has figures in this period."
            csvFilename={`${measure}-by-site.csv`}
            pageSize={10}
          />
        </>
      )}
    </Stack>
  );
}

function totalCardsOf(
  measure: Measure,
  answer: NonNullable<ViewData['answer']>,
  utility: UtilityType | undefined,
): TotalCard[] {
  return totalCards(measure, answer.totals, answer.comparison?.totals, utility, {
    basis: answer.emissionsBasis ?? 'location',
    ...(answer.scopes ? { now: answer.scopes.totals } : {}),
    ...(answer.comparison?.scopes ? { previous: answer.comparison.scopes } : {}),
  });
}

function PageTabs({ measure }: { measure: Measure }) {
  const [search] = useSearchParams();
  const query = search.toString();
  return (
    <Group gap="md" component="nav" aria-label="Insights pages">
      {(['emissions', 'consumption', 'costs'] as const).map((m) => (
        <Anchor
          key={m}
          component={Link}
          to={`/analytics/${m}${query ? `?${query}` : ''}`}
          fw={m === measure ? 700 : 400}
          aria-current={m === measure ? 'page' : undefined}
        >
          {TITLES[m]}
        </Anchor>
      ))}
    </Group>
  );
}

/**
 * An Insights page: filters kept in the URL, total cards against the comparison period, a stacked chart
 * by utility or site, and the top sites. A click on a bar or a site opens the drill-down beside it.
 */
export function InsightsPage({
  measure,
  onDrill,
}: {
  measure: Measure;
  onDrill?: (target: DrillTarget) => void;
}) {
  const { company } = useSession();
  const [search, setSearch] = useSearchParams();
  const hidden = company.settings?.hideCostData === true;
  // The selection goes into the address, where the shell's provenance host opens the drill-down panel
  // beside the page; the back button closes it and the link can be shared.
  const drillTo = (target: DrillTarget) => {
    const { start, end } = filtersFromQuery(search, new Date());
    const selection: DrillSelection = { ...target, from: target.from ?? start, to: target.to ?? end };
    setSearch(new URLSearchParams(withProvenance(search, selection)));
    onDrill?.(target);
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{TITLES[measure]}</Title>
        <PageTabs measure={measure} />
      </Group>
      {measure === 'costs' && hidden ? (
        <EmptyPanel>Costs are hidden for your company.</EmptyPanel>
      ) : (
        <Insights measure={measure} onDrill={drillTo} />
      )}
    </Stack>
  );
}

export const EmissionsPage = () => <InsightsPage measure="emissions" />;
export const ConsumptionPage = () => <InsightsPage measure="consumption" />;
export const CostsPage = () => <InsightsPage measure="costs" />;
