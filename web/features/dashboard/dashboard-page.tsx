import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import { useT } from '../../lib/i18n-context.tsx';
import { LATEST_UNSEEN, useNotifications } from '../../lib/notifications-api.ts';
import { type CountName, useCount } from './api.ts';

/** The widgets bring the chart and drag-and-drop code: a chunk of their own, so the page's counts come first. */
const HomeWidgets = lazy(() => import('./home-widgets.tsx').then((m) => ({ default: m.HomeWidgets })));

const CARDS: { name: CountName; label: string; to: string }[] = [
  { name: 'sites', label: 'Total sites', to: '/assets' },
  { name: 'meters', label: 'Total meters', to: '/assets' },
  { name: 'entities', label: 'Entities', to: '/entities' },
];

function CountCard({ name, label, to }: { name: CountName; label: string; to: string }) {
  const { total, error, isLoading } = useCount(name);
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {isLoading ? (
        <Skeleton h={34} mt={4} w={80} />
      ) : (
        <Anchor component={Link} to={to} underline="never" c="inherit">
          <Text fz={28} fw={700} aria-label={label}>
            {error || total === undefined ? '—' : formatCount(total)}
          </Text>
        </Anchor>
      )}
    </Paper>
  );
}

/** The bell's list on the dashboard: the same 5 latest unseen, from the same call (01 §2.3). */
function LatestNotifications() {
  const { data, error, isLoading } = useNotifications(LATEST_UNSEEN);
  const t = useT();
  const latest = data?.data ?? [];
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Title order={4}>{t('notifications.latest')}</Title>
          {data && data.unseenCount > 0 && (
            <Badge color="red">{t('notifications.unseen', { count: data.unseenCount })}</Badge>
          )}
        </Group>
        <Anchor component={Link} to="/notifications" size="sm">
          {t('notifications.viewAll')}
        </Anchor>
      </Group>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && latest.length === 0 && <EmptyPanel>{t('notifications.none')}</EmptyPanel>}
      <Stack gap={6}>
        {latest.map((n) => (
          <Group key={n._id} justify="space-between" wrap="nowrap" gap="sm">
            <Text size="sm" fw={n.isSeen ? 400 : 600}>
              {n.content}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(n.createdAt)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

export function DashboardPage() {
  const { company } = useSession();
  return (
    <Stack>
      <Title order={2}>{company.name}</Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {CARDS.map((card) => (
          <CountCard key={card.name} {...card} />
        ))}
      </SimpleGrid>
      <Suspense fallback={<LoadingPanel label="Loading dashboard" />}>
        <HomeWidgets />
      </Suspense>
      <LatestNotifications />
    </Stack>
  );
}
