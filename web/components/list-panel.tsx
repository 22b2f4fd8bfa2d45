import { Paper, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from './page-state.tsx';

/** One page of a list call, as SWR holds it. */
export interface ListState<T> {
  data?: { data: T[]; total: number };
  error?: unknown;
  isLoading: boolean;
}

/**
 * A list call shown as a table: the loader while it loads, its error, the empty message, or a row per
 * item under `head` (the header cells).
 */
export function ListPanel<T>({
  list,
  label,
  empty,
  errorTitle,
  head,
  row,
}: {
  list: ListState<T>;
  /** The table's accessible name. */
  label: string;
  empty: ReactNode;
  errorTitle?: string;
  head: ReactNode;
  /** One <Table.Tr> with its key. */
  row: (item: T) => ReactNode;
}) {
  const { data, error, isLoading } = list;
  return (
    <>
      {isLoading && <LoadingPanel />}
      {error ? <ErrorPanel error={error} title={errorTitle} /> : null}
      {data && data.total === 0 && <EmptyPanel>{empty}</EmptyPanel>}
      {data && data.total > 0 && (
        <Paper withBorder>
          <Table aria-label={label}>
            <Table.Thead>
              <Table.Tr>{head}</Table.Tr>
            </Table.Thead>
            <Table.Tbody>{data.data.map((item) => row(item))}</Table.Tbody>
          </Table>
        </Paper>
      )}
    </>
  );
}
