import { Group, Paper, Text } from '@mantine/core';
import { VictoryAxis, VictoryBar, VictoryChart } from 'victory';
import { tickLabel, type ValueUnit } from './shape-series.ts';

/** One step of a waterfall: a total standing on the axis, or a change floating from the running total. */
export interface WaterfallStep {
  label: string;
  value: number;
  kind: 'total' | 'change';
}

const TOTAL = '#1c7ed6';
const UP = '#e03131';
const DOWN = '#2f9e44';

export interface WaterfallBar {
  x: string;
  /** Where the bar starts and ends on the value axis. */
  y0: number;
  y: number;
  fill: string;
  value: number;
}

/**
 * The bars of a waterfall: a total from zero to its value and sets the running total; a change floats
 * from the running total to the total plus the change. Rises are red and falls green, as less is better.
 */
export function waterfallBars(steps: readonly WaterfallStep[]): WaterfallBar[] {
  let running = 0;
  return steps.map((s) => {
    if (s.kind === 'total') {
      running = s.value;
      return { x: s.label, y0: 0, y: s.value, fill: TOTAL, value: s.value };
    }
    const from = running;
    running += s.value;
    return { x: s.label, y0: from, y: running, fill: s.value > 0 ? UP : DOWN, value: s.value };
  });
}

/** A signed figure for a change, an unsigned one for a total. */
function valueText(bar: WaterfallBar, kind: WaterfallStep['kind'], unit: ValueUnit, digits: number): string {
  const text = tickLabel(bar.value, unit, digits);
  return kind === 'change' && bar.value >= 0 ? `+${text}` : text;
}

/**
 * A waterfall: a starting total, the changes that lead from it, and the total they arrive at. The steps
 * are also listed under the chart with their figures, so they can be read without the drawing.
 */
export function WaterfallChart({
  title,
  steps,
  unit,
  fractionDigits = 0,
  height = 240,
  width = 640,
}: {
  title: string;
  steps: readonly WaterfallStep[];
  unit?: ValueUnit;
  fractionDigits?: number;
  height?: number;
  width?: number;
}) {
  const bars = waterfallBars(steps);
  return (
    <Paper withBorder p="md" aria-label={title} role="figure">
      <Text fw={600} mb="xs">
        {title}
      </Text>
      <VictoryChart
        domainPadding={{ x: 40 }}
        categories={{ x: bars.map((b) => b.x) }}
        height={height}
        width={width}
        padding={{ top: 10, bottom: 40, left: 80, right: 20 }}
      >
        <VictoryAxis style={{ tickLabels: { fontSize: 10 } }} />
        <VictoryAxis
          dependentAxis
          tickFormat={(t: number) => tickLabel(t, unit)}
          style={{ tickLabels: { fontSize: 10 } }}
        />
        <VictoryBar
          data={bars}
          barRatio={0.6}
          style={{ data: { fill: ({ datum }: { datum?: WaterfallBar }) => datum?.fill ?? TOTAL } }}
        />
      </VictoryChart>
      <Group gap="lg" wrap="wrap">
        {bars.map((b, i) => (
          <Text key={b.x} size="sm" data-step={b.x}>
            <Text span c="dimmed">
              {b.x}
            </Text>{' '}
            <Text span fw={600} c={steps[i]?.kind === 'total' ? undefined : b.value > 0 ? 'red' : 'teal'}>
              {valueText(b, steps[i]?.kind ?? 'total', unit, fractionDigits)}
            </Text>
          </Text>
        ))}
      </Group>
    </Paper>
  );
}
