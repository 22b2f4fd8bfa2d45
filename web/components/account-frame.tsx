import { Badge, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { meterPointKind, UTILITY_LABELS } from '../../shared/schemas/account-rules.ts';
import type { AccountView } from '../../shared/schemas/account-views.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { useAccount } from '../lib/account-api.ts';
import { useMayChangeItem } from '../lib/may-change.ts';
import { Breadcrumbs, type Crumb } from './breadcrumbs.tsx';
import { frameHold, PageFrame } from './page-frame.tsx';

/** The sub-pages of an account, in the order of its tabs. */
export const ACCOUNT_TABS = [
  { sub: 'overview', label: 'Overview' },
  { sub: 'consumption', label: 'Consumption' },
  { sub: 'invoices', label: 'Invoices' },
  { sub: 'credit-notes', label: 'Credit notes' },
  { sub: 'readings', label: 'Readings' },
  { sub: 'contracts', label: 'Contracts' },
  { sub: 'data-quality', label: 'Data quality' },
  { sub: 'edit', label: 'Edit' },
] as const;

export type AccountTab = (typeof ACCOUNT_TABS)[number]['sub'];

/** The tabs offered: the Edit page only to those who may change the meter (not staff looking in, not readers). */
export const accountTabs = (mayChange: boolean) => ACCOUNT_TABS.filter((t) => mayChange || t.sub !== 'edit');

/** Whether the signed-in user is offered changes to this meter and what hangs off it (readings, contracts). */
export const useMayChangeAccount = (account: Pick<AccountView, '_id' | 'assetId'> | undefined): boolean =>
  useMayChangeItem({ accountId: account?._id, assetId: account?.assetId });

/** Shown instead of a form that would change a meter the user may only read. */
export const READ_ONLY_METER = 'You can read this meter but not change it.';

export const accountPath = (account: Pick<AccountView, '_id' | 'assetId'>, sub: AccountTab = 'overview') =>
  `/assets/${account.assetId}/accounts/${account._id}/${sub}`;

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={status === 'active' ? 'green' : 'gray'} variant="light" aria-label={`Status: ${status}`}>
      {status === 'active' ? 'Active' : 'Inactive'}
    </Badge>
  );
}

export function SubMeterBadge() {
  return (
    <Badge color="violet" variant="light">
      Sub-meter
    </Badge>
  );
}

export const utilityLabel = (type: string) => UTILITY_LABELS[type as UtilityType] ?? type;

/** Sites / the site: the way back from a page under one site's meters. */
const siteCrumbs = (assetId: string, siteName: string | undefined): Crumb[] => [
  { label: 'Sites', to: '/assets' },
  { label: siteName ?? 'Site', to: `/assets/${assetId}/overview` },
];

export function SiteCrumbs({ assetId, siteName }: { assetId: string; siteName: string | undefined }) {
  return <Breadcrumbs items={siteCrumbs(assetId, siteName)} />;
}

/** The account page's header (asset, name, badges, meter number) and tabs; the sub-page renders below. */
export function AccountLayout({
  tab,
  children,
}: {
  tab: AccountTab;
  children: (account: AccountView) => ReactNode;
}) {
  const { id: assetId, accountId } = useParams();
  const { data: account, error, isLoading } = useAccount(accountId);
  const mayChange = useMayChangeAccount(account);
  const hold = frameHold({ isLoading, error }, account !== undefined, 'Account not found');
  if (hold || !account) return hold;
  // An account that moved to another asset is shown under the asset it is in now.
  if (account.assetId !== assetId) return <Navigate to={accountPath(account, tab)} replace />;
  const kind = meterPointKind(account.type);
  return (
    <PageFrame
      crumbs={siteCrumbs(account.assetId, account.asset?.siteName)}
      header={
        <>
          <Group gap="sm" align="center">
            <Title order={2}>{account.name ?? utilityLabel(account.type)}</Title>
            <StatusBadge status={account.status} />
            {account.isSubMeter && <SubMeterBadge />}
            <Badge variant="outline">{utilityLabel(account.type)}</Badge>
          </Group>
          {account.meterPointNumber && (
            <Text c="dimmed" size="sm">
              {kind ?? 'Meter number'}: {account.meterPointNumber}
            </Text>
          )}
        </>
      }
      navLabel="Account pages"
      tabs={accountTabs(mayChange)}
      current={tab}
      pathOf={(sub) => accountPath(account, sub)}
    >
      {children(account)}
    </PageFrame>
  );
}
