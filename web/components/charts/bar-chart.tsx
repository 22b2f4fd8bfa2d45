import { Paper, Text } from '@mantine/core';
import { type Ref, useId } from 'react';
import { VictoryAxis, VictoryBar, VictoryChart, VictoryLegend, VictoryStack } from 'victory';
import { type Series, tickLabel, type ValueUnit } from './shape-series.ts';

const PALETTE = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#f59f00', '#0c8599', '#e03131', '#5c7cfa'];
const ESTIMATED_LEGEND = '#868e96';
/** Long legends wrap rather than run off the chart. */
const LEGEND_ITEMS_PER_ROW = 4;

/** What a click on a bar names: its series and its x value. */
export interface BarClick {
  series: string;
  x: string;
}

/** The colour of each series: its own from the palette, or its base series' for an estimated part. */
export function seriesColours(series: readonly Series[], single?: string): string[] {
  const own = new Map<string, string>();
  let next = 0;
  for (const s of series) {
    if (s.estimatedOf) continue;
    own.set(s.name, (series.length === 1 && single) || (PALETTE[next % PALETTE.length] as string));
    next += 1;
  }
  return series.map((s) => own.get(s.estimatedOf ?? s.name) ?? (PALETTE[0] as string));
}

/** A diagonal hatch in a colour, for the estimated part of a bar. */
function Hatch({ id, colour }: { id: string; colour: string }) {
  return (
    <pattern id={id} patternUnits="userSpaceOnUse" width={6} height={6} patternTransform="rotate(45)">
      <rect width={6} height={6} fill={colour} fillOpacity={0.2} />
      <line x1={0} y1={0} x2={0} y2={6} stroke={colour} strokeWidth={3} />
    </pattern>
  );
}

/**
 * Bars from shaped series: one series as plain bars, several stacked with a legend. Gaps are left out,
 * so a missing value draws no bar rather than a zero-height one. A series marked as the estimated part of
 * another is drawn hatched in that one's colour, and the legend has one "Estimated" entry for all of them.
 */
export function BarChart({
  title,
  series,
  unit,
  height = 260,
  width = 640,
  color,
  onBarClick,
  figureRef,
}: {
  /** Heads the chart and names the figure. */
  title: string;
  series: readonly Series[];
  unit?: ValueUnit;
  height?: number;
  width?: number;
  /** The colour of a single series; stacked series take the palette. */
  color?: string;
  onBarClick?: (click: BarClick) => void;
  /** The figure element, for exporting the chart's SVG. */
  figureRef?: Ref<HTMLDivElement>;
}) {
  // Pattern ids must be unique in the document and plain enough for url(#…).
  const hatchId = `hatch-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  // Every series has a point at every x; naming them keeps an x whose values are all gaps on the axis.
  const categories = series[0]?.points.map((p) => p.x) ?? [];
  const count = categories.length;
  const stacked = series.length > 1;
  const colours = seriesColours(series, color);
  const fillOf = (i: number) =>
    series[i]?.estimatedOf ? `url(#${hatchId}-${i})` : (colours[i] ?? PALETTE[0]);
  const hasEstimates = series.some((s) => s.estimatedOf);
  const bars = series.map((s, i) => (
    <VictoryBar
      key={s.name}
      name={s.name}
      data={s.points.filter((p) => p.y !== null)}
      style={{ data: { fill: fillOf(i), cursor: onBarClick ? 'pointer' : 'default' } }}
      barRatio={0.8}
      events={
        onBarClick
          ? [
              {
                target: 'data',
                eventHandlers: {
                  onClick: (_event: unknown, props: { datum?: { x?: unknown; xName?: unknown } }) => {
                    const x = props.datum?.xName ?? props.datum?.x;
                    if (typeof x === 'string') onBarClick({ series: s.estimatedOf ?? s.name, x });
                    return [];
                  },
                },
              },
            ]
          : undefined
      }
    />
  ));
  const legend = [
    ...series.flatMap((s, i) => (s.estimatedOf ? [] : [{ name: s.name, symbol: { fill: fillOf(i) } }])),
    ...(hasEstimates ? [{ name: 'Estimated', symbol: { fill: `url(#${hatchId}-legend)` } }] : []),
  ];
  const withLegend = stacked || hasEstimates;
  const legendRows = Math.ceil(legend.length / LEGEND_ITEMS_PER_ROW);
  return (
    <Paper withBorder p="md" aria-label={title} role="figure" ref={figureRef}>
      <Text fw={600} mb="xs">
        {title}
      </Text>
      {hasEstimates && (
        <svg width={0} height={0} aria-hidden="true" style={{ position: 'absolute' }} data-chart-defs>
          <defs>
            {series.map((s, i) =>
              s.estimatedOf ? <Hatch key={s.name} id={`${hatchId}-${i}`} colour={colours[i] ?? ''} /> : null,
            )}
            <Hatch id={`${hatchId}-legend`} colour={ESTIMATED_LEGEND} />
          </defs>
        </svg>
      )}
      <VictoryChart
        domainPadding={{ x: 16 }}
        categories={{ x: categories }}
        height={height}
        width={width}
        padding={{ top: withLegend ? 18 + legendRows * 18 : 10, bottom: 50, left: 70, right: 20 }}
      >
        {withLegend && (
          <VictoryLegend
            x={70}
            y={0}
            orientation="horizontal"
            itemsPerRow={LEGEND_ITEMS_PER_ROW}
            gutter={16}
            style={{ labels: { fontSize: 10 } }}
            data={legend}
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
