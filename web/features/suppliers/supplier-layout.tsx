import { Group, Image, Stack, Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Breadcrumbs } from '../../components/breadcrumbs.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { type Supplier, useSupplier } from './api.ts';

export type SupplierTab = 'overview' | 'edit' | 'templates';

/** A supplier's heading (logo and name) and tabs; the tab's page renders below. */
export function SupplierLayout({
  tab,
  children,
}: {
  tab: SupplierTab;
  children: (s: Supplier) => ReactNode;
}) {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: supplier, error, isLoading } = useSupplier(id);
  if (isLoading) return <LoadingPanel />;
  if (error || !supplier) return <ErrorPanel error={error ?? new Error('Supplier not found')} />;
  return (
    <Stack>
      <Breadcrumbs items={[{ label: 'Suppliers', to: '/suppliers' }, { label: supplier.name }]} />
      <Group gap="md">
        {supplier.logoUrl && (
          <Image src={supplier.logoUrl} alt={`${supplier.name} logo`} h={40} w="auto" fit="contain" />
        )}
        <Title order={2}>{supplier.name}</Title>
      </Group>
      <Tabs
        value={tab}
        onChange={(next) => {
          if (next === 'templates')
            navigate(`/suppliers/${supplier._id}/templates/${supplier.utilityTypes[0] ?? 'electricity'}`);
          else if (next) navigate(`/suppliers/${supplier._id}/${next}`);
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="edit">Edit</Tabs.Tab>
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {children(supplier)}
    </Stack>
  );
}
