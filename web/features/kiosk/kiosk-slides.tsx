import { Alert, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import {
  addressLine,
  type Comparison,
  carbonSummary,
  compareMonths,
  type FeedItem,
  type HalfHourlyDay,
  type KioskConsumption,
  type KioskLive,
  type KioskNews,
  type LeaderboardRow,
  monthLabel,
  periodTime,
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

/** The day's half-hours as bars; a gap is left where a reading is missing. */
function HalfHourlyChart({ day }: { day: HalfHourlyDay }) {
  const max = Math.max(0, ...day.values.map((v) => v ?? 0));
  const total = day.values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
  const peak = day.values.indexOf(max);
  const width = 100 / Math.max(day.values.length, 1);
  return (
    <Stack gap="sm">
      <Text size="xl">
        {new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(day.date))}:{' '}
        <b>
          {formatNumber(total, { maximumFractionDigits: 0 })} {day.unit}
        </b>
        {peak >= 0 && max > 0 && `, highest at ${periodTime(peak)}`}
      </Text>
      <svg
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
        role="img"
        aria-label={`Half-hourly electricity on ${day.date}`}
        style={{ width: '100%', height: 'min(40vh, 420px)' }}
      >
        {day.values.map((v, i) =>
          v === null ? null : (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: a settlement period is its position in the day
              key={i}
              x={i * width + width * 0.1}
              width={width * 0.8}
              y={40 - (max > 0 ? (v / max) * 40 : 0)}
              height={max > 0 ? (v / max) * 40 : 0}
              fill="var(--mantine-color-teal-6)"
            />
          ),
        )}
      </svg>
      <Group justify="space-between">
        {['00:00', '06:00', '12:00', '18:00', '24:00'].map((t) => (
          <Text key={t} c="dimmed">
            {t}
          </Text>
        ))}
      </Group>
    </Stack>
  );
}

function EnergyUsageSlide({ consumption }: { consumption: KioskConsumption }) {
  if (consumption.halfHourly && consumption.halfHourly.values.length > 0)
    return <HalfHourlyChart day={consumption.halfHourly} />;
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

function Headlines({ title, part }: { title: string; part: KioskNews['news'] }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Text fw={700} size="xl" mb="sm">
        {title}
      </Text>
      {!part.configured ? (
        <Text c="dimmed">No feed is set for this screen.</Text>
      ) : part.error && part.data.length === 0 ? (
        <Text c="dimmed">Not available just now.</Text>
      ) : (
        <Stack gap="xs">
          {part.data.slice(0, 4).map((item: FeedItem) => (
            <div key={`${item.title}${item.publishedAt ?? ''}`}>
              <Text size="lg" fw={600}>
                {item.title}
              </Text>
              {item.description && <Text c="dimmed">{item.description}</Text>}
            </div>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function Weather({ weather }: { weather: KioskNews['weather'] }) {
  const now = weather.data;
  return (
    <Paper withBorder p="lg" radius="md">
      <Text fw={700} size="xl" mb="sm">
        Weather
      </Text>
      {!weather.configured ? (
        <Text c="dimmed">No feed is set for this screen.</Text>
      ) : !now ? (
        <Text c="dimmed">Not available just now.</Text>
      ) : (
        <Stack gap="xs">
          <Text fz={48} fw={700}>
            {formatNumber(now.temperatureC, { maximumFractionDigits: 0 })}°C
          </Text>
          <Text size="lg">
            {now.summary}
            {now.windKph !== undefined &&
              `, wind ${formatNumber(now.windKph, { maximumFractionDigits: 0 })} km/h`}
          </Text>
          {now.daily.map((d) => (
            <Text key={d.date} c="dimmed">
              {new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(
                new Date(d.date),
              )}
              : {d.summary}, {formatNumber(d.minC, { maximumFractionDigits: 0 })}–
              {formatNumber(d.maxC, { maximumFractionDigits: 0 })}°C
            </Text>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function NewsSlide({ live, news }: { live: KioskLive; news: KioskNews | undefined }) {
  return (
    <Stack>
      <Group justify="space-between" align="baseline">
        <Clock />
        <Text size="xl">{news?.place ?? addressLine(live.asset)}</Text>
      </Group>
      {!news ? (
        <Missing>Loading news, weather and travel…</Missing>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }} className="vf-kiosk-grid">
          <Headlines title="News" part={news.news} />
          <Weather weather={news.weather} />
          <Headlines title="Travel" part={news.travel} />
        </SimpleGrid>
      )}
    </Stack>
  );
}

function LeaderboardSlide({ rows, month }: { rows: readonly LeaderboardRow[]; month: string | null }) {
  if (rows.length === 0)
    return <Missing>The leaderboard appears once this building has a month of consumption.</Missing>;
  return (
    <Stack>
      <Text size="xl">{monthLabel(month)} against a year before</Text>
      <Table fz="xl" aria-label="Leaderboard" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>Site</Table.Th>
            <Table.Th ta="right">Energy</Table.Th>
            <Table.Th ta="right">Change</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr
              key={r.assetId}
              fw={r.thisBuilding ? 700 : undefined}
              bg={r.thisBuilding ? 'teal.0' : undefined}
            >
              <Table.Td>{i + 1}</Table.Td>
              <Table.Td>
                {r.siteName}
                {r.thisBuilding && ' (this building)'}
              </Table.Td>
              <Table.Td ta="right">{formatNumber(r.currentKwh, { maximumFractionDigits: 0 })} kWh</Table.Td>
              <Table.Td ta="right" c={r.change === null ? 'dimmed' : r.change <= 0 ? 'teal.7' : 'red.7'}>
                {r.change === null
                  ? '–'
                  : `${r.change > 0 ? '+' : ''}${formatNumber(r.change, { maximumFractionDigits: 1 })}%`}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** The body of one slide; slides whose data is missing say so rather than showing empty charts. */
export function SlideBody({
  slide,
  live,
  consumption,
  consumptionError,
  news,
}: {
  slide: SlideKey;
  live: KioskLive;
  consumption: KioskConsumption | undefined;
  consumptionError: unknown;
  news: KioskNews | undefined;
}) {
  if (slide === 'news') return <NewsSlide live={live} news={news} />;
  if (slide === 'leaderboard' && consumption) {
    return <LeaderboardSlide rows={consumption.leaderboard ?? []} month={consumption.month} />;
  }
  if (slide === 'energy-usage' && consumption?.halfHourly)
    return <EnergyUsageSlide consumption={consumption} />;
  if (!consumption || consumption.data.length === 0 || slide === 'leaderboard') {
    return <ConsumptionState consumption={consumption} error={consumptionError} />;
  }
  if (slide === 'consumption') return <ConsumptionSlide consumption={consumption} />;
  if (slide === 'energy-usage') return <EnergyUsageSlide consumption={consumption} />;
  return <CarbonSlide consumption={consumption} />;
}
