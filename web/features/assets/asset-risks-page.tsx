import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { AirQuality, CrimeSummary, FloodRisks } from '../../../shared/schemas/asset-public-data.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { type AssetView, type Read, useAirQuality, useCrime, useFloodRisks } from './api.ts';
import { AssetFrame } from './asset-frame.tsx';
import { AssetRegulatoryTimeline } from './asset-regulatory-timeline.tsx';
import { EpcBadge } from './ui.tsx';

const SEVERITY_COLOURS: Record<number, string> = { 1: 'red', 2: 'orange', 3: 'yellow', 4: 'gray' };
const label = (category: string) => category.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());

function Panel<T>({
  title,
  read,
  children,
}: {
  title: string;
  read: Read<T>;
  children: (data: T) => ReactNode;
}) {
  const { data, error, isLoading } = read;
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        {title}
      </Title>
      {isLoading && <LoadingPanel />}
      {error ? <ErrorPanel error={error} title={`Could not load ${title.toLowerCase()}`} /> : null}
      {data !== undefined && children(data)}
    </Paper>
  );
}

function Flood({ data }: { data: FloodRisks }) {
  if (data.total === 0)
    return <EmptyPanel>No flood warnings or alerts within {data.radiusKm} km.</EmptyPanel>;
  return (
    <Stack gap="xs">
      {data.data.map((f) => (
        <Stack key={f.id} gap={2}>
          <Group gap="xs">
            <Badge color={SEVERITY_COLOURS[f.severityLevel] ?? 'gray'}>{f.severity}</Badge>
            <Text size="sm" fw={600}>
              {f.description}
            </Text>
          </Group>
          {f.message && (
            <Text size="xs" c="dimmed">
              {f.message}
            </Text>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

function Crime({ data }: { data: CrimeSummary }) {
  if (data.total === 0) return <EmptyPanel>No street crime recorded nearby.</EmptyPanel>;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {data.total} crimes within a mile{data.month ? ` in ${data.month}` : ''}
      </Text>
      <Table>
        <Table.Tbody>
          {data.byCategory.map((c) => (
            <Table.Tr key={c.category}>
              <Table.Td>{label(c.category)}</Table.Td>
              <Table.Td ta="right">{c.count}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function Air({ data }: { data: AirQuality }) {
  if (!data.location) return <EmptyPanel>No air quality monitoring station nearby.</EmptyPanel>;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {data.location.name}
        {data.location.distanceMetres !== undefined
          ? `, ${formatNumber(data.location.distanceMetres / 1000, { maximumFractionDigits: 1 })} km away`
          : ''}
      </Text>
      <Table>
        <Table.Tbody>
          {data.measurements.map((m) => (
            <Table.Tr key={m.parameter}>
              <Table.Td>{m.displayName}</Table.Td>
              <Table.Td ta="right">
                {formatNumber(m.value, { maximumFractionDigits: 1 })} {m.units}
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {formatDateTime(m.datetime)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function Risks({ asset }: { asset: AssetView }) {
  const flood = useFloodRisks(asset._id);
  const crime = useCrime(asset._id);
  const air = useAirQuality(asset._id);
  return (
    <Stack>
      <Group gap="xs">
        <Text size="sm">Energy performance:</Text>
        {asset.epcRating ? <EpcBadge band={asset.epcRating} /> : <Text size="sm">no certificate linked</Text>}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Panel<FloodRisks> title="Flood risks" read={flood}>
          {(data) => <Flood data={data} />}
        </Panel>
        <Panel<CrimeSummary> title="Crime" read={crime}>
          {(data) => <Crime data={data} />}
        </Panel>
        <Panel<AirQuality> title="Air quality" read={air}>
          {(data) => <Air data={data} />}
        </Panel>
      </SimpleGrid>
      <AssetRegulatoryTimeline assetId={asset._id} />
    </Stack>
  );
}

/**
 * /assets/{id}/risks: flood warnings, street crime and air quality around the site, from public data, and
 * its regulatory timeline.
 */
export function AssetRisksPage() {
  return <AssetFrame tab="risks">{(asset) => <Risks asset={asset} />}</AssetFrame>;
}
