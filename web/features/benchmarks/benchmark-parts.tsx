import { Badge, Group, NativeSelect } from '@mantine/core';
import { MISSING_FIELD_LABELS, type MissingField } from '../../../shared/benchmarks/crrem.ts';
import type { XlsxCell } from '../../../shared/reports/xlsx.ts';
import { ASSET_TYPES } from '../../../shared/schemas/asset-wizard-values.ts';
import { type BenchmarkFilters, useEntityOptions, usePortfolioOptions } from './api.ts';

/** The kinds of site the site wizard offers; their module holds no schema, so the page's chunk stays light. */
export const PROPERTY_TYPES = ASSET_TYPES;

/** Portfolio, entity and property type: each narrows the table, and the page's URL keeps them. */
export function BenchmarkFilterBar({
  filters,
  onChange,
}: {
  filters: BenchmarkFilters;
  onChange: (f: BenchmarkFilters) => void;
}) {
  const portfolios = usePortfolioOptions();
  const entities = useEntityOptions();
  const set = (key: keyof BenchmarkFilters, value: string) =>
    onChange({ ...filters, [key]: value || undefined });
  return (
    <Group align="end">
      <NativeSelect
        label="Portfolio"
        value={filters.assetGroupId ?? ''}
        onChange={(e) => set('assetGroupId', e.currentTarget.value)}
        data={[
          { value: '', label: 'All portfolios' },
          ...(portfolios.data?.data ?? []).map((p) => ({ value: p._id, label: p.name ?? p._id })),
        ]}
      />
      <NativeSelect
        label="Entity"
        value={filters.entityId ?? ''}
        onChange={(e) => set('entityId', e.currentTarget.value)}
        data={[
          { value: '', label: 'All entities' },
          ...(entities.data?.data ?? []).map((e) => ({
            value: e._id,
            label: e.legalName ?? e.name ?? e._id,
          })),
        ]}
      />
      <NativeSelect
        label="Property type"
        value={filters.propertyType ?? ''}
        onChange={(e) => set('propertyType', e.currentTarget.value)}
        data={[{ value: '', label: 'All types' }, ...PROPERTY_TYPES.map((t) => ({ value: t, label: t }))]}
      />
    </Group>
  );
}

export const filtersFromSearch = (params: URLSearchParams): BenchmarkFilters => {
  const out: BenchmarkFilters = {};
  for (const key of ['assetGroupId', 'entityId', 'propertyType'] as const) {
    const v = params.get(key);
    if (v) out[key] = v;
  }
  return out;
};

export const searchOfFilters = (f: BenchmarkFilters & { setId?: string }) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) params.set(k, v);
  return params;
};

const FIELDS: ReadonlySet<MissingField> = new Set(['floorArea', 'propertyType', 'country']);

/** "Cannot be benchmarked", naming the fields the site lacks or what else stops it. */
export function missingText(missing: readonly MissingField[] | undefined): string {
  const list = missing ?? [];
  const fields = list.filter((m) => FIELDS.has(m)).map((m) => MISSING_FIELD_LABELS[m]);
  const reasons = list.filter((m) => !FIELDS.has(m)).map((m) => MISSING_FIELD_LABELS[m]);
  const parts = [...(fields.length > 0 ? [`${fields.join(', ')} missing`] : []), ...reasons];
  return `Cannot be benchmarked: ${parts.join('; ')}`;
}

export function MissingBadge({ missing }: { missing: readonly MissingField[] | undefined }) {
  return (
    <Badge color="gray" variant="light" style={{ textTransform: 'none' }}>
      {missingText(missing)}
    </Badge>
  );
}

export const fixed = (v: number | undefined | null, places = 1) =>
  v === undefined || v === null
    ? ''
    : v.toLocaleString('en-GB', { minimumFractionDigits: places, maximumFractionDigits: places });

/** Saves a table as an XLSX workbook of one sheet; the zip writer is fetched on the first export. */
export async function downloadXlsx(
  filename: string,
  sheet: string,
  header: readonly string[],
  rows: readonly (readonly XlsxCell[])[],
): Promise<void> {
  const { writeXlsx } = await import('../../../shared/reports/xlsx.ts');
  const bytes = writeXlsx([{ name: sheet, header, rows }]);
  const url = URL.createObjectURL(
    new Blob([bytes.slice().buffer], {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
