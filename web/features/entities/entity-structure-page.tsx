import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { canChange } from '../../../shared/access/route-access.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { type Entity, useSubtree, useUltimateParent } from './api.ts';
import { EntityLayout } from './entity-layout.tsx';
import { EntityTree } from './entity-tree.tsx';

const WIZARD_PERMISSION = ['company_user', 'company_user_full'] as const;

function Details({ entity }: { entity: Entity }) {
  const a = entity.address ?? {};
  const address = [a.streetAddress, a.locality, a.region, a.postCode, a.country].filter(Boolean).join(', ');
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Details
      </Title>
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={180}>Company number</Table.Th>
            <Table.Td>{entity.companyNumber ?? '—'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Registered address</Table.Th>
            <Table.Td>{address || '—'}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The group the entity belongs to, from its ultimate parent down, with this entity marked. */
function GroupTree({ entity }: { entity: Entity }) {
  const top = useUltimateParent(entity._id);
  const tree = useSubtree(top.data?._id);
  const error = top.error ?? tree.error;
  if (error) return <ErrorPanel error={error} />;
  if (!tree.data) return <LoadingPanel />;
  return (
    <Stack gap="xs">
      {top.data && top.data._id !== entity._id && (
        <Text size="sm" c="dimmed">
          Part of {top.data.legalName}
        </Text>
      )}
      <EntityTree nodes={[tree.data]} current={entity._id} />
    </Stack>
  );
}

/** /entities/{id}/structure: where the entity sits in its group, its subsidiaries, and its details. */
export function EntityStructurePage() {
  const { access } = useSession();
  return (
    <EntityLayout tab="structure">
      {(entity) => (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder p="md">
            <Group justify="space-between" mb="sm">
              <Title order={4}>Structure</Title>
              {canChange(WIZARD_PERMISSION, access) && (
                <Button
                  component={Link}
                  to={`/new-entity?parentEntityId=${entity._id}`}
                  size="xs"
                  variant="light"
                >
                  Add subsidiary
                </Button>
              )}
            </Group>
            <GroupTree entity={entity} />
          </Paper>
          <Details entity={entity} />
        </SimpleGrid>
      )}
    </EntityLayout>
  );
}
