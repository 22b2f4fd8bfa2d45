import { NavLink, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../lib/app-context.tsx';
import { EN, type MessageKey, type Translate } from '../../lib/i18n.ts';
import { useT } from '../../lib/i18n-context.tsx';
import { activeTarget, visibleSidebar } from '../navigation.ts';

/** Sidebar texts are translated where the dictionaries know them, and shown as declared otherwise. */
function label(t: Translate, text: string): string {
  const key = `nav.${text}`;
  return key in EN ? t(key as MessageKey) : text;
}

export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { access } = useSession();
  const { pathname } = useLocation();
  const sections = visibleSidebar(access);
  const current = activeTarget(sections, pathname);
  const t = useT();
  return (
    <nav aria-label={t('nav.main')}>
      <Stack gap="sm" p="xs">
        {sections.map((section) => (
          <div key={section.title ?? 'home'}>
            {section.title && (
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4}>
                {label(t, section.title)}
              </Text>
            )}
            {section.items.map((item) =>
              item.to ? (
                <NavLink
                  key={item.label}
                  component={Link}
                  to={item.to}
                  label={label(t, item.label)}
                  active={item.to === current}
                  onClick={onNavigate}
                />
              ) : (
                <NavLink key={item.label} label={label(t, item.label)} disabled aria-disabled />
              ),
            )}
          </div>
        ))}
      </Stack>
    </nav>
  );
}
