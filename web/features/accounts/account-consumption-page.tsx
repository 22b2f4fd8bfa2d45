import { Anchor, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { VictoryAxis, VictoryChart, VictoryLine, VictoryScatter } from 'victory';
import type { AccountConsumption, AccountView } from '../../../shared/schemas/account-views.ts';
import { AccountLayout } from '../../components/account-frame.tsx';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import { axisTitle, shapeSeries } from '../../components/charts/shape-series.ts';
import { DateRangeField } from '../../components/date-range-presets.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatNumber } from '../../lib/format.ts';
import { withProvenance } from '../../lib/provenance-link.ts';
import { useConsumption } from './api.ts';
import { defaultConsumptionWindow, periodLabel } from './consumption-shape.ts';

const money = (v: number) => `£${formatNumber(v, { maximumFractionDigits: 2, minimumFractionDigits: 2 })}`;

function Totals({ result }: { result: AccountConsumption }) {
  const cards = [
    { label: 'Consumption', value: `${formatNumber(result.totals.consumption)} ${result.unit}` },
    { label: 'Cost (net)', value: money(result.totals.cost) },
    {
      label: 'Emissions',
      value: `${formatNumber(result.totals.emissionsKg / 1000, { maximumFractionDigits: 2 })} tCO₂e`,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
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

/**
 * The cost axis runs from £0 (or the lowest credit): an axis starting near the smallest month makes a
 * small change look like a large one.
 */
export function costDomain(costs: readonly number[]): [number, number] {
  const low = Math.min(0, ...costs);
  const high = Math.max(0, ...costs);
  return [low, high > low ? high : low + 1];
}

/** Cost per period: a line, so a month's change reads at a glance. */
export function CostChart({ result }: { result: AccountConsumption }) {
  const data = result.data.map((p) => ({ x: periodLabel(p.period), y: p.cost }));
  const title = 'Cost (£, net of VAT)';
  return (
    <Paper withBorder p="md" aria-label={title} role="figure">
      <Text fw={600} mb="xs">
        {title}
      </Text>
      <VictoryChart
        domainPadding={{ x: 16 }}
        height={260}
        width={640}
        padding={{ top: 10, bottom: 50, left: 70, right: 20 }}
        domain={{ y: costDomain(data.map((d) => d.y)) }}
      >
        <VictoryAxis style={{ tickLabels: { fontSize: 10, angle: data.length > 8 ? -40 : 0 } }} />
        <VictoryAxis
          dependentAxis
          tickFormat={(t: number) =>
            `${t < 0 ? '-' : ''}£${formatNumber(Math.abs(t), { maximumFractionDigits: 0 })}`
          }
          style={{ tickLabels: { fontSize: 10 } }}
        />
        <VictoryLine data={data} style={{ data: { stroke: '#e8590c', strokeWidth: 2 } }} />
        <VictoryScatter data={data} size={3} style={{ data: { fill: '#e8590c' } }} />
      </VictoryChart>
    </Paper>
  );
}

function ConsumptionChart({ result }: { result: AccountConsumption }) {
  const { series } = shapeSeries(result.data, { x: (p) => periodLabel(p.period), y: (p) => p.consumption });
  return <BarChart title={axisTitle('Consumption', { unit: result.unit })} series={series} />;
}

function Figures({ account }: { account: AccountView }) {
  const [search] = useSearchParams();
  const [window, setWindow] = useState(defaultConsumptionWindow(new Date()));
  const [granularity, setGranularity] = useState('monthly');
  const { data, error, isLoading } = useConsumption(account._id, { ...window, granularity });
  return (
    <Stack>
      <Group align="flex-end">
        <DateRangeField
          value={{ start: window.startDate, end: window.endDate }}
          onChange={({ start, end }) => setWindow({ startDate: start, endDate: end })}
        />
        <NativeSelect
          label="Granularity"
          value={granularity}
          onChange={(e) => setGranularity(e.currentTarget.value)}
          data={[
            { value: 'monthly', label: 'Monthly' },
            { value: 'yearly', label: 'Yearly' },
          ]}
        />
      </Group>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && data.data.length === 0 && <EmptyPanel>No consumption recorded in this period.</EmptyPanel>}
      {data && data.data.length > 0 && (
        <>
          <Totals result={data} />
          <ConsumptionChart result={data} />
          <CostChart result={data} />
          <Paper withBorder p="md">
            <Title order={5} mb="xs">
              By period
            </Title>
            <Table aria-label="Consumption by period">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Period</Table.Th>
                  <Table.Th ta="right">Consumption ({data.unit})</Table.Th>
                  <Table.Th ta="right">Cost</Table.Th>
                  <Table.Th ta="right">Emissions (kgCO₂e)</Table.Th>
                  <Table.Th>Sources</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((p) => (
                  <Table.Tr key={p.period}>
                    <Table.Td>
                      {periodLabel(p.period)}
                      {p.estimated ? ' (estimated)' : ''}
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(p.consumption)}</Table.Td>
                    <Table.Td ta="right">{money(p.cost)}</Table.Td>
                    <Table.Td ta="right">
                      {formatNumber(p.emissionsKg, { maximumFractionDigits: 0 })}
                    </Table.Td>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        size="sm"
                        aria-label={`Where does ${periodLabel(p.period)} come from?`}
                        to={withProvenance(search, {
                          ...(account.assetId ? { assetId: account.assetId } : {}),
                          accountId: account._id,
                          ...(p.period.length === 7 ? { month: p.period } : {}),
                          from: p.startDate,
                          to: p.endDate,
                        })}
                      >
                        Where does this come from?
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        </>
      )}
    </Stack>
  );
}

/** /assets/{id}/accounts/{accountId}/consumption: the only page that loads the chart library. */
export function AccountConsumptionPage() {
  return <AccountLayout tab="consumption">{(account) => <Figures account={account} />}</AccountLayout>;
}
