import { Button, Group, type GroupProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table row's Edit and Delete buttons, with the row's other actions between them. Offered only when
 * `mayChange` (the caller's check: staff looking into another company and readers get no buttons the
 * API would refuse).
 */
export function RowActions({
  mayChange,
  onEdit,
  onDelete,
  justify,
  children,
}: {
  mayChange: boolean;
  onEdit: () => void;
  onDelete: () => void;
  justify?: GroupProps['justify'];
  children?: ReactNode;
}) {
  if (!mayChange) return null;
  return (
    <Group gap={4} justify={justify} wrap="nowrap">
      <Button size="compact-xs" variant="subtle" onClick={onEdit}>
        Edit
      </Button>
      {children}
      <Button size="compact-xs" variant="subtle" color="red" onClick={onDelete}>
        Delete
      </Button>
    </Group>
  );
}
