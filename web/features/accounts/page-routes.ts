// The shell reads which page serves a route from here; the pages' loaders stay in pages.ts, fetched on first use.
import type { AccountPageKey } from './pages.ts';

/** Which sub-page of /assets/{id}/accounts/{accountId} each account page serves. */
export const ACCOUNT_SUB_PAGES: Readonly<Record<string, AccountPageKey>> = {
  overview: 'account-overview',
  consumption: 'account-consumption',
  contracts: 'account-contracts',
  'data-quality': 'account-data-quality',
  readings: 'account-readings',
  edit: 'account-edit',
};
