// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { ConnectorPageKey } from './pages.ts';

export const CONNECTOR_PAGE_OF: Readonly<Record<string, ConnectorPageKey>> = {
  '/connectors/dashboard': 'connectors-dashboard',
  '/connectors/runs': 'connectors-runs',
  '/connectors/manage': 'connectors-manage',
};
