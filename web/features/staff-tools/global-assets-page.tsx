import { Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { type GlobalAsset, useGlobalAssets } from './api.ts';
import { StaffTable } from './staff-table.tsx';

const addressOf = (a: GlobalAsset) =>
  [a.address?.streetAddress, a.address?.locality, a.address?.postCode].filter(Boolean).join(', ');

/** /admin/tools/map: every company's sites and where they are (GET /util/global-assets), as a list. */
export function GlobalAssetsPage() {
  const { data, error, isLoading } = useGlobalAssets();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const rows = (data?.data ?? [])
    .filter((a) =>
      needle
        ? [a.siteName, a.company.name, addressOf(a)].some((v) => v?.toLowerCase().includes(needle))
        : true,
    )
    .sort(
      (a, b) =>
        (a.company.name ?? '').localeCompare(b.company.name ?? '') ||
        (a.siteName ?? '').localeCompare(b.siteName ?? ''),
    );
  const located = (data?.data ?? []).filter((a) => a.geocoordinates).length;
  return (
    <Stack>
      <Title order={2}>Sites of every company</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && (
        <>
          <Text size="sm" c="dimmed">
            {data.total} sites, {located} with coordinates.
          </Text>
          <TextInput
            label="Filter"
            placeholder="Site, company or address"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            maw={360}
          />
          {rows.length === 0 ? (
            <EmptyPanel>No sites match.</EmptyPanel>
          ) : (
            <StaffTable
              label="Sites"
              head={
                <>
                  <Table.Th>Company</Table.Th>
                  <Table.Th>Site</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Location</Table.Th>
                </>
              }
            >
              {rows.map((a) => (
                <Table.Tr key={`${a.company._id}-${a._id}`}>
                  <Table.Td>{a.company.name}</Table.Td>
                  <Table.Td>{a.siteName}</Table.Td>
                  <Table.Td>{a.assetType ?? '—'}</Table.Td>
                  <Table.Td>{addressOf(a) || '—'}</Table.Td>
                  <Table.Td>
                    {a.geocoordinates
                      ? `${a.geocoordinates.lat.toFixed(4)}, ${a.geocoordinates.lng.toFixed(4)}`
                      : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </StaffTable>
          )}
        </>
      )}
    </Stack>
  );
}
