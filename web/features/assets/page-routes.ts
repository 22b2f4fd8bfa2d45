// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { AssetPageKey } from './pages.ts';

/** Which page serves each site route of the shell, by the route's name. */
const PAGE_OF_ROUTE: Readonly<Record<string, AssetPageKey>> = {
  'asset-list': 'asset-list',
  'asset-wizard': 'asset-wizard',
  'asset-overview': 'asset-overview',
  'asset-recommendations': 'asset-recommendations',
  'asset-risks': 'asset-risks',
  'asset-tenants': 'asset-tenants',
  'asset-manage': 'asset-manage',
  'asset-documents': 'asset-documents',
  'asset-documents-certificateId': 'asset-certificate',
  'asset-projects': 'asset-projects',
  'asset-projects-create': 'asset-project-create',
  'asset-projects-projectId': 'asset-project',
  'asset-projects-projectId-edit': 'asset-project-edit',
};

/** Gives a site route its page; routes of other areas keep theirs. */
export function withAssetPage<R extends { name: string; page: string }>(route: R): R {
  const page = PAGE_OF_ROUTE[route.name];
  return page ? ({ ...route, page } as R) : route;
}
