import { Paper, Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** A striped table in a bordered panel, named for screen readers; `scroll` lets a wide one scroll sideways. */
export function StaffTable({
  label,
  head,
  children,
  scroll,
}: {
  label: string;
  /** The header cells. */
  head: ReactNode;
  /** The rows. */
  children: ReactNode;
  scroll?: boolean;
}) {
  return (
    <Paper withBorder style={scroll ? { overflowX: 'auto' } : undefined}>
      <Table aria-label={label} striped>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Paper>
  );
}
