import type { PermissionName } from '../../access/permission-names.ts';
import type { AuthKind } from '../../access/route-rules.ts';
import { IMPORT_MAX_BODY_BYTES } from '../../constants.ts';
import { consumptionQuerySchema } from '../../schemas/account-queries.ts';
import { importFileQuery } from '../../schemas/import-file-query.ts';
import { accountListQuery, plainListQuery } from '../../schemas/list-queries.ts';
import { activeBillingQuerySchema, contractDownloadQuery, contractListQuery } from '../../schemas/queries.ts';
import { accountGetQuery } from '../../schemas/request-queries.ts';
import type { AreaDecl } from '../area.ts';
import { COMPANY_USER_ONLY } from '../permission-sets.ts';
import { ACCOUNTS_AREA_RESOURCES } from '../resources/accounts.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

/** Everyone who works with the portfolio; per-item grants narrow it to their accounts. */
const PORTFOLIO: readonly PermissionName[] = [
  'company_user',
  'company_user_full',
  'entity_user',
  'asset_user',
  'account_user',
];
/** Staff tools (active billing): admins only. */
const STAFF: readonly PermissionName[] = [];
// Machines (report rendering) read what a page shows; they never write.
const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const READ_ACCOUNT = { item: { type: 'accounts', param: 'id', access: 'read' } } as const;
const WRITE_ACCOUNT = { item: { type: 'accounts', param: 'id', access: 'write' } } as const;
const ACCOUNTS = { resource: 'accounts' } as const;
const STATUS_HISTORY = { resource: 'accounts', subResource: 'status-history' } as const;
const READINGS = { resource: 'readings' } as const;

const route = routesOf('accounts');

/**
 * Utility accounts (meters), their contracts, readings and consumption (02 §7 Accounts). Some replace the
 * generic calls of the same method and path (lists show the asset and the sub-meter flag, a parent
 * account must be in the same asset, the account's status follows its status history); those still
 * name their resource, so the generic layer does the reading and writing.
 */
const ACCOUNTS_AREA_ROUTES: readonly HttpRoute[] = [
  route('GET', '/accounts', 'accounts.list', PORTFOLIO, { ...ACCOUNTS, ...READS }),
  route('GET', '/accounts/search', 'accounts.search', PORTFOLIO, { ...ACCOUNTS, ...READS }),
  route('GET', '/accounts/{id}', 'accounts.get', PORTFOLIO, { ...ACCOUNTS, ...READS }),
  route('POST', '/accounts', 'accounts.create', PORTFOLIO, ACCOUNTS),
  route('PATCH', '/accounts/{id}', 'accounts.update', PORTFOLIO, ACCOUNTS),
  route('POST', '/accounts/from-wizard', 'accounts.fromWizard', PORTFOLIO, ACCOUNTS),
  // Imports of meters, and their rollbacks, need the import permission (01 §6: company users).
  route('POST', '/accounts/upload-csv', 'accounts.uploadCsv', COMPANY_USER_ONLY, {
    ...ACCOUNTS,
    maxBodyBytes: IMPORT_MAX_BODY_BYTES,
    query: importFileQuery,
  }),
  route('POST', '/accounts/import-rollback', 'accounts.importRollback', COMPANY_USER_ONLY, ACCOUNTS),
  route('POST', '/accounts/upload-contract-csv', 'accounts.uploadContractCsv', COMPANY_USER_ONLY, {
    ...ACCOUNTS,
    maxBodyBytes: IMPORT_MAX_BODY_BYTES,
    query: importFileQuery,
  }),
  route(
    'POST',
    '/accounts/contract-import-rollback',
    'accounts.contractImportRollback',
    COMPANY_USER_ONLY,
    ACCOUNTS,
  ),
  // The file is kept and queued for the imports worker; GET /imports/{id} follows it.
  route('POST', '/accounts/{id}/consumption-import', 'accounts.consumptionImport', COMPANY_USER_ONLY, {
    ...WRITE_ACCOUNT,
    maxBodyBytes: IMPORT_MAX_BODY_BYTES,
    query: importFileQuery,
  }),
  route('GET', '/accounts/tags', 'accounts.tags', PORTFOLIO, READS),
  route('GET', '/accounts/waste-categories', 'accounts.wasteCategories', PORTFOLIO, READS),
  route('GET', '/accounts/active-billing', 'accounts.activeBilling', STAFF),
  route('PUT', '/accounts/{id}/invalidate-cache', 'accounts.invalidateCache', PORTFOLIO, WRITE_ACCOUNT),
  route('GET', '/accounts/{id}/consumption', 'accounts.consumption', PORTFOLIO, {
    ...READ_ACCOUNT,
    ...READS,
  }),
  route('GET', '/accounts/{id}/consumption-old', 'accounts.consumptionOld', PORTFOLIO, {
    ...READ_ACCOUNT,
    ...READS,
  }),
  route('POST', '/accounts/{id}/status-history', 'accounts.statusHistory.create', PORTFOLIO, STATUS_HISTORY),
  route(
    'PATCH',
    '/accounts/{id}/status-history/{subId}',
    'accounts.statusHistory.update',
    PORTFOLIO,
    STATUS_HISTORY,
  ),
  route(
    'DELETE',
    '/accounts/{id}/status-history/{subId}',
    'accounts.statusHistory.delete',
    PORTFOLIO,
    STATUS_HISTORY,
  ),

  route('GET', '/accounts/{id}/contracts', 'contracts.list', PORTFOLIO, { ...READ_ACCOUNT, ...READS }),
  route('POST', '/accounts/{id}/contracts', 'contracts.create', PORTFOLIO, WRITE_ACCOUNT),
  route('POST', '/accounts/{id}/contracts/upload', 'contracts.upload', PORTFOLIO, WRITE_ACCOUNT),
  route('GET', '/accounts/{id}/contracts/{contractId}', 'contracts.get', PORTFOLIO, READ_ACCOUNT),
  route('PATCH', '/accounts/{id}/contracts/{contractId}', 'contracts.update', PORTFOLIO, WRITE_ACCOUNT),
  route('DELETE', '/accounts/{id}/contracts/{contractId}', 'contracts.delete', PORTFOLIO, WRITE_ACCOUNT),
  route(
    'GET',
    '/accounts/{id}/contracts/{contractId}/download',
    'contracts.download',
    PORTFOLIO,
    READ_ACCOUNT,
  ),
  route(
    'PATCH',
    '/accounts/{id}/contracts/{contractId}/toggle-status',
    'contracts.toggleStatus',
    PORTFOLIO,
    WRITE_ACCOUNT,
  ),
  route(
    'POST',
    '/accounts/{id}/contracts/{contractId}/rate-types',
    'contracts.rateTypes',
    PORTFOLIO,
    WRITE_ACCOUNT,
  ),

  route('GET', '/readings', 'readings.list', PORTFOLIO, { ...READINGS, ...READS }),
  route('GET', '/readings/{id}', 'readings.get', PORTFOLIO, { ...READINGS, ...READS }),
  route('POST', '/readings/submit', 'readings.submit', PORTFOLIO, READINGS),
  route('POST', '/readings/photo', 'readings.photoUpload', PORTFOLIO, READINGS),
  route('PUT', '/readings/{id}/edit-submission', 'readings.editSubmission', PORTFOLIO, READINGS),
  route('GET', '/readings/{id}/photo', 'readings.photo', PORTFOLIO, READINGS),
];

/** Meters (utility accounts), their contracts, readings, monthly figures and roll-ups. */
export const ACCOUNTS_AREA: AreaDecl = {
  name: 'accounts',
  resources: ACCOUNTS_AREA_RESOURCES,
  routes: withQueries([...ACCOUNTS_AREA_ROUTES], {
    'GET /accounts': accountListQuery,
    'GET /accounts/search': accountListQuery,
    'GET /accounts/{id}': accountGetQuery,
    'GET /accounts/{id}/consumption': consumptionQuerySchema,
    'GET /accounts/{id}/consumption-old': consumptionQuerySchema,
    'GET /readings': plainListQuery,
    'GET /accounts/active-billing': activeBillingQuerySchema,
    'GET /accounts/{id}/contracts': contractListQuery,
    'GET /accounts/{id}/contracts/{contractId}/download': contractDownloadQuery,
  }),
};
