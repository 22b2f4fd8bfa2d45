import { Alert, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { MeesScenario } from '../../../shared/targets/regulatory-calendar.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { RegulatoryTimeline, ScenarioToggle } from '../../components/regulatory-timeline.tsx';
import { showToast } from '../../components/toast-store.ts';
import {
  useCalendarEvents,
  useCalendarFeed,
  useFeedAddress,
  useRotateCalendarFeed,
} from '../../lib/calendar-api.ts';
import { formFailureOf } from '../../lib/form-errors.ts';
import { formatDateTime } from '../../lib/format.ts';

/** The user's calendar feed: made or replaced here, its address shown once. */
function FeedPanel() {
  const feed = useCalendarFeed();
  const rotate = useRotateCalendarFeed();
  const addressOf = useFeedAddress();
  const [address, setAddress] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function make() {
    if (feed.data?.active && !window.confirm('Replace the feed address? The old one stops working.')) return;
    setBusy(true);
    try {
      const made = await rotate(undefined);
      setAddress(addressOf(made.path));
    } catch (error) {
      showToast(formFailureOf(error).message ?? 'The feed could not be made', 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Calendar feed</Title>
        <Text size="sm">
          Subscribe to these dates in Outlook, Google Calendar or Apple Calendar. The address holds a secret
          of your own: anyone with it sees the dates of the sites you can see, so keep it private, and replace
          it if it leaks.
        </Text>
        {feed.data?.active && !address && (
          <Text size="sm" c="dimmed">
            You have a feed, made {formatDateTime(feed.data.rotatedAt)}.
          </Text>
        )}
        {address && (
          <Alert color="blue" title="Your feed address (shown once)">
            <Code block data-testid="feed-address">
              {address}
            </Code>
          </Alert>
        )}
        <Group>
          <Button variant="light" loading={busy} onClick={make}>
            {feed.data?.active ? 'Replace feed address' : 'Make feed address'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /targets/calendar: the next 24 months of regulatory dates across the user's sites, and their feed. */
export function RegulatoryCalendarPage() {
  const [scenario, setScenario] = useState<MeesScenario | undefined>(undefined);
  const { data, error, isLoading } = useCalendarEvents({ scenario, window: 'upcoming', months: 24 });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Regulatory calendar</Title>
        <ScenarioToggle value={scenario ?? data?.scenario ?? 'proposed'} onChange={setScenario} />
      </Group>
      <Text size="sm" c="dimmed">
        The next 24 months, and anything overdue: EPC expiry, MEES minimum bands for non-domestic lettings in
        England and Wales (E in force; C from 2027 and B from 2030 proposed, not yet law), and lease events.
      </Text>
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error ? <ErrorPanel error={error} title="Could not load the calendar" /> : null}
        {data && (
          <RegulatoryTimeline events={data.data} today={data.today} showSite label="Regulatory calendar" />
        )}
      </Paper>
      <FeedPanel />
    </Stack>
  );
}
