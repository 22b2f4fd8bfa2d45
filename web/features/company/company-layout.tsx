import { Anchor, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { RoutePermission } from '../../../shared/access/permission-names.ts';
import { canUseRoute } from '../../../shared/access/route-access.ts';
import { useSession } from '../../lib/app-context.tsx';

export type CompanyTab = 'manage' | 'users' | 'roles' | 'permissions' | 'log';

/** Who may use each tab (01 §6); the same lists guard the routes. */
export const COMPANY_ADMIN: RoutePermission = ['company_admin'];
const TABS: readonly { tab: CompanyTab; label: string; to: string; permission: RoutePermission }[] = [
  { tab: 'manage', label: 'Settings', to: '/company/manage', permission: COMPANY_ADMIN },
  {
    tab: 'users',
    label: 'Users',
    to: '/company/users',
    permission: ['company_owner', 'company_user', 'company_user_full'],
  },
  { tab: 'roles', label: 'Roles', to: '/company/roles', permission: COMPANY_ADMIN },
  { tab: 'permissions', label: 'Permissions', to: '/company/permissions', permission: COMPANY_ADMIN },
  { tab: 'log', label: 'Activity Log', to: '/company/log', permission: ['company_admin', 'company_log'] },
];

/** The company administration pages share a heading and a row of links to each other. */
export function CompanyLayout({ tab, children }: { tab: CompanyTab; children: ReactNode }) {
  const { company, access } = useSession();
  const tabs = TABS.filter((t) => canUseRoute(t.permission, access));
  return (
    <Stack>
      <Title order={2}>{company.name}</Title>
      <Group gap="lg" component="nav" aria-label="Company administration">
        {tabs.map((t) => (
          <Anchor
            key={t.tab}
            component={Link}
            to={t.to}
            fw={t.tab === tab ? 700 : 400}
            aria-current={t.tab === tab ? 'page' : undefined}
          >
            {t.label}
          </Anchor>
        ))}
      </Group>
      {children}
    </Stack>
  );
}

/** Whether the signed-in user may change company users, roles and settings. */
export function useIsCompanyAdmin(): boolean {
  const { access } = useSession();
  return canUseRoute(COMPANY_ADMIN, access);
}
