// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { EntityPageKey } from './pages.ts';

/** Which page serves each entity route path. */
export const ENTITY_PAGE_OF: Readonly<Record<string, EntityPageKey>> = {
  '/entities': 'entity-list',
  '/new-entity': 'entity-wizard',
  '/entities/import': 'entity-import',
  '/entities/:id/structure': 'entity-structure',
  '/entities/:id/edit': 'entity-edit',
};
