import { Badge, Button, Group, Paper, Stack, Title, UnstyledButton } from '@mantine/core';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useT } from '../../lib/i18n-context.tsx';
import { useMarkSeen, useNotifications } from '../../lib/notifications-api.ts';
import { NotificationContent } from './notification-item.tsx';
import { useOpenNotification } from './use-open-notification.ts';

export function NotificationsPage() {
  const { data, error, isLoading } = useNotifications();
  const markSeen = useMarkSeen();
  const open = useOpenNotification();
  const t = useT();
  const unseen = data?.unseenCount ?? 0;

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
          {unseen > 0 && <Badge color="red">{unseen} unseen</Badge>}
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
    </Stack>
  );
}
