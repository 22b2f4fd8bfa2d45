import { Group, Text } from '@mantine/core';
import { formatDateTime } from '../../lib/format.ts';
import type { AppNotification } from '../../lib/notifications-api.ts';

/** The text and date of one notification; unseen ones are bold. */
export function NotificationContent({ notification }: { notification: AppNotification }) {
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
      <Text size="sm" fw={notification.isSeen ? 400 : 600} style={{ wordBreak: 'break-word' }}>
        {notification.content}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(notification.createdAt)}
      </Text>
    </Group>
  );
}
