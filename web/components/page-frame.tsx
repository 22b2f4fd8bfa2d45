import { Button, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Breadcrumbs, type Crumb } from './breadcrumbs.tsx';
import { ErrorPanel, LoadingPanel } from './page-state.tsx';

/**
 * What an item's page shows while its item is not there: the loading panel while it comes, the error (or
 * `notFound` when the answer holds nothing) when it cannot; null once it is there.
 */
export function frameHold(
  query: { isLoading: boolean; error: unknown },
  found: boolean,
  notFound: string,
): ReactNode | null {
  if (query.isLoading) return <LoadingPanel />;
  if (query.error || !found) return <ErrorPanel error={query.error ?? new Error(notFound)} />;
  return null;
}

/**
 * An item's page: the way back, the item's own header, the row of its sub-pages (the current one marked
 * for screen readers), and the sub-page below.
 */
export function PageFrame<Sub extends string>({
  crumbs,
  header,
  navLabel,
  tabs,
  current,
  pathOf,
  children,
}: {
  crumbs: readonly Crumb[];
  header: ReactNode;
  /** The accessible name of the row of tabs ("Site pages"). */
  navLabel: string;
  tabs: readonly { sub: Sub; label: string }[];
  current: Sub;
  pathOf: (sub: Sub) => string;
  children: ReactNode;
}) {
  return (
    <Stack gap="md">
      <Breadcrumbs items={crumbs} />
      {header}
      <Group gap={4} component="nav" aria-label={navLabel}>
        {tabs.map((t) => (
          <Button
            key={t.sub}
            component={Link}
            to={pathOf(t.sub)}
            size="xs"
            variant={t.sub === current ? 'filled' : 'subtle'}
            aria-current={t.sub === current ? 'page' : undefined}
          >
            {t.label}
          </Button>
        ))}
      </Group>
      {children}
    </Stack>
  );
}
