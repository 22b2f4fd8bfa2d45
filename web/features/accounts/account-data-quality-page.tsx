import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import type { MeterQualityAnswer } from '../../../shared/schemas/dashboard-widgets.ts';
import { AccountLayout } from '../../components/account-frame.tsx';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { DateRangeField } from '../../components/date-range-presets.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useMeterDataQuality } from './api.ts';
import { defaultConsumptionWindow, periodLabel } from './consumption-shape.ts';

/** One finding of the meter's bills, whatever its kind, for one table. */
interface Finding {
  id: string;
  kind: string;
  period: string;
  days: number | null;
  detail: string;
}

function findingsOf(q: MeterQualityAnswer): Finding[] {
  const unit = q.unit;
  const fillOf = new Map(q.fills.map((f) => [`${f.start}/${f.end}`, f]));
  return [
    ...q.gaps.map((g) => {
      const fill = fillOf.get(`${g.start}/${g.end}`);
      return {
        id: `gap-${g.start}`,
        kind: 'Gap',
        period: `${g.start} to ${g.end}`,
        days: g.days,
        detail: fill
          ? `Estimated ${formatNumber(fill.quantity, { maximumFractionDigits: 0 })} ${unit} from ${fill.basis === 'same-period-last-year' ? 'the same period last year' : 'the average daily use'}`
          : 'No bill to estimate from',
      };
    }),
    ...q.overlaps.map((o) => ({
      id: `overlap-${o.start}-${o.droppedBillId}`,
      kind: 'Overlap',
      period: `${o.start} to ${o.end}`,
      days: o.days,
      detail: 'Two bills cover these days; one is counted',
    })),
    ...q.estimatedReadBills.map((id) => ({
      id: `estimate-${id}`,
      kind: 'Estimated read',
      period: '',
      days: null,
      detail: `Bill ${id} was billed on an estimated read`,
    })),
    ...q.outliers.map((o) => ({
      id: `outlier-${o.month}`,
      kind: o.direction === 'high' ? 'High use' : 'Low use',
      period: periodLabel(o.month),
      days: null,
      detail: `${formatNumber(o.ratio, { maximumFractionDigits: 1 })}× the neighbouring months per day`,
    })),
  ];
}

const COLUMNS: DataTableColumn<Finding>[] = [
  { key: 'kind', label: 'Finding', value: (f) => f.kind },
  { key: 'period', label: 'Period', value: (f) => f.period },
  { key: 'days', label: 'Days', value: (f) => f.days, numeric: true },
  { key: 'detail', label: 'Detail', value: (f) => f.detail },
];

function Summary({ q }: { q: MeterQualityAnswer }) {
  const cards = [
    {
      label: 'Days covered by bills',
      value: `${formatNumber(q.coverage * 100, { maximumFractionDigits: 1 })}%`,
    },
    { label: 'Days in gaps', value: formatNumber(q.gapDays, { maximumFractionDigits: 0 }) },
    { label: 'Days billed twice', value: formatNumber(q.overlapDays, { maximumFractionDigits: 0 }) },
    { label: 'Estimated days', value: formatNumber(q.estimatedDays, { maximumFractionDigits: 0 }) },
    { label: 'Outlying months', value: formatNumber(q.outliers.length, { maximumFractionDigits: 0 }) },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }}>
      {cards.map((c) => (
        <Paper key={c.label} withBorder p="md">
          <Text size="sm" c="dimmed">
            {c.label}
          </Text>
          <Text fz={22} fw={700} aria-label={c.label}>
            {c.value}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function Quality({ account }: { account: AccountView }) {
  const [window, setWindow] = useState(defaultConsumptionWindow(new Date()));
  const { data, error, isLoading } = useMeterDataQuality(account._id, window);
  return (
    <Stack>
      <DateRangeField
        value={{ start: window.startDate, end: window.endDate }}
        onChange={({ start, end }) => setWindow({ startDate: start, endDate: end })}
      />
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && (
        <>
          <Summary q={data} />
          <Title order={5}>What the bills show ({data.bills} bills)</Title>
          <DataTable
            label="Data quality findings"
            columns={COLUMNS}
            rows={findingsOf(data)}
            rowKey={(f) => f.id}
            empty="No gaps, overlaps, estimates or outliers in this period."
            csvFilename="data-quality.csv"
          />
        </>
      )}
    </Stack>
  );
}

/** /assets/{id}/accounts/{accountId}/data-quality: where the meter's bills leave gaps, overlap or stand out. */
export function AccountDataQualityPage() {
  return <AccountLayout tab="data-quality">{(account) => <Quality account={account} />}</AccountLayout>;
}
