import { Anchor, Group, NativeSelect, SimpleGrid, Stack, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { canUseRoute } from '../../../shared/access/route-access.ts';
import {
  CUSTOM_GROUPINGS,
  CUSTOM_MEASURES,
  CUSTOM_PERIODS,
  type CustomGrouping,
  type CustomMeasure,
  type CustomPeriod,
  GROUPING_NAMES,
  MEASURE_NAMES,
  PERIOD_NAMES,
} from '../../../shared/reports/custom-templates.ts';
import type { ReportScopeType } from '../../../shared/reports/report-templates.ts';
import { COMPANY_USERS } from '../../../shared/system/permission-sets.ts';
import { EmptyPanel } from '../../components/page-state.tsx';
import { QueryPanel, type QueryState } from '../../components/query-panel.tsx';
import { useSession } from '../../lib/app-context.tsx';
import {
  type CustomTemplateBody,
  type PreviewDocument,
  usePortfolioChoices,
  usePreviewTemplate,
  useSiteChoices,
} from './api.ts';
import { blocksOf, numbered, PreviewBlock } from './report-preview.tsx';

/** What the page shows, as its address holds it (so a view can be bookmarked and shared). */
export interface DynamicChoice {
  measure: CustomMeasure;
  grouping: CustomGrouping;
  period: CustomPeriod;
  scopeType: ReportScopeType;
  scopeId?: string;
}

const oneOf = <T extends string>(all: readonly T[], value: string | null, fallback: T): T =>
  (all as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

/** The choice an address asks for; users who read only part of the company start on a portfolio. */
export function dynamicChoiceOf(search: URLSearchParams, companyWide: boolean): DynamicChoice {
  const scopeType = oneOf(
    ['company', 'portfolio', 'asset'] as const,
    search.get('scopeType'),
    companyWide ? 'company' : 'portfolio',
  );
  const scopeId = search.get('scopeId') ?? '';
  return {
    measure: oneOf(CUSTOM_MEASURES, search.get('measure'), 'energy'),
    grouping: oneOf(CUSTOM_GROUPINGS, search.get('grouping'), 'month'),
    period: oneOf(CUSTOM_PERIODS, search.get('period'), 'last-12-months'),
    scopeType: !companyWide && scopeType === 'company' ? 'portfolio' : scopeType,
    ...(scopeType !== 'company' && scopeId ? { scopeId } : {}),
  };
}

/** The one-off template the choice makes: its key figures, its chart and its table, the builder's own sections. */
export function dynamicTemplate(c: DynamicChoice): CustomTemplateBody {
  const measure = MEASURE_NAMES[c.measure];
  const split = GROUPING_NAMES[c.grouping].toLowerCase();
  return {
    name: 'Figures explored',
    scopeType: c.scopeType,
    ...(c.scopeType !== 'company' && c.scopeId ? { scopeId: c.scopeId } : {}),
    period: c.period,
    sections: [
      { kind: 'figures', title: 'Key figures', measure: c.measure },
      { kind: 'chart', title: `${measure} ${split}`, measure: c.measure, grouping: c.grouping },
      { kind: 'table', title: `${measure} ${split}`, measure: c.measure, grouping: c.grouping },
    ],
  };
}

type Answer = { document: PreviewDocument; startDate: string; endDate: string };

/** Nothing to show when the table has no rows: no figures for the scope and period. */
const isEmptyAnswer = (a: Answer) =>
  blocksOf(a.document, 'table').every((t) => t.block.table.rows.length === 0);

/** The figures of a choice: key figures, the chart and the table (which exports as CSV). */
export function DynamicFigures({ answer }: { answer: Answer }) {
  const blocks = [
    ...blocksOf(answer.document, 'figures'),
    ...blocksOf(answer.document, 'chart'),
    ...blocksOf(answer.document, 'table'),
  ];
  return (
    <Stack gap="md" aria-label="Figures">
      {numbered(blocks).map(({ id, item }) => (
        <PreviewBlock key={id} block={item.block} />
      ))}
    </Stack>
  );
}

/** The page's results for a read of the figures. */
export function DynamicResults({
  query,
  scopeMissing,
}: {
  query: QueryState<Answer>;
  scopeMissing: boolean;
}) {
  if (scopeMissing) return <EmptyPanel>Choose a portfolio or a site.</EmptyPanel>;
  return (
    <QueryPanel
      query={query}
      errorTitle="These figures could not be read"
      loadingLabel="Reading the figures…"
      isEmpty={isEmptyAnswer}
      empty="No figures for this scope and period."
    >
      {(answer) => <DynamicFigures answer={answer} />}
    </QueryPanel>
  );
}

/**
 * /reports/dynamic: the report's figures explored without building a file. The measure, split, scope and
 * period are picked in the page; the figures are the preview of a one-off template, so they are the ones a
 * report of the same choice would hold.
 */
export function DynamicReportPage() {
  const { access } = useSession();
  const companyWide = canUseRoute(COMPANY_USERS, access);
  const [search, setSearch] = useSearchParams();
  const choice = dynamicChoiceOf(search, companyWide);
  const { data: portfolios } = usePortfolioChoices();
  const { data: sites } = useSiteChoices();
  const preview = usePreviewTemplate();
  const [state, setState] = useState<QueryState<Answer>>({ isLoading: true });
  const latest = useRef(0);
  const scopeMissing = choice.scopeType !== 'company' && !choice.scopeId;
  const key = JSON.stringify(choice);

  useEffect(() => {
    if (scopeMissing) return;
    latest.current += 1;
    const asked = latest.current;
    setState((s) => ({ data: s.data, isLoading: true }));
    // Only the answer to the last choice is shown, however the answers arrive.
    preview(dynamicTemplate(JSON.parse(key) as DynamicChoice), {})
      .then((data) => asked === latest.current && setState({ data, isLoading: false }))
      .catch((error: unknown) => asked === latest.current && setState({ error, isLoading: false }));
  }, [key, scopeMissing, preview]);

  const choose = (next: Partial<DynamicChoice>) => {
    const merged = { ...choice, ...next };
    const params = new URLSearchParams({
      measure: merged.measure,
      grouping: merged.grouping,
      period: merged.period,
      scopeType: merged.scopeType,
      ...(merged.scopeType !== 'company' && merged.scopeId ? { scopeId: merged.scopeId } : {}),
    });
    setSearch(params, { replace: true });
  };
  const scopeChoices =
    choice.scopeType === 'portfolio'
      ? (portfolios?.data ?? []).map((p) => ({ value: p._id, label: p.name }))
      : (sites?.data ?? []).map((s) => ({ value: s._id, label: s.siteName }));
  const scopeTypes = (
    companyWide ? (['company', 'portfolio', 'asset'] as const) : (['portfolio', 'asset'] as const)
  ).map((s) => ({
    value: s,
    label: { company: 'Whole company', portfolio: 'A portfolio', asset: 'A site' }[s],
  }));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Explore the figures</Title>
        <Group>
          <Anchor component={Link} to="/reports/builder">
            Build a report of them
          </Anchor>
          <Anchor component={Link} to="/reports">
            Reports
          </Anchor>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }}>
        <NativeSelect
          label="Shows"
          value={choice.measure}
          onChange={(e) => choose({ measure: e.currentTarget.value as CustomMeasure })}
          data={CUSTOM_MEASURES.map((m) => ({ value: m, label: MEASURE_NAMES[m] }))}
        />
        <NativeSelect
          label="Split"
          value={choice.grouping}
          onChange={(e) => choose({ grouping: e.currentTarget.value as CustomGrouping })}
          data={CUSTOM_GROUPINGS.map((g) => ({ value: g, label: GROUPING_NAMES[g] }))}
        />
        <NativeSelect
          label="Period"
          value={choice.period}
          onChange={(e) => choose({ period: e.currentTarget.value as CustomPeriod })}
          data={CUSTOM_PERIODS.map((p) => ({ value: p, label: PERIOD_NAMES[p] }))}
        />
        <NativeSelect
          label="Covering"
          value={choice.scopeType}
          onChange={(e) =>
            choose({ scopeType: e.currentTarget.value as ReportScopeType, scopeId: undefined })
          }
          data={scopeTypes}
        />
        {choice.scopeType !== 'company' && (
          <NativeSelect
            label={choice.scopeType === 'portfolio' ? 'Portfolio' : 'Site'}
            value={choice.scopeId ?? ''}
            onChange={(e) => choose({ scopeId: e.currentTarget.value || undefined })}
            data={[{ value: '', label: 'Choose…' }, ...scopeChoices]}
          />
        )}
      </SimpleGrid>
      <DynamicResults query={state} scopeMissing={scopeMissing} />
    </Stack>
  );
}
