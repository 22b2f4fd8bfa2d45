import { Paper, Text } from '@mantine/core';
import type { Ref } from 'react';
import { VictoryAxis, VictoryChart, VictoryLabel, VictoryLegend, VictoryLine } from 'victory';

const PALETTE = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9'];
const MARKER = '#e03131';

/** A line over numeric x (years): its points, and whether it is drawn dashed (a projection, a limit). */
export interface LineSeries {
  name: string;
  points: readonly { x: number; y: number }[];
  dashed?: boolean;
  colour?: string;
}

/**
 * Lines over years, with an optional vertical marker (a year something happens in) labelled on the chart.
 * Series with no points are left out of the chart and its legend.
 */
export function LineChart({
  title,
  series,
  unit,
  marker,
  domainX,
  height = 280,
  width = 640,
  figureRef,
}: {
  title: string;
  series: readonly LineSeries[];
  unit: string;
  marker?: { x: number; label: string };
  domainX?: [number, number];
  height?: number;
  width?: number;
  figureRef?: Ref<HTMLDivElement>;
}) {
  const drawn = series.filter((s) => s.points.length > 0);
  const colourOf = (s: LineSeries, i: number) => s.colour ?? (PALETTE[i % PALETTE.length] as string);
  const top = Math.max(1, ...drawn.flatMap((s) => s.points.map((p) => p.y)));
  return (
    <Paper withBorder p="md" aria-label={title} role="figure" ref={figureRef}>
      <Text fw={600} mb="xs">
        {title}
      </Text>
      <VictoryChart
        height={height}
        width={width}
        padding={{ top: 36, bottom: 40, left: 70, right: 20 }}
        domain={{ ...(domainX ? { x: domainX } : {}), y: [0, top * 1.1] }}
      >
        <VictoryLegend
          x={70}
          y={0}
          orientation="horizontal"
          gutter={16}
          style={{ labels: { fontSize: 10 } }}
          data={[
            ...drawn.map((s, i) => ({ name: s.name, symbol: { fill: colourOf(s, i) } })),
            ...(marker ? [{ name: marker.label, symbol: { fill: MARKER } }] : []),
          ]}
        />
        <VictoryAxis
          tickFormat={(t: number) => String(Math.round(t))}
          style={{ tickLabels: { fontSize: 10 } }}
        />
        <VictoryAxis
          dependentAxis
          label={unit}
          axisLabelComponent={<VictoryLabel dy={-30} />}
          style={{ tickLabels: { fontSize: 10 }, axisLabel: { fontSize: 10 } }}
        />
        {drawn.map((s, i) => (
          <VictoryLine
            key={s.name}
            name={s.name}
            data={[...s.points]}
            style={{
              data: {
                stroke: colourOf(s, i),
                strokeWidth: 2,
                ...(s.dashed ? { strokeDasharray: '5,4' } : {}),
              },
            }}
          />
        ))}
        {marker && (
          <VictoryLine
            name="marker"
            data={[
              { x: marker.x, y: 0 },
              { x: marker.x, y: top * 1.05 },
            ]}
            style={{ data: { stroke: MARKER, strokeWidth: 1.5, strokeDasharray: '2,3' } }}
            labels={({ index }: { index: number }) => (index === 1 ? String(marker.x) : '')}
            labelComponent={<VictoryLabel style={{ fontSize: 10, fill: MARKER }} />}
          />
        )}
      </VictoryChart>
    </Paper>
  );
}
