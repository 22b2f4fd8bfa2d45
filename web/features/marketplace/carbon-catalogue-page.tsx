import { Anchor, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { CARBON_REGISTRIES, MARKETPLACE_MESSAGES } from '../../../shared/schemas/carbon-marketplace.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatNumber } from '../../lib/format.ts';
import { type CatalogueFilters, useCatalogue, useProjectTypes } from './api.ts';
import { ApproachBadge, ExampleBadge, moneyPerTonne, NotNettedNote } from './carbon-parts.tsx';

/** /marketplace/carbon: the catalogue of removal and avoidance projects, with its filters. */
export function CarbonCataloguePage() {
  const [filters, setFilters] = useState<CatalogueFilters>({});
  const types = useProjectTypes();
  const catalogue = useCatalogue(filters);
  const set = (name: keyof CatalogueFilters) => (value: string) =>
    setFilters((f) => ({ ...f, [name]: value }));
  const typeName = (key: string) => types.data?.data.find((t) => t.key === key)?.name ?? key;
  return (
    <Stack gap="md">
      <Title order={2}>Carbon marketplace</Title>
      <NotNettedNote />
      <Group align="flex-end" wrap="wrap" role="search" aria-label="Filter projects">
        <TextInput
          label="Search"
          value={filters.query ?? ''}
          onChange={(e) => set('query')(e.currentTarget.value)}
        />
        <NativeSelect
          label="Approach"
          value={filters.approach ?? ''}
          onChange={(e) => set('approach')(e.currentTarget.value)}
          data={[
            { value: '', label: 'Any' },
            { value: 'removal', label: 'Removal' },
            { value: 'avoidance', label: 'Avoidance' },
          ]}
        />
        <NativeSelect
          label="Project type"
          value={filters.projectType ?? ''}
          onChange={(e) => set('projectType')(e.currentTarget.value)}
          data={[
            { value: '', label: 'Any' },
            ...(types.data?.data ?? []).map((t) => ({ value: t.key, label: `${t.name} (${t.projects})` })),
          ]}
        />
        <NativeSelect
          label="Registry"
          value={filters.registry ?? ''}
          onChange={(e) => set('registry')(e.currentTarget.value)}
          data={[{ value: '', label: 'Any' }, ...CARBON_REGISTRIES]}
        />
        <TextInput
          label="Max price per tonne"
          inputMode="decimal"
          w={150}
          value={filters.maxPrice ?? ''}
          onChange={(e) => set('maxPrice')(e.currentTarget.value)}
        />
        <TextInput
          label="Vintage from"
          inputMode="numeric"
          w={120}
          value={filters.minVintage ?? ''}
          onChange={(e) => set('minVintage')(e.currentTarget.value)}
        />
      </Group>
      {catalogue.isLoading && <LoadingPanel />}
      {catalogue.error && <ErrorPanel error={catalogue.error} title={MARKETPLACE_MESSAGES.problem} />}
      {catalogue.data && catalogue.data.data.length === 0 && (
        <EmptyPanel>No projects match these filters.</EmptyPanel>
      )}
      {catalogue.data && catalogue.data.data.length > 0 && (
        <Table striped aria-label="Carbon projects">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Project</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Registry</Table.Th>
              <Table.Th>Vintage</Table.Th>
              <Table.Th>Location</Table.Th>
              <Table.Th ta="right">Price</Table.Th>
              <Table.Th ta="right">Available (t)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {catalogue.data.data.map((p) => (
              <Table.Tr key={p._id}>
                <Table.Td>
                  <Group gap="xs">
                    <Anchor component={Link} to={`/marketplace/carbon/${p._id}`}>
                      {p.name}
                    </Anchor>
                    <ExampleBadge example={p.isExample} />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <Text size="sm">{typeName(p.projectType)}</Text>
                    <ApproachBadge approach={p.approach} />
                  </Group>
                </Table.Td>
                <Table.Td>{p.registry}</Table.Td>
                <Table.Td>{p.vintage}</Table.Td>
                <Table.Td>{[p.location, p.country].filter(Boolean).join(', ')}</Table.Td>
                <Table.Td ta="right">{moneyPerTonne(p.pricePerTonne, p.currency)}</Table.Td>
                <Table.Td ta="right">{formatNumber(p.availableTonnes)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
