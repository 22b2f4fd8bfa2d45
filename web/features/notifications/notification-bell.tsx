import { ActionIcon, Group, Indicator, Stack, Text } from '@mantine/core';
import {
  Dropdown,
  DropdownDivider,
  DropdownItem,
  DropdownLabel,
  DropdownTarget,
} from '../../components/dropdown.tsx';
import { BellIcon } from '../../components/icons.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useT } from '../../lib/i18n-context.tsx';
import { LATEST_UNSEEN, useMarkSeen, useNotifications } from '../../lib/notifications-api.ts';
import { NotificationContent } from './notification-item.tsx';
import { useOpenNotification } from './use-open-notification.ts';

/** The header bell: unseen count, the 5 latest unseen, View All and Dismiss All (01 §2.3). */
export function NotificationBell() {
  const { data } = useNotifications(LATEST_UNSEEN, { delayed: true });
  const markSeen = useMarkSeen();
  const open = useOpenNotification();
  const t = useT();
  const unseen = data?.unseenCount ?? 0;
  const latest = data?.data ?? [];

  const dismissAll = () =>
    markSeen({ all: true }).catch((error: unknown) =>
      showToast(error instanceof Error ? error.message : 'Could not dismiss the notifications', 'error'),
    );

  return (
    <Dropdown
      width={360}
      target={(toggle) => (
        <Indicator
          label={unseen > 99 ? '99+' : unseen}
          size={18}
          disabled={unseen === 0}
          color="red"
          offset={4}
        >
          <DropdownTarget>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              onClick={toggle}
              aria-label={t('notifications.bell', { count: unseen })}
            >
              <BellIcon />
            </ActionIcon>
          </DropdownTarget>
        </Indicator>
      )}
    >
      <DropdownLabel>{t('notifications.title')}</DropdownLabel>
      {latest.length === 0 ? (
        <Text size="sm" c="dimmed" p="sm" ta="center">
          {t('notifications.none')}
        </Text>
      ) : (
        <Stack gap={2}>
          {latest.map((n) => (
            <DropdownItem key={n._id} onClick={() => void open(n)}>
              <NotificationContent notification={n} />
            </DropdownItem>
          ))}
        </Stack>
      )}
      <DropdownDivider />
      <Group grow gap={4}>
        <DropdownItem to="/notifications">{t('notifications.viewAll')}</DropdownItem>
        <DropdownItem onClick={() => void dismissAll()} disabled={unseen === 0}>
          {t('notifications.dismissAll')}
        </DropdownItem>
      </Group>
    </Dropdown>
  );
}
