import { Paper, Text } from '@mantine/core';
import { VictoryAxis, VictoryBar, VictoryChart, VictoryLegend, VictoryStack } from 'victory';
import { type Series, tickLabel, type ValueUnit } from './shape-series.ts';

const PALETTE = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#f59f00', '#0c8599', '#e03131', '#5c7cfa'];

/**
 * Bars from shaped series: one series as plain bars, several stacked with a legend. Gaps are left out,
 * so a missing value draws no bar rather than a zero-height one.
 */
export function BarChart({
  title,
  series,
  unit,
  height = 260,
  width = 640,
  color,
}: {
  /** Heads the chart and names the figure. */
  title: string;
  series: readonly Series[];
  unit?: ValueUnit;
  height?: number;
  width?: number;
  /** The colour of a single series; stacked series take the palette. */
  color?: string;
}) {
  // Every series has a point at every x; naming them keeps an x whose values are all gaps on the axis.
  const categories = series[0]?.points.map((p) => p.x) ?? [];
  const count = categories.length;
  const stacked = series.length > 1;
  const bars = series.map((s, i) => (
    <VictoryBar
      key={s.name}
      name={s.name}
      data={s.points.filter((p) => p.y !== null)}
      style={{ data: { fill: (!stacked && color) || PALETTE[i % PALETTE.length] } }}
      barRatio={0.8}
    />
  ));
  return (
    <Paper withBorder p="md" aria-label={title} role="figure">
      <Text fw={600} mb="xs">
        {title}
      </Text>
      <VictoryChart
        domainPadding={{ x: 16 }}
        categories={{ x: categories }}
        height={height}
        width={width}
        padding={{ top: stacked ? 36 : 10, bottom: 50, left: 70, right: 20 }}
      >
        {stacked && (
          <VictoryLegend
            x={70}
            y={0}
            orientation="horizontal"
            gutter={16}
            style={{ labels: { fontSize: 10 } }}
            data={series.map((s, i) => ({ name: s.name, symbol: { fill: PALETTE[i % PALETTE.length] } }))}
          />
        )}
        <VictoryAxis style={{ tickLabels: { fontSize: 10, angle: count > 8 ? -40 : 0 } }} />
        <VictoryAxis
          dependentAxis
          tickFormat={(t: number) => tickLabel(t, unit)}
          style={{ tickLabels: { fontSize: 10 } }}
        />
        {stacked ? <VictoryStack>{bars}</VictoryStack> : bars}
      </VictoryChart>
    </Paper>
  );
}
