import type { ComponentType } from 'react';

/** The account pages, each its own chunk: the router fetches one when its route is first visited. */
export const ACCOUNT_PAGES = {
  'account-wizard': () =>
    import('./account-wizard-page.tsx').then((m) => ({ Component: m.AccountWizardPage })),
  'account-view': () => import('./account-view-page.tsx').then((m) => ({ Component: m.AccountViewPage })),
  'account-overview': () =>
    import('./account-overview-page.tsx').then((m) => ({ Component: m.AccountOverviewPage })),
  'account-consumption': () =>
    import('./account-consumption-page.tsx').then((m) => ({ Component: m.AccountConsumptionPage })),
  'account-data-quality': () =>
    import('./account-data-quality-page.tsx').then((m) => ({ Component: m.AccountDataQualityPage })),
  'account-contracts': () =>
    import('./account-contracts-page.tsx').then((m) => ({ Component: m.AccountContractsPage })),
  'account-readings': () =>
    import('./account-readings-page.tsx').then((m) => ({ Component: m.AccountReadingsPage })),
  'account-edit': () => import('./account-edit-page.tsx').then((m) => ({ Component: m.AccountEditPage })),
  'asset-accounts': () =>
    import('./asset-accounts-page.tsx').then((m) => ({ Component: m.AssetAccountsPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type AccountPageKey = keyof typeof ACCOUNT_PAGES;
