import { Alert, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import {
  addressLine,
  type Comparison,
  carbonSummary,
  compareMonths,
  type KioskConsumption,
  type KioskLive,
  monthLabel,
  type SlideKey,
} from './kiosk-data.ts';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function Change({ change }: { change: number | null }) {
  if (change === null) return <Text c="dimmed">No figure for a year before</Text>;
  const better = change <= 0;
  return (
    <Text fw={700} c={better ? 'teal.7' : 'red.7'}>
      {change > 0 ? '+' : ''}
      {formatNumber(change, { maximumFractionDigits: 1 })}% on a year before
    </Text>
  );
}

function Missing({ children }: { children: string }) {
  return (
    <Text size="xl" c="dimmed">
      {children}
    </Text>
  );
}

function ConsumptionState({
  consumption,
  error,
}: {
  consumption: KioskConsumption | undefined;
  error: unknown;
}) {
  if (error && !consumption) {
    return (
      <Alert color="red" title="Consumption data could not be loaded" role="alert">
        {error instanceof Error ? error.message : String(error)}
      </Alert>
    );
  }
  if (!consumption) return <Missing>Loading consumption…</Missing>;
  return <Missing>No consumption has been recorded for this building yet.</Missing>;
}

function UtilityCard({ row }: { row: Comparison }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Text size="lg" c="dimmed">
        {capitalise(row.utilityType)}
      </Text>
      <Text fz={36} fw={700}>
        {formatNumber(row.current, { maximumFractionDigits: 0 })} {row.unit}
      </Text>
      <Change change={row.change} />
    </Paper>
  );
}

function ConsumptionSlide({ consumption }: { consumption: KioskConsumption }) {
  const rows = compareMonths(consumption);
  return (
    <Stack>
      <Text size="xl">{monthLabel(consumption.month)}</Text>
      <SimpleGrid cols={{ base: 1, sm: Math.min(rows.length, 3) }}>
        {rows.map((row) => (
          <UtilityCard key={`${row.utilityType}:${row.unit}`} row={row} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function Bar({ label, value, max, unit }: { label: string; value: number; max: number; unit: string }) {
  return (
    <div>
      <Group justify="space-between">
        <Text size="lg">{label}</Text>
        <Text size="lg" fw={700}>
          {formatNumber(value, { maximumFractionDigits: 0 })} {unit}
        </Text>
      </Group>
      <div style={{ height: 24, borderRadius: 4, background: 'var(--mantine-color-gray-2)' }}>
        <div
          style={{
            height: '100%',
            width: `${max > 0 ? Math.round((value / max) * 100) : 0}%`,
            borderRadius: 4,
            background: 'var(--mantine-color-teal-6)',
          }}
        />
      </div>
    </div>
  );
}

function EnergyUsageSlide({ consumption }: { consumption: KioskConsumption }) {
  const electricity = compareMonths(consumption).find((r) => r.utilityType === 'electricity');
  if (!electricity) return <Missing>No electricity consumption has been recorded for this building.</Missing>;
  const max = Math.max(electricity.current, electricity.previous ?? 0);
  return (
    <Stack maw={900}>
      <Bar
        label={monthLabel(consumption.month)}
        value={electricity.current}
        max={max}
        unit={electricity.unit}
      />
      {electricity.previous !== null && (
        <Bar
          label={monthLabel(consumption.sameMonthLastYear.month)}
          value={electricity.previous}
          max={max}
          unit={electricity.unit}
        />
      )}
      <Change change={electricity.change} />
    </Stack>
  );
}

function CarbonSlide({ consumption }: { consumption: KioskConsumption }) {
  const carbon = carbonSummary(consumption);
  const tonnes = (kg: number) => `${formatNumber(kg / 1000, { maximumFractionDigits: 2 })} t CO₂e`;
  return (
    <Stack>
      <Text size="xl">{monthLabel(consumption.month)}</Text>
      <Text fz={56} fw={700}>
        {tonnes(carbon.currentKg)}
      </Text>
      {carbon.previousKg !== null && (
        <Text size="xl" c="dimmed">
          {monthLabel(consumption.sameMonthLastYear.month)}: {tonnes(carbon.previousKg)}
        </Text>
      )}
      <Change change={carbon.change} />
    </Stack>
  );
}

function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text fz={56} fw={700}>
      {formatDateTime(now)}
    </Text>
  );
}

function NewsSlide({ live }: { live: KioskLive }) {
  return (
    <Stack>
      <Clock />
      <Text size="xl">{addressLine(live.asset)}</Text>
      <Missing>No news, weather or travel feed is connected to this screen.</Missing>
    </Stack>
  );
}

/** The body of one slide; slides whose data is missing say so rather than showing empty charts. */
export function SlideBody({
  slide,
  live,
  consumption,
  consumptionError,
}: {
  slide: SlideKey;
  live: KioskLive;
  consumption: KioskConsumption | undefined;
  consumptionError: unknown;
}) {
  if (slide === 'news') return <NewsSlide live={live} />;
  if (slide === 'leaderboard') {
    return (
      <Missing>Floor comparisons appear here once the floors of this building have their own meters.</Missing>
    );
  }
  if (!consumption || consumption.data.length === 0) {
    return <ConsumptionState consumption={consumption} error={consumptionError} />;
  }
  if (slide === 'consumption') return <ConsumptionSlide consumption={consumption} />;
  if (slide === 'energy-usage') return <EnergyUsageSlide consumption={consumption} />;
  return <CarbonSlide consumption={consumption} />;
}
