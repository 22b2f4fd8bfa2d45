import type { ComponentType } from 'react';

/** The company administration pages, each its own chunk. */
export const COMPANY_PAGES = {
  'company-manage': () =>
    import('./company-manage-page.tsx').then((m) => ({ Component: m.CompanyManagePage })),
  'company-users': () => import('./user-list-page.tsx').then((m) => ({ Component: m.UserListPage })),
  'company-user-create': () => import('./user-form-page.tsx').then((m) => ({ Component: m.UserCreatePage })),
  'company-user-edit': () => import('./user-form-page.tsx').then((m) => ({ Component: m.UserEditPage })),
  'company-roles': () => import('./role-pages.tsx').then((m) => ({ Component: m.RoleListPage })),
  'company-role-create': () => import('./role-pages.tsx').then((m) => ({ Component: m.RoleCreatePage })),
  'company-role-edit': () => import('./role-pages.tsx').then((m) => ({ Component: m.RoleEditPage })),
  'company-permissions': () =>
    import('./grant-set-pages.tsx').then((m) => ({ Component: m.GrantSetListPage })),
  'company-permission-create': () =>
    import('./grant-set-pages.tsx').then((m) => ({ Component: m.GrantSetCreatePage })),
  'company-permission-edit': () =>
    import('./grant-set-pages.tsx').then((m) => ({ Component: m.GrantSetEditPage })),
  'company-log': () => import('./company-log-page.tsx').then((m) => ({ Component: m.CompanyLogPage })),
  'company-create': () =>
    import('./company-create-page.tsx').then((m) => ({ Component: m.CompanyCreatePage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type CompanyPageKey = keyof typeof COMPANY_PAGES;
