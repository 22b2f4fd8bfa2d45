import { Button, Group, Pagination, Paper, Skeleton, Table, Text, UnstyledButton } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { pageOf, type SortDirection, sortRows, type TableColumn, toCsv } from './table-data.ts';

/** A column of a data table: `value` is what it exports (and sorts by, unless `sortValue` says otherwise). */
export interface DataTableColumn<T> extends TableColumn<T> {
  /** The cell as shown; the exported value when absent. */
  render?: (row: T) => ReactNode;
  /** What the column sorts by, when that differs from what it exports (a date shown and exported as text). */
  sortValue?: (row: T) => string | number | null | undefined;
  /** Numbers align right so their digits line up. */
  numeric?: boolean;
  /** Columns sort by default; actions columns opt out. */
  sortable?: boolean;
}

export interface TableSort {
  key: string;
  direction: SortDirection;
}

/** A header click: a new column sorts ascending, the sorted column flips. */
export function nextSort(current: TableSort | undefined, key: string): TableSort {
  if (current?.key !== key) return { key, direction: 'asc' };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

/** The rows of one page once sorted, how many pages there are, and the page actually shown. */
export function tableView<T>(
  rows: readonly T[],
  columns: readonly DataTableColumn<T>[],
  sort: TableSort | undefined,
  page: number,
  size: number,
): { rows: T[]; pages: number; page: number } {
  const column = columns.find((c) => c.key === sort?.key);
  const sorted =
    column && sort
      ? sortRows(rows, { ...column, value: column.sortValue ?? column.value }, sort.direction)
      : [...rows];
  const view = pageOf(sorted, page, size);
  return { ...view, page: Math.min(Math.max(1, page), view.pages) };
}

/** The header's aria-sort for a column, so screen readers announce the order. */
export function ariaSortOf(sort: TableSort | undefined, key: string): 'ascending' | 'descending' | 'none' {
  if (sort?.key !== key) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

/**
 * Saves CSV text as a file. The byte-order mark lets spreadsheets read accented names as UTF-8; the
 * object URL is released once the click has started the download.
 */
export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

const SORT_MARK: Record<SortDirection, string> = { asc: '▲', desc: '▼' };

/**
 * Rows under sortable headers, a page at a time, with skeleton rows while loading, a message when there
 * are none, and the whole sorted list downloadable as CSV.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  loading = false,
  empty,
  pageSize = 25,
  csvFilename,
  initialSort,
}: {
  /** The table's accessible name. */
  label: string;
  columns: readonly DataTableColumn<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  empty: ReactNode;
  pageSize?: number;
  /** Offers "Download CSV" when given. */
  csvFilename?: string;
  initialSort?: TableSort;
}) {
  const [sort, setSort] = useState<TableSort | undefined>(initialSort);
  const [page, setPage] = useState(1);
  const all = rows ?? [];
  const view = tableView(all, columns, sort, page, pageSize);
  const showSkeleton = loading && all.length === 0;

  function download() {
    const column = columns.find((c) => c.key === sort?.key);
    const sorted =
      column && sort
        ? sortRows(all, { ...column, value: column.sortValue ?? column.value }, sort.direction)
        : all;
    downloadCsv(csvFilename ?? 'export.csv', toCsv(sorted, columns));
  }

  return (
    <Paper withBorder>
      <Table aria-label={label} aria-busy={loading || undefined}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} ta={c.numeric ? 'right' : undefined} aria-sort={ariaSortOf(sort, c.key)}>
                {c.sortable === false ? (
                  c.label
                ) : (
                  <UnstyledButton
                    fw={600}
                    fz="sm"
                    onClick={() => {
                      setSort(nextSort(sort, c.key));
                      setPage(1);
                    }}
                  >
                    {c.label}
                    {sort?.key === c.key ? ` ${SORT_MARK[sort.direction]}` : ''}
                  </UnstyledButton>
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {showSkeleton &&
            [0, 1, 2].map((i) => (
              <Table.Tr key={`skeleton-${i}`} data-skeleton>
                {columns.map((c) => (
                  <Table.Td key={c.key}>
                    <Skeleton height={12} radius="sm" />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          {view.rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.key} ta={c.numeric ? 'right' : undefined}>
                  {c.render ? c.render(row) : (c.value(row) ?? '')}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {!loading && all.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          {empty}
        </Text>
      )}
      {(view.pages > 1 || (csvFilename && all.length > 0)) && (
        <Group justify="space-between" p="xs">
          {view.pages > 1 ? (
            <Pagination
              size="sm"
              total={view.pages}
              value={view.page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            />
          ) : (
            <span />
          )}
          {csvFilename && all.length > 0 && (
            <Button size="xs" variant="light" onClick={download}>
              Download CSV
            </Button>
          )}
        </Group>
      )}
    </Paper>
  );
}
