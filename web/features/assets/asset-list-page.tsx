import {
  Anchor,
  Button,
  Group,
  Image,
  Modal,
  NativeSelect,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { canChange } from '../../../shared/access/route-access.ts';
import { ASSET_STATUSES, ASSET_TYPES } from '../../../shared/schemas/asset-wizard.ts';
import { ASSET_IMPORT_COLUMNS, importTemplateHeader } from '../../../shared/schemas/register-imports.ts';
import { routeByPath } from '../../app/routes.ts';
import { CsvImport } from '../../components/csv-import.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { type AreaUnitSystem, formatArea } from '../../lib/format.ts';
import {
  type AssetView,
  addressLine,
  STATUS_LABELS,
  useAssetList,
  useEntityOptions,
  useImportAssets,
  useRollbackAssetImport,
} from './api.ts';
import { AreaUnitToggle, EpcBadge, SiteStatusBadge } from './ui.tsx';

const PAGE_SIZE = 25;
/** Imports need company_user itself (01 §6). */
const IMPORT_PERMISSION = ['company_user'] as const;
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const SORTS = [
  { value: 'siteName', label: 'Name, A to Z' },
  { value: '-siteName', label: 'Name, Z to A' },
  { value: '-floorArea', label: 'Largest first' },
  { value: 'floorArea', label: 'Smallest first' },
  { value: '-createdAt', label: 'Newest first' },
  { value: 'epcRating', label: 'EPC, best first' },
];

export function listKey(filters: Record<string, string>, page: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
  params.set('limit', String(PAGE_SIZE));
  params.set('skip', String((page - 1) * PAGE_SIZE));
  return `/assets?${params}`;
}

function Thumb({ asset }: { asset: AssetView }) {
  const image = asset.primaryImage ?? asset.images?.[0];
  const src = image?.thumbUrl ?? image?.url;
  if (!src)
    return (
      <div style={{ width: 64, height: 40, background: 'var(--mantine-color-gray-2)', borderRadius: 4 }} />
    );
  return <Image src={src} alt={`Picture of ${asset.siteName}`} w={64} h={40} fit="cover" radius="sm" />;
}

/** /assets: the sites, filtered by entity, status and type, searched, sorted and paged. */
export function AssetListPage() {
  const [query, setQuery] = useState('');
  const [entityId, setEntityId] = useState('');
  const [status, setStatus] = useState('');
  const [assetType, setAssetType] = useState('');
  const [sort, setSort] = useState('siteName');
  const [page, setPage] = useState(1);
  const [units, setUnits] = useState<AreaUnitSystem>('metric');
  const [importing, setImporting] = useState(false);
  const { access } = useSession();
  const importAssets = useImportAssets();
  const rollbackImport = useRollbackAssetImport();
  const entities = useEntityOptions();
  const key = listKey({ query: query.trim(), entityId, status, assetType, $sort: sort }, page);
  const { data, error, isLoading } = useAssetList(key);
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  // The wizard's own page rule: offering it to someone it would refuse leads only to "Forbidden".
  const wizard = routeByPath('/assets/wizard');
  const mayAddSite = wizard !== undefined && canChange(wizard.permission, access);
  const filter = (set: (v: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Sites</Title>
        <Group gap="sm">
          {canChange(IMPORT_PERMISSION, access) && (
            <Button variant="default" onClick={() => setImporting(true)}>
              Import CSV
            </Button>
          )}
          {mayAddSite && (
            <Button component={Link} to="/assets/wizard">
              Add a site
            </Button>
          )}
        </Group>
      </Group>
      <Modal opened={importing} onClose={() => setImporting(false)} title="Import sites" size="lg">
        <CsvImport
          noun={{ one: 'site', many: 'sites' }}
          columns={importTemplateHeader(ASSET_IMPORT_COLUMNS)}
          onImport={importAssets}
          onRollback={rollbackImport}
        />
      </Modal>
      <Paper withBorder p="sm">
        <Group align="end" wrap="wrap">
          <TextInput
            label="Search sites"
            placeholder="Name, street or postcode"
            value={query}
            onChange={(e) => filter(setQuery)(e.currentTarget.value)}
          />
          <NativeSelect
            label="Entity"
            value={entityId}
            onChange={(e) => filter(setEntityId)(e.currentTarget.value)}
            data={[
              { value: '', label: 'All entities' },
              ...(entities.data?.data ?? []).map((e) => ({ value: e._id, label: e.legalName })),
            ]}
          />
          <NativeSelect
            label="Status"
            value={status}
            onChange={(e) => filter(setStatus)(e.currentTarget.value)}
            data={[
              { value: '', label: 'Any status' },
              ...ASSET_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
            ]}
          />
          <NativeSelect
            label="Type"
            value={assetType}
            onChange={(e) => filter(setAssetType)(e.currentTarget.value)}
            data={[{ value: '', label: 'Any type' }, ...ASSET_TYPES]}
          />
          <NativeSelect
            label="Sort"
            value={sort}
            onChange={(e) => filter(setSort)(e.currentTarget.value)}
            data={SORTS}
          />
          <AreaUnitToggle value={units} onChange={setUnits} />
        </Group>
      </Paper>
      {isLoading && !data && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && data.total === 0 && <EmptyPanel>No sites match these filters.</EmptyPanel>}
      {data && data.total > 0 && (
        <Paper withBorder>
          <Table striped highlightOnHover aria-label="Sites">
            <Table.Thead>
              <Table.Tr>
                <Table.Th aria-label="Picture" />
                <Table.Th>Site</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Floor area</Table.Th>
                <Table.Th>EPC</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((asset) => (
                <Table.Tr key={asset._id}>
                  <Table.Td>
                    <Thumb asset={asset} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/assets/${asset._id}/overview`}>
                      {asset.siteName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{addressLine(asset.address)}</Table.Td>
                  <Table.Td>{asset.assetType}</Table.Td>
                  <Table.Td style={NO_WRAP}>
                    <SiteStatusBadge status={asset.status} />
                  </Table.Td>
                  <Table.Td ta="right" style={NO_WRAP}>
                    {formatArea(asset.floorArea, units)}
                  </Table.Td>
                  <Table.Td style={NO_WRAP}>
                    <EpcBadge band={asset.epcRating} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {data && data.total > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {data.total} site{data.total === 1 ? '' : 's'}
          </Text>
          <Pagination total={pages} value={page} onChange={setPage} aria-label="Pages" />
        </Group>
      )}
    </Stack>
  );
}
