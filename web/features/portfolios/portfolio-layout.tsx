import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { canChange } from '../../../shared/access/route-access.ts';
import { Breadcrumbs } from '../../components/breadcrumbs.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { type AreaUnitSystem, formatArea } from '../../lib/format.ts';
import { type AssetGroup, useAreaUnit, useFloorArea, useGroup } from './api.ts';
import { AreaUnitToggle } from './area-unit-toggle.tsx';
import { PORTFOLIO_WRITERS } from './portfolio-list-page.tsx';

export type PortfolioTab = 'assets' | 'reports';

function FloorArea({ id, unit }: { id: string; unit: AreaUnitSystem }) {
  const { data } = useFloorArea(id);
  if (!data) return null;
  return (
    <Text size="sm" aria-label="Total floor area">
      Total floor area: <b>{formatArea(data.m2, unit)}</b>
      {data.assetsWithFloorArea < data.assetsCount &&
        ` (${data.assetsCount - data.assetsWithFloorArea} sites have no floor area)`}
    </Text>
  );
}

/** A portfolio's heading, floor area and tabs (assets by default, and reports); the tab renders below. */
export function PortfolioLayout({
  tab,
  children,
}: {
  tab: PortfolioTab;
  children: (group: AssetGroup, unit: AreaUnitSystem) => ReactNode;
}) {
  const { id } = useParams();
  const navigate = useNavigate();
  const { access } = useSession();
  const [unit, setUnit] = useAreaUnit();
  const { data: group, error, isLoading } = useGroup(id);
  if (isLoading) return <LoadingPanel />;
  if (error || !group) return <ErrorPanel error={error ?? new Error('Portfolio not found')} />;
  return (
    <Stack>
      <Breadcrumbs items={[{ label: 'Portfolios', to: '/portfolios' }, { label: group.name }]} />
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2}>{group.name}</Title>
          {group.description && <Text c="dimmed">{group.description}</Text>}
          <FloorArea id={group._id} unit={unit} />
        </Stack>
        <Group gap="sm">
          <AreaUnitToggle value={unit} onChange={setUnit} />
          {canChange(PORTFOLIO_WRITERS, access) && (
            <Button component={Link} to={`/portfolios/${group._id}/edit`} variant="default" size="xs">
              Edit portfolio
            </Button>
          )}
        </Group>
      </Group>
      <Tabs value={tab} onChange={(next) => next && navigate(`/portfolios/${group._id}/${next}`)}>
        <Tabs.List>
          <Tabs.Tab value="assets">Assets</Tabs.Tab>
          <Tabs.Tab value="reports">Reports</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {children(group, unit)}
    </Stack>
  );
}
