import { Button, Group, type GroupProps } from '@mantine/core';
import type { ReactNode } from 'react';
import type { DataTableColumn } from './data-table.tsx';

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

/**
 * The data table's last column: each row's Edit and Delete (and `more` between them), with no heading,
 * no sorting and nothing in the CSV.
 */
export function rowActionsColumn<T>(actions: {
  mayChange: boolean;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
  more?: (row: T) => ReactNode;
}): DataTableColumn<T> {
  return {
    key: 'actions',
    csv: false,
    label: '',
    sortable: false,
    value: () => '',
    render: (row) => (
      <RowActions
        mayChange={actions.mayChange}
        justify="flex-end"
        onEdit={() => actions.onEdit(row)}
        onDelete={() => actions.onDelete(row)}
      >
        {actions.more?.(row)}
      </RowActions>
    ),
  };
}
