import type { ComponentType } from 'react';

/** The site pages, each its own chunk: the router fetches one when its route is first visited. */
export const ASSET_PAGES = {
  'asset-list': () => import('./asset-list-page.tsx').then((m) => ({ Component: m.AssetListPage })),
  'asset-wizard': () => import('./asset-wizard-page.tsx').then((m) => ({ Component: m.AssetWizardPage })),
  'asset-overview': () =>
    import('./asset-overview-page.tsx').then((m) => ({ Component: m.AssetOverviewPage })),
  'asset-documents': () =>
    import('./asset-documents-page.tsx').then((m) => ({ Component: m.AssetDocumentsPage })),
  'asset-certificate': () =>
    import('./asset-certificate-page.tsx').then((m) => ({ Component: m.AssetCertificatePage })),
  'asset-projects': () =>
    import('./asset-projects-page.tsx').then((m) => ({ Component: m.AssetProjectsPage })),
  'asset-project-create': () =>
    import('./asset-projects-page.tsx').then((m) => ({ Component: m.AssetProjectCreatePage })),
  'asset-project-edit': () =>
    import('./asset-projects-page.tsx').then((m) => ({ Component: m.AssetProjectEditPage })),
  'asset-project': () => import('./asset-project-page.tsx').then((m) => ({ Component: m.AssetProjectPage })),
  'asset-recommendations': () =>
    import('./asset-recommendations-page.tsx').then((m) => ({ Component: m.AssetRecommendationsPage })),
  'asset-risks': () => import('./asset-risks-page.tsx').then((m) => ({ Component: m.AssetRisksPage })),
  'asset-tenants': () => import('./asset-tenants-page.tsx').then((m) => ({ Component: m.AssetTenantsPage })),
  'asset-manage': () => import('./asset-manage-page.tsx').then((m) => ({ Component: m.AssetManagePage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type AssetPageKey = keyof typeof ASSET_PAGES;
