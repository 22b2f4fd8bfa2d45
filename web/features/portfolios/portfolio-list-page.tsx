import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { canChange } from '../../../shared/access/route-access.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formatCount } from '../../lib/format.ts';
import { useMyGroups } from './api.ts';

/** Making and changing portfolios is for company users (the asset-groups write permission). */
export const PORTFOLIO_WRITERS = ['company_user', 'company_user_full'] as const;

/** /portfolios: the portfolios the user may open. */
export function PortfolioListPage() {
  const { access } = useSession();
  const { data, error, isLoading } = useMyGroups();
  const canWrite = canChange(PORTFOLIO_WRITERS, access);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Portfolios</Title>
        {canWrite && (
          <Group gap="sm">
            <Button component={Link} to="/portfolios/manage" variant="default">
              Manage portfolios
            </Button>
            <Button component={Link} to="/portfolios/create">
              Create portfolio
            </Button>
          </Group>
        )}
      </Group>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && data.data.length === 0 && <EmptyPanel>There are no portfolios yet.</EmptyPanel>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {(data?.data ?? []).map((g) => (
          <Card key={g._id} withBorder padding="md">
            <Anchor component={Link} to={`/portfolios/${g._id}/assets`} fw={600}>
              {g.name}
            </Anchor>
            {g.description && (
              <Text size="sm" c="dimmed" mt={4}>
                {g.description}
              </Text>
            )}
            <Text size="sm" mt="sm">
              {formatCount(g.assetIds.length)} {g.assetIds.length === 1 ? 'site' : 'sites'}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
