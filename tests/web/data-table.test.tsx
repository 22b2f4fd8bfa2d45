import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ariaSortOf,
  DataTable,
  type DataTableColumn,
  downloadCsv,
  nextSort,
  tableView,
} from '../../web/components/data-table.tsx';
import { renderHtml, textOf } from './render.tsx';

interface Site {
  id: string;
  name: string;
  since: string;
  kwh?: number;
}
const columns: DataTableColumn<Site>[] = [
  { key: 'name', label: 'Site', value: (s) => s.name },
  // Shown and exported as a day of the month, sorted by the full date.
  { key: 'since', label: 'Since', value: (s) => s.since.slice(8), sortValue: (s) => s.since },
  { key: 'kwh', label: 'kWh', value: (s) => s.kwh, numeric: true, render: (s) => `${s.kwh ?? '–'} kWh` },
];
const sites: Site[] = [
  { id: 'a', name: 'Depot 10', since: '2024-01-05', kwh: 40 },
  { id: 'b', name: 'Depot 2', since: '2023-12-31' },
  { id: 'c', name: 'Annex', since: '2024-02-01', kwh: 7 },
];

describe('the data table model', () => {
  it('sorts a new column ascending and flips the column already sorted', () => {
    expect(nextSort(undefined, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'kwh')).toEqual({ key: 'kwh', direction: 'asc' });
    expect(ariaSortOf({ key: 'kwh', direction: 'desc' }, 'kwh')).toBe('descending');
    expect(ariaSortOf({ key: 'kwh', direction: 'desc' }, 'name')).toBe('none');
  });

  it('sorts by the sort value when a column has one, and keeps the given order unsorted', () => {
    const ids = (sort: Parameters<typeof tableView<Site>>[2]) =>
      tableView(sites, columns, sort, 1, 10).rows.map((s) => s.id);
    expect(ids(undefined)).toEqual(['a', 'b', 'c']);
    expect(ids({ key: 'since', direction: 'asc' })).toEqual(['b', 'a', 'c']);
    expect(ids({ key: 'name', direction: 'asc' })).toEqual(['c', 'b', 'a']);
    expect(ids({ key: 'kwh', direction: 'desc' })).toEqual(['a', 'c', 'b']);
  });

  it('pages the sorted rows and clamps a page past the end', () => {
    const view = tableView(sites, columns, { key: 'name', direction: 'asc' }, 5, 2);
    expect(view).toEqual({ rows: [sites[0]], pages: 2, page: 2 });
  });
});

describe('the CSV download', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('saves the CSV as a UTF-8 file under its name and releases the object URL', async () => {
    vi.useFakeTimers();
    const blobs: Blob[] = [];
    const revoked: string[] = [];
    const link = { href: '', download: '', style: { display: '' }, click: vi.fn(), remove: vi.fn() };
    vi.stubGlobal('URL', {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:1';
      },
      revokeObjectURL: (url: string) => revoked.push(url),
    });
    vi.stubGlobal('document', { createElement: () => link, body: { append: vi.fn() } });
    downloadCsv('sites.csv', 'Site\r\nÉcole\r\n');
    expect(link.download).toBe('sites.csv');
    expect(link.href).toBe('blob:1');
    expect(link.click).toHaveBeenCalledOnce();
    expect(blobs[0]?.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array((await blobs[0]?.arrayBuffer()) ?? new ArrayBuffer(0));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe('Site\r\nÉcole\r\n');
    expect(revoked).toEqual([]);
    vi.runAllTimers();
    expect(revoked).toEqual(['blob:1']);
  });
});

describe('the data table', () => {
  it('shows the rows with their rendered cells, numbers aligned right, and offers the CSV', () => {
    const html = renderHtml(
      <DataTable
        label="Sites"
        columns={columns}
        rows={sites}
        rowKey={(s) => s.id}
        empty="No sites"
        csvFilename="s.csv"
      />,
    );
    expect(textOf(html)).toContain('Depot 10 05 40 kWh');
    expect(textOf(html)).toContain('Depot 2 31 – kWh');
    expect(textOf(html)).toContain('Download CSV');
    expect(textOf(html)).not.toContain('No sites');
    expect(html).toMatch(/aria-sort="none"/);
  });

  it('shows skeleton rows while loading, and the empty message once loaded with no rows', () => {
    const loading = renderHtml(
      <DataTable
        label="Sites"
        columns={columns}
        rows={undefined}
        rowKey={(s) => s.id}
        empty="No sites"
        loading
      />,
    );
    expect(loading.match(/data-skeleton/g)).toHaveLength(3);
    expect(textOf(loading)).not.toContain('No sites');
    const empty = renderHtml(
      <DataTable
        label="Sites"
        columns={columns}
        rows={[]}
        rowKey={(s) => s.id}
        empty="No sites"
        csvFilename="s.csv"
      />,
    );
    expect(empty).not.toContain('data-skeleton');
    expect(textOf(empty)).toContain('No sites');
    expect(textOf(empty)).not.toContain('Download CSV');
  });

  it('shows one page at a time with paging controls when the rows overflow it', () => {
    const html = renderHtml(
      <DataTable
        label="Sites"
        columns={columns}
        rows={sites}
        rowKey={(s) => s.id}
        empty="No sites"
        pageSize={2}
        initialSort={{ key: 'name', direction: 'asc' }}
      />,
    );
    expect(textOf(html)).toContain('Annex');
    expect(textOf(html)).not.toContain('Depot 10');
    expect(html).toContain('aria-label="Next page"');
    expect(html).toContain('aria-sort="ascending"');
  });
});
