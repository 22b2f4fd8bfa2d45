import { Badge, Button, Group, Title } from '@mantine/core';
import { Link } from 'react-router';
import { canChange, canUseRoute } from '../../../shared/access/route-access.ts';
import { routeByPath } from '../../app/routes.ts';
import { useSession } from '../../lib/app-context.tsx';
import { formatCount } from '../../lib/format.ts';
import { useQueueCount } from './api.ts';
import { QUEUE_GROUPS, QUEUE_LABELS, type QueueFilters, type QueueGroup } from './validation-state.ts';

export type ValidationTab = QueueGroup | 'upload' | 'invoice-captures';

function QueueCount({ group, filters }: { group: QueueGroup; filters: QueueFilters }) {
  const { data } = useQueueCount(group, filters);
  if (!data) return null;
  return (
    <Badge size="sm" variant="white" color="dark" aria-label={`${formatCount(data.total)} invoices`}>
      {formatCount(data.total)}
    </Badge>
  );
}

/** The Bill Validation heading and its pages: the three queues with their counts, upload, captures. */
export function ValidationNav({ tab, filters = {} }: { tab: ValidationTab; filters?: QueueFilters }) {
  const { access } = useSession();
  const may = (path: string) => {
    const route = routeByPath(path);
    return route !== undefined && canUseRoute(route.permission, access);
  };
  const mayChangeAt = (path: string) => {
    const route = routeByPath(path);
    return route !== undefined && canChange(route.permission, access);
  };
  const link = (to: ValidationTab, label: string, count?: QueueGroup) => (
    <Button
      key={to}
      component={Link}
      to={`/invoice-validation/${to}`}
      size="xs"
      variant={tab === to ? 'filled' : 'subtle'}
      aria-current={tab === to ? 'page' : undefined}
      rightSection={count ? <QueueCount group={count} filters={filters} /> : undefined}
    >
      {label}
    </Button>
  );
  return (
    <>
      <Title order={2}>Bill Validation</Title>
      <Group gap={4} component="nav" aria-label="Bill validation pages">
        {QUEUE_GROUPS.map((g) => link(g, QUEUE_LABELS[g], g))}
        {/* Uploading files bills: a change, so not offered to staff looking into another company. */}
        {mayChangeAt('/invoice-validation/upload') && link('upload', 'Upload')}
        {may('/invoice-validation/invoice-captures') && link('invoice-captures', 'Invoice captures')}
      </Group>
    </>
  );
}
