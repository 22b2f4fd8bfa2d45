import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { useMayChange } from '../../lib/may-change.ts';
import { type ImportState, useImports } from './api.ts';
import { StatusBadge, typeLabel } from './import-parts.tsx';

const COLUMNS: readonly DataTableColumn<ImportState>[] = [
  {
    key: 'fileName',
    label: 'File',
    value: (r) => r.fileName ?? '',
    render: (r) => (
      <Anchor component={Link} to={`/imports/${r._id}/detail`}>
        {r.fileName ?? r._id}
      </Anchor>
    ),
  },
  { key: 'type', label: 'Type', value: (r) => typeLabel(r.type) },
  {
    key: 'status',
    label: 'Status',
    value: (r) => r.status,
    render: (r) => <StatusBadge status={r.status} />,
  },
  { key: 'created', label: 'Created', value: (r) => r.results?.create ?? null, numeric: true },
  { key: 'updated', label: 'Updated', value: (r) => r.results?.update ?? null, numeric: true },
  {
    key: 'errors',
    label: 'Errors',
    value: (r) => r.results?.error ?? r.preview?.error ?? null,
    numeric: true,
  },
  { key: 'createdAt', label: 'Started', value: (r) => r.createdAt.slice(0, 16).replace('T', ' ') },
];

/** /imports: the company's imports, newest first. */
export function ImportListPage() {
  const { data, isLoading } = useImports();
  // Staff looking into another company read its imports but start none.
  const mayChange = useMayChange();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Import data</Title>
        {mayChange && (
          <Button component={Link} to="/imports/wizard/upload">
            New import
          </Button>
        )}
      </Group>
      <DataTable
        label="Imports"
        columns={COLUMNS}
        rows={data?.data}
        rowKey={(r) => r._id}
        loading={isLoading}
        empty="No imports yet"
      />
    </Stack>
  );
}
