import { Anchor, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { canChange } from '../../../shared/access/route-access.ts';
import { SEARCH_DEBOUNCE_MS } from '../../../shared/constants.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formatCount } from '../../lib/format.ts';
import { countEntities, useEntitySearch, useStructure } from './api.ts';
import { EntityTree } from './entity-tree.tsx';

/** Who may open the new-entity wizard and the entity import (01 §6). */
const WIZARD_PERMISSION = ['company_user', 'company_user_full'] as const;
const IMPORT_PERMISSION = ['company_user'] as const;

function SearchResults({ query }: { query: string }) {
  const { data, error, isLoading } = useEntitySearch(query);
  if (error) return <ErrorPanel error={error} />;
  if (isLoading && !data) return <LoadingPanel />;
  if (!data || data.data.length === 0) return <EmptyPanel>No entities match “{query}”.</EmptyPanel>;
  return (
    <Table striped highlightOnHover aria-label="Entities found">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Legal name</Table.Th>
          <Table.Th>Company number</Table.Th>
          <Table.Th>Parent entity</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.data.map((e) => (
          <Table.Tr key={e._id}>
            <Table.Td>
              <Anchor component={Link} to={`/entities/${e._id}/structure`}>
                {e.legalName}
              </Anchor>
            </Table.Td>
            <Table.Td>{e.companyNumber ?? '—'}</Table.Td>
            <Table.Td>{e.parentEntity?.legalName ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** /entities: the company's entity tree, or the entities whose legal name matches a search. */
export function EntityListPage() {
  const { access } = useSession();
  const [input, setInput] = useState('');
  const [query] = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const { data, error, isLoading } = useStructure();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Entities</Title>
        <Group gap="sm">
          {canChange(IMPORT_PERMISSION, access) && (
            <Button component={Link} to="/entities/import" variant="default">
              Import entities
            </Button>
          )}
          {canChange(WIZARD_PERMISSION, access) && (
            <Button component={Link} to="/new-entity">
              New entity
            </Button>
          )}
        </Group>
      </Group>
      <TextInput
        label="Search entities"
        placeholder="Legal name or company number"
        value={input}
        onChange={(e) => setInput(e.currentTarget.value)}
      />
      <Paper withBorder p="md">
        {query ? (
          <SearchResults query={query} />
        ) : (
          <>
            {isLoading && <LoadingPanel />}
            {error && <ErrorPanel error={error} />}
            {data && data.data.length === 0 && <EmptyPanel>There are no entities yet.</EmptyPanel>}
            {data && data.data.length > 0 && (
              <Stack gap="xs">
                <Text size="sm" c="dimmed">
                  {formatCount(countEntities(data.data))} entities
                </Text>
                <EntityTree nodes={data.data} />
              </Stack>
            )}
          </>
        )}
      </Paper>
    </Stack>
  );
}
