import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { MeesScenario } from '../../../shared/targets/regulatory-calendar.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { RegulatoryTimeline, ScenarioToggle } from '../../components/regulatory-timeline.tsx';
import { useCalendarEvents } from '../../lib/calendar-api.ts';

/** The site's regulatory timeline: EPC expiry, MEES minimum bands and its lease events, past and coming. */
export function AssetRegulatoryTimeline({ assetId }: { assetId: string }) {
  const [scenario, setScenario] = useState<MeesScenario | undefined>(undefined);
  const { data, error, isLoading } = useCalendarEvents({ assetId, scenario, window: 'all' });
  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Title order={4}>Regulatory timeline</Title>
          <ScenarioToggle value={scenario ?? data?.scenario ?? 'proposed'} onChange={setScenario} />
        </Group>
        <Text size="sm" c="dimmed">
          MEES applies to non-domestic lettings in England and Wales. Proposed dates are not yet law.
        </Text>
        {isLoading && <LoadingPanel />}
        {error ? <ErrorPanel error={error} title="Could not load the regulatory timeline" /> : null}
        {data && (
          <RegulatoryTimeline
            events={data.data}
            today={data.today}
            showSite={false}
            label="Regulatory timeline"
          />
        )}
      </Stack>
    </Paper>
  );
}
