import { Anchor, Badge, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { TargetStatus } from '../../../shared/targets/target-maths.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formatNumber } from '../../lib/format.ts';
import { type TargetProgress, useTargetProgress, useTargetScopes } from './api.ts';
import { writableScopeKinds } from './target-scopes.ts';

const STATUS: Record<TargetStatus, { label: string; color: string }> = {
  'on-track': { label: 'On track', color: 'green' },
  'off-track': { label: 'Off track', color: 'red' },
  'no-data': { label: 'No data', color: 'gray' },
  'no-baseline': { label: 'No baseline', color: 'gray' },
  'not-started': { label: 'Not started', color: 'blue' },
};

/** Figures of a target in its unit: intensities keep more decimals than totals. */
const figure = (value: number | null | undefined, unit: string) =>
  value === null || value === undefined
    ? '–'
    : `${formatNumber(value, { maximumFractionDigits: unit.includes('/m²') ? 2 : 0 })} ${unit}`;

function Why({ row }: { row: TargetProgress }) {
  if (row.note) return <Text size="sm">{row.note}.</Text>;
  if (row.status === 'no-baseline')
    return (
      <Text size="sm">
        No figures for the baseline year {row.target.baselineYear}
        {row.baseline.sitesWithoutFloorArea.length > 0 ? ' on sites with a floor area' : ''}: set a baseline
        by hand or add the data.
      </Text>
    );
  if (row.status === 'not-started')
    return <Text size="sm">The first whole year after the baseline has not ended yet.</Text>;
  if (row.status === 'no-data') return <Text size="sm">No figures for {row.assessedYear} yet.</Text>;
  return null;
}

function TargetCard({ row }: { row: TargetProgress }) {
  const { target, progress, unit } = row;
  const status = STATUS[row.status];
  const achieved = progress ? Math.max(0, Math.min(100, progress.achievedPercent)) : 0;
  return (
    <Paper withBorder p="md" component="section" aria-label={target.name}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={4}>{target.name}</Title>
            <Text size="sm" c="dimmed">
              {target.scopeName ?? target.scope} · {formatNumber(target.reductionPercent)}% by{' '}
              {target.targetYear} from {target.baselineYear}
              {target.linearPath ? ' · straight path' : ' · steps at milestones'}
            </Text>
          </Stack>
          <Badge color={status.color} size="lg">
            {status.label}
          </Badge>
        </Group>
        <Why row={row} />
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              Baseline {target.baselineYear}
              {row.baseline.override !== undefined ? ' (set by hand)' : ''}
            </Text>
            <Text fw={600}>{figure(row.baseline.value, unit)}</Text>
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              Target {target.targetYear}
            </Text>
            <Text fw={600}>{figure(row.targetValue, unit)}</Text>
          </Stack>
          {progress && (
            <>
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  {progress.year}: actual / path
                </Text>
                <Text fw={600}>
                  {figure(progress.actual, unit)} / {figure(progress.expected, unit)}
                </Text>
              </Stack>
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  Gap to path
                </Text>
                <Text fw={600} c={progress.gap > 0 ? 'red' : 'green'} data-testid="gap">
                  {progress.gap > 0 ? '+' : ''}
                  {figure(progress.gap, unit)} ({progress.gap > 0 ? '+' : ''}
                  {formatNumber(progress.gapPercent, { maximumFractionDigits: 1 })}%)
                </Text>
              </Stack>
            </>
          )}
        </SimpleGrid>
        {progress && (
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              {formatNumber(achieved, { maximumFractionDigits: 0 })}% of the reduction made
            </Text>
            <Progress value={achieved} color={status.color} aria-label="Reduction made" />
          </Stack>
        )}
        {row.months > 0 && row.months < 12 && (
          <Text size="xs" c="orange">
            {row.assessedYear} has figures for {row.months} of 12 months.
          </Text>
        )}
        {row.sitesWithoutFloorArea.length > 0 && (
          <Text size="xs" c="orange">
            {row.sitesWithoutFloorArea.length} site(s) with figures but no floor area are left out of this
            per-m² figure.
          </Text>
        )}
        {row.status === 'off-track' && row.contributions.length > 0 && (
          <Table aria-label={`Sites behind the gap of ${target.name}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sites making the gap</Table.Th>
                <Table.Th ta="right">Over their share of the path</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {row.contributions.map((c) => (
                <Table.Tr key={c.assetId}>
                  <Table.Td>
                    <Anchor component={Link} to={`/assets/${c.assetId}/overview`}>
                      {c.siteName ?? c.assetId}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{figure(c.gap, unit)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {row.series.some((s) => s.actual !== null) && (
          <Table aria-label={`Path of ${target.name}`} fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Year</Table.Th>
                <Table.Th ta="right">Path</Table.Th>
                <Table.Th ta="right">Actual</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {row.series
                .filter((s) => s.actual !== null || s.year === target.targetYear)
                .map((s) => (
                  <Table.Tr key={s.year}>
                    <Table.Td>{s.year}</Table.Td>
                    <Table.Td ta="right">{figure(s.expected, unit)}</Table.Td>
                    <Table.Td ta="right">{figure(s.actual, unit)}</Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}

/** /targets/dashboard: each target against its path, on or off track, and the sites behind a gap. */
export function TargetDashboardPage() {
  const { data, error, isLoading } = useTargetProgress();
  const rows = data?.data ?? [];
  const off = rows.filter((r) => r.status === 'off-track').length;
  // Only those who may set a target on something are invited to; the manage page shows the rest the list.
  const maySet = writableScopeKinds(useSession().access, useTargetScopes().data).length > 0;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Targets</Title>
        <Group gap="md">
          <Anchor component={Link} to="/targets/calendar">
            Regulatory calendar
          </Anchor>
          <Anchor component={Link} to="/targets/manage">
            Manage targets
          </Anchor>
        </Group>
      </Group>
      {isLoading && <LoadingPanel />}
      {error ? <ErrorPanel error={error} title="Could not load the targets" /> : null}
      {data && rows.length === 0 && (
        <EmptyPanel>
          No targets yet.
          {maySet ? (
            <>
              {' '}
              <Anchor component={Link} to="/targets/manage">
                Set one
              </Anchor>
              .
            </>
          ) : null}
        </EmptyPanel>
      )}
      {rows.length > 0 && (
        <Text size="sm" c="dimmed">
          {rows.length} target(s), {off} off track. Each year is judged once it has ended.
        </Text>
      )}
      {rows.map((row) => (
        <TargetCard key={row.target._id} row={row} />
      ))}
    </Stack>
  );
}
