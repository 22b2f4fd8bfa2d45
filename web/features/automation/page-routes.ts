// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { AutomationPageKey } from './pages.ts';

export const AUTOMATION_PAGE_OF: Readonly<Record<string, AutomationPageKey>> = {
  '/automation/manage': 'automation-manage',
  '/automation/runs': 'automation-runs',
};
