import { Badge, Group, Image, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { frameHold, PageFrame } from '../../components/page-frame.tsx';
import { useMayChangeItem } from '../../lib/may-change.ts';
import { type AssetView, addressLine, useAsset } from './api.ts';
import { EpcBadge, SiteStatusBadge } from './ui.tsx';

/** The sub-pages of a site, in the order of its tabs. */
export const ASSET_TABS = [
  { sub: 'overview', label: 'Overview' },
  { sub: 'accounts', label: 'Meters' },
  { sub: 'documents', label: 'Documents' },
  { sub: 'projects', label: 'Projects' },
  { sub: 'recommendations', label: 'Recommendations' },
  { sub: 'risks', label: 'Risks' },
  { sub: 'tenants', label: 'Tenants' },
  { sub: 'discussion', label: 'Discussion' },
  { sub: 'reports', label: 'Reports' },
  { sub: 'manage', label: 'Manage' },
] as const;
export type AssetTab = (typeof ASSET_TABS)[number]['sub'];

export const assetPath = (id: string, sub: AssetTab = 'overview') => `/assets/${id}/${sub}`;

/** The tabs offered: the Manage page only to those who may change the site (not staff looking in, not readers). */
export const assetTabs = (mayChange: boolean) => ASSET_TABS.filter((t) => mayChange || t.sub !== 'manage');

/** Shown instead of a form that would change a site the user may only read. */
export const READ_ONLY_SITE = 'You can read this site but not change it.';

/** Whether the signed-in user is offered changes to this site and what hangs off it. */
export const useMayChangeSite = (asset: Pick<AssetView, '_id' | 'entityId'> | undefined): boolean =>
  useMayChangeItem({ assetId: asset?._id, entityId: asset?.entityId });

/** A site page's header (picture, name, status, address) and tabs; the sub-page renders below. */
export function AssetFrame({ tab, children }: { tab: AssetTab; children: (asset: AssetView) => ReactNode }) {
  const { id } = useParams();
  const { data: asset, error, isLoading } = useAsset(id);
  const mayChange = useMayChangeSite(asset);
  const hold = frameHold({ isLoading, error }, asset !== undefined, 'Site not found');
  if (hold || !asset) return hold;
  const picture = asset.primaryImage ?? asset.images?.[0];
  return (
    <PageFrame
      crumbs={[{ label: 'Sites', to: '/assets' }, { label: asset.siteName }]}
      header={
        <Group gap="md" align="center" wrap="nowrap">
          {(picture?.thumbUrl ?? picture?.url) && (
            <Image src={picture?.thumbUrl ?? picture?.url} alt="" w={96} h={60} radius="sm" fit="cover" />
          )}
          <Stack gap={2}>
            <Group gap="sm">
              <Title order={2}>{asset.siteName}</Title>
              <SiteStatusBadge status={asset.status} />
              <EpcBadge band={asset.epcRating} />
              {asset.deleted && <Badge color="red">Deleted</Badge>}
            </Group>
            <Text c="dimmed" size="sm">
              {[asset.assetType, addressLine(asset.address)].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
        </Group>
      }
      navLabel="Site pages"
      tabs={assetTabs(mayChange)}
      current={tab}
      pathOf={(sub) => assetPath(asset._id, sub)}
    >
      {children(asset)}
    </PageFrame>
  );
}
