import { Stack, Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Breadcrumbs } from '../../components/breadcrumbs.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useMayChangeItem } from '../../lib/may-change.ts';
import { type Entity, useEntity } from './api.ts';

export type EntityTab = 'structure' | 'edit';

/** An entity's heading and its tabs (structure by default, and edit); the tab's page renders below. */
export function EntityLayout({ tab, children }: { tab: EntityTab; children: (entity: Entity) => ReactNode }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: entity, error, isLoading } = useEntity(id);
  // Editing is offered to those who may change the entity (never to staff looking into another company).
  const mayEdit = useMayChangeItem({ entityId: id });
  if (isLoading) return <LoadingPanel />;
  if (error || !entity) return <ErrorPanel error={error ?? new Error('Entity not found')} />;
  return (
    <Stack>
      <Breadcrumbs items={[{ label: 'Entities', to: '/entities' }, { label: entity.legalName }]} />
      <Title order={2}>{entity.legalName}</Title>
      <Tabs value={tab} onChange={(next) => next && navigate(`/entities/${entity._id}/${next}`)}>
        <Tabs.List>
          <Tabs.Tab value="structure">Structure</Tabs.Tab>
          {mayEdit && <Tabs.Tab value="edit">Edit</Tabs.Tab>}
        </Tabs.List>
      </Tabs>
      {children(entity)}
    </Stack>
  );
}
