import { Alert, Anchor, Button, Group, Paper, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formFailureOf } from '../../lib/form-errors.ts';
import { formatCount } from '../../lib/format.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { type AssetGroup, useDeleteGroup, useMyGroups } from './api.ts';
import { PORTFOLIO_WRITERS } from './portfolio-list-page.tsx';

/** /portfolios/manage: every portfolio with its edit link and a delete action. */
export function PortfolioManagePage() {
  const deleteGroup = useDeleteGroup();
  const { data, error, isLoading } = useMyGroups();
  const [problem, setProblem] = useState<string>();
  const mayChange = useMayChange(PORTFOLIO_WRITERS);

  async function remove(group: AssetGroup) {
    if (!window.confirm(`Delete the portfolio ${group.name}? Its sites are kept.`)) return;
    try {
      await deleteGroup(group._id);
      showToast(`${group.name} was deleted`, 'success');
    } catch (err) {
      setProblem(formFailureOf(err).message);
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Manage portfolios</Title>
        {mayChange && (
          <Button component={Link} to="/portfolios/create">
            Create portfolio
          </Button>
        )}
      </Group>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && data.data.length === 0 && <EmptyPanel>There are no portfolios yet.</EmptyPanel>}
        {data && data.data.length > 0 && (
          <Table striped aria-label="Portfolios">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Sites</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((g) => (
                <Table.Tr key={g._id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/portfolios/${g._id}/assets`}>
                      {g.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatCount(g.assetIds.length)}</Table.Td>
                  <Table.Td>
                    {mayChange && (
                      <Group gap="xs" justify="flex-end">
                        <Button component={Link} to={`/portfolios/${g._id}/edit`} size="xs" variant="light">
                          Edit
                        </Button>
                        <Button size="xs" color="red" variant="subtle" onClick={() => remove(g)}>
                          Delete
                        </Button>
                      </Group>
                    )}
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
