import { Burger, Group, Image, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { MESSAGES } from '../../../shared/messages.ts';
import { LogoMark } from '../../components/icons.tsx';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { SearchButton } from '../../features/search/search-button.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { useT } from '../../lib/i18n-context.tsx';
import type { LiveState } from '../../lib/use-live-updates.ts';
import { LiveIndicator } from './live-indicator.tsx';
import { UserMenu } from './user-menu.tsx';

function Brand() {
  const { company } = useSession();
  const settings = company.settings ?? {};
  if (settings.showLogo && settings.logoUrl) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Image src={settings.logoUrl} alt={company.name} h={32} w="auto" fit="contain" />
        <Text size="xs" c="dimmed" className="vf-hide-small">
          {MESSAGES.poweredBy} Voltfolio
        </Text>
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap" c="teal.7">
      <LogoMark />
      <Text fw={800} size="lg">
        Voltfolio
      </Text>
    </Group>
  );
}

export function Header({
  navOpened,
  onToggleNav,
  showBell,
  showSearch,
  live,
}: {
  navOpened: boolean;
  /** Absent when there is no sidebar to show. */
  onToggleNav: (() => void) | undefined;
  showBell: boolean;
  /** API-only users have no search (01 §6). */
  showSearch: boolean;
  live: LiveState;
}) {
  const { company } = useSession();
  const t = useT();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {onToggleNav && (
          <Burger opened={navOpened} onClick={onToggleNav} size="sm" aria-label={t('header.toggleMenu')} />
        )}
        <Link to="/" style={{ textDecoration: 'none' }}>
          <Brand />
        </Link>
        <Title order={4} fw={500} c="dimmed" className="vf-hide-small" lineClamp={1}>
          {company.name}
        </Title>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <LiveIndicator live={live} />
        {showSearch && <SearchButton />}
        {showBell && <NotificationBell />}
        <UserMenu />
      </Group>
    </Group>
  );
}

export function DemoBanner() {
  return (
    <Text
      ta="center"
      fw={700}
      size="sm"
      c="white"
      bg="orange.7"
      py={4}
      style={{ letterSpacing: 2 }}
      role="status"
    >
      {MESSAGES.testingEnvironment}
    </Text>
  );
}
