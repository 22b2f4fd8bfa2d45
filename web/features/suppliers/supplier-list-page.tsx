import {
  Anchor,
  Badge,
  Button,
  Group,
  Image,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { SUPPLIER_TYPE_LABELS, type SupplierType, useSuppliers } from './api.ts';

/** /suppliers: every supplier and distributor, by name, filtered by kind and by name. */
export function SupplierListPage() {
  const [kind, setKind] = useState<'all' | SupplierType>('all');
  const [filter, setFilter] = useState('');
  const { data, error, isLoading } = useSuppliers(kind === 'all' ? undefined : kind);
  const needle = filter.trim().toLowerCase();
  const rows = (data?.data ?? [])
    .filter((s) => !needle || s.name.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Suppliers</Title>
        <Button component={Link} to="/suppliers/create">
          Create supplier
        </Button>
      </Group>
      <Group>
        <SegmentedControl
          aria-label="Kind"
          value={kind}
          onChange={(v) => setKind(v as typeof kind)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'supplier', label: 'Suppliers' },
            { value: 'distributor', label: 'Distributors' },
          ]}
        />
        <TextInput
          placeholder="Filter by name"
          aria-label="Filter by name"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
      </Group>
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && rows.length === 0 && <EmptyPanel>No suppliers match.</EmptyPanel>}
        {rows.length > 0 && (
          <Table striped highlightOnHover aria-label="Suppliers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={64} />
                <Table.Th>Name</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Utilities</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s._id}>
                  <Table.Td>
                    {s.logoUrl && <Image src={s.logoUrl} alt="" h={24} w="auto" fit="contain" />}
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/suppliers/${s._id}/overview`}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{SUPPLIER_TYPE_LABELS[s.type]}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {s.utilityTypes.map((u) => (
                        <Badge key={u} variant="light" size="sm" tt="none">
                          {u}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}
