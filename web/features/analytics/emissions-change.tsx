import { Text } from '@mantine/core';
import { WaterfallChart, type WaterfallStep } from '../../components/charts/waterfall-chart.tsx';
import type { EmissionsChange } from './analytics-answer.ts';

/** The steps of the year-on-year waterfall, in tonnes once either total passes ten tonnes. */
export function emissionsChangeSteps(change: EmissionsChange): { steps: WaterfallStep[]; unit: string } {
  const tonnes = Math.max(Math.abs(change.previousKg), Math.abs(change.currentKg)) > 10_000;
  const scale = (kg: number) => (tonnes ? kg / 1000 : kg);
  const steps: WaterfallStep[] = [
    { label: 'Last year', value: scale(change.previousKg), kind: 'total' },
    { label: 'Consumption', value: scale(change.consumptionKg), kind: 'change' },
    { label: 'Emission factors', value: scale(change.factorKg), kind: 'change' },
    { label: 'Floor area', value: scale(change.areaKg), kind: 'change' },
    { label: 'This period', value: scale(change.currentKg), kind: 'total' },
  ];
  return { steps, unit: tonnes ? 't CO₂e' : 'kg CO₂e' };
}

/** The change in emissions since the same period last year, split by what caused it. */
export function EmissionsChangePanel({ change }: { change: EmissionsChange }) {
  const { steps, unit } = emissionsChangeSteps(change);
  return (
    <>
      <WaterfallChart
        title={`Change in emissions since last year (${unit})`}
        steps={steps}
        unit={{ unit }}
        fractionDigits={unit === 'kg CO₂e' ? 0 : 1}
      />
      <Text size="xs" c="dimmed">
        {change.areaUsed
          ? `Floor area counted: ${Math.round(change.floorAreaM2.previous).toLocaleString('en-GB')} m² last year, ${Math.round(change.floorAreaM2.current).toLocaleString('en-GB')} m² now; consumption is per m².`
          : 'No floor area is recorded for these sites, so consumption carries the whole change in activity.'}
      </Text>
    </>
  );
}
