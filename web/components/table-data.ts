/** A column of a data table: how its cells read, sort and export. */
export interface TableColumn<T> {
  key: string;
  label: string;
  value: (row: T) => string | number | null | undefined;
  /** False for a column with nothing to export (row actions): the CSV leaves it out. */
  csv?: boolean;
}

export type SortDirection = 'asc' | 'desc';

/** Rows sorted by one column; empty cells go last either way, and equal rows keep their order. */
export function sortRows<T>(rows: readonly T[], column: TableColumn<T>, direction: SortDirection): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: column.value(row) }))
    .sort((a, b) => {
      const aEmpty = a.value === null || a.value === undefined || a.value === '';
      const bEmpty = b.value === null || b.value === undefined || b.value === '';
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? a.index - b.index : aEmpty ? 1 : -1;
      const order =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value), 'en-GB', { numeric: true });
      return order * sign || a.index - b.index;
    })
    .map((entry) => entry.row);
}

/** One page of rows (pages count from 1), and how many pages there are. */
export function pageOf<T>(rows: readonly T[], page: number, size: number): { rows: T[]; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const at = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((at - 1) * size, at * size), pages };
}

/**
 * A cell as a spreadsheet will read it: text a spreadsheet would run as a formula (= + - @, tab, carriage
 * return) is prefixed with a quote, and cells with commas, quotes or line breaks are quoted.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as CSV, with a header line of the column labels. */
export function toCsv<T>(rows: readonly T[], all: readonly TableColumn<T>[]): string {
  const columns = all.filter((c) => c.csv !== false);
  const lines = [
    columns.map((c) => csvCell(c.label)),
    ...rows.map((r) => columns.map((c) => csvCell(c.value(r)))),
  ];
  return `${lines.map((cells) => cells.join(',')).join('\r\n')}\r\n`;
}
