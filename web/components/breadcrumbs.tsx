import { Anchor, Group, Text } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';

export interface Crumb {
  label: ReactNode;
  /** Where the crumb leads; the last one, the page itself, usually leads nowhere. */
  to?: string;
}

/** The way back up from a page: `Sites / Aldgate House`, each level but the page a link. */
export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  return (
    <Group gap={6} component="nav" aria-label="Breadcrumbs">
      {items.map((crumb, i) => (
        // Crumbs never move or change places, so their position is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed trail
        <Fragment key={i}>
          {i > 0 && (
            <Text size="sm" c="dimmed">
              /
            </Text>
          )}
          {crumb.to ? (
            <Anchor component={Link} to={crumb.to} size="sm">
              {crumb.label}
            </Anchor>
          ) : (
            <Text size="sm">{crumb.label}</Text>
          )}
        </Fragment>
      ))}
    </Group>
  );
}
