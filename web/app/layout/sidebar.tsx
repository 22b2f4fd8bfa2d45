import { NavLink, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../lib/app-context.tsx';
import { type NavItem, visibleSidebar } from '../navigation.ts';

function isActive(item: NavItem, pathname: string): boolean {
  if (!item.to) return false;
  if (item.to === '/') return pathname === '/';
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}

export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { access } = useSession();
  const { pathname } = useLocation();
  const sections = visibleSidebar(access);
  return (
    <nav aria-label="Main">
      <Stack gap="sm" p="xs">
        {sections.map((section) => (
          <div key={section.title ?? 'home'}>
            {section.title && (
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4}>
                {section.title}
              </Text>
            )}
            {section.items.map((item) =>
              item.to ? (
                <NavLink
                  key={item.label}
                  component={Link}
                  to={item.to}
                  label={item.label}
                  active={isActive(item, pathname)}
                  onClick={onNavigate}
                />
              ) : (
                <NavLink key={item.label} label={item.label} disabled aria-disabled />
              ),
            )}
          </div>
        ))}
      </Stack>
    </nav>
  );
}
