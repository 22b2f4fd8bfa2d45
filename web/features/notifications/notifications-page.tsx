import { Badge, Button, Group, Pagination, Paper, Stack, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useT } from '../../lib/i18n-context.tsx';
import { useMarkSeen, useNotifications } from '../../lib/notifications-api.ts';
import { NotificationContent } from './notification-item.tsx';
import { useOpenNotification } from './use-open-notification.ts';

export const NOTIFICATIONS_PAGE_SIZE = 20;

/** How many pages a list of `total` items makes; at least one, so the pager never shows page 1 of 0. */
export function pageCount(total: number, size = NOTIFICATIONS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}

export function NotificationsPage() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useNotifications({
    limit: NOTIFICATIONS_PAGE_SIZE,
    skip: (page - 1) * NOTIFICATIONS_PAGE_SIZE,
  });
  const markSeen = useMarkSeen();
  const open = useOpenNotification();
  const t = useT();
  const unseen = data?.unseenCount ?? 0;
  const pages = data ? pageCount(data.total) : 1;

  const dismissAll = async () => {
    try {
      await markSeen({ all: true });
      showToast(t('notifications.dismissed'), 'success');
    } catch (e) {
      showToast(e instanceof Error ? e.message : 'Could not dismiss the notifications', 'error');
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={2}>{t('notifications.title')}</Title>
          {unseen > 0 && <Badge color="red">{t('notifications.unseen', { count: unseen })}</Badge>}
        </Group>
        <Button variant="light" onClick={dismissAll} disabled={unseen === 0}>
          {t('notifications.dismissAll')}
        </Button>
      </Group>
      <Paper withBorder p="xs">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && data.data.length === 0 && <EmptyPanel>{t('notifications.none')}</EmptyPanel>}
        {data && data.data.length > 0 && (
          <Stack gap={2}>
            {data.data.map((n) => (
              <UnstyledButton
                key={n._id}
                onClick={() => open(n)}
                p="xs"
                style={{ borderRadius: 4 }}
                bg={n.isSeen ? undefined : 'var(--mantine-color-blue-light)'}
              >
                <NotificationContent notification={n} />
              </UnstyledButton>
            ))}
          </Stack>
        )}
      </Paper>
      {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} aria-label="Pages" />}
    </Stack>
  );
}
