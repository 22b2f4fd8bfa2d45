import { IMPORT_MAX_BODY_BYTES } from '../../constants.ts';
import { importItemsQuery, importUploadQuery } from '../../imports/import-api.ts';
import { importFileQuery } from '../../schemas/import-file-query.ts';
import type { AreaDecl } from '../area.ts';
import type { QueueDecl, SubscriptionDecl } from '../functions.ts';
import { COMPANY_USER_ONLY } from '../permission-sets.ts';
import { IMPORTS_AREA_RESOURCES, LOGS_RESOURCE } from '../resources/imports.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const route = routesOf('automation');
const logRoute = routesOf('util');
const IMPORTS = { resource: 'imports' } as const;
/**
 * Company users import (01 §6). Each row is still checked against the caller's write access to its meter,
 * so a row for a meter outside the company is "no meter" whoever asks.
 */
const IMPORTERS = COMPANY_USER_ONLY;

/** Spreadsheet imports of consumption and half-hourly data (02 §7 Imports). */
const IMPORT_ROUTES: readonly HttpRoute[] = [
  route('GET', '/imports/upload-url', 'imports.uploadUrl', IMPORTERS, IMPORTS),
  route('GET', '/imports/{id}', 'imports.get', IMPORTERS, IMPORTS),
  route('GET', '/imports/{id}/info', 'imports.info', IMPORTERS, IMPORTS),
  route('POST', '/imports/{id}/mapping', 'imports.mapping', IMPORTERS, IMPORTS),
  route('POST', '/imports/{id}/preview', 'imports.preview', IMPORTERS, IMPORTS),
  route('POST', '/imports/{id}/import', 'imports.import', IMPORTERS, IMPORTS),
  route('POST', '/imports/{id}/rollback', 'imports.rollback', IMPORTERS, IMPORTS),
  route('GET', '/imports/{id}/items', 'imports.items', IMPORTERS, IMPORTS),
  route('GET', '/imports/{id}/failed-rows', 'imports.failedRows', IMPORTERS, IMPORTS),
  // The one-call import of monthly consumption, the file in the request: the wizard's steps at once.
  route('POST', '/consumptions/upload', 'imports.consumptionUpload', IMPORTERS, {
    ...IMPORTS,
    maxBodyBytes: IMPORT_MAX_BODY_BYTES,
    query: importFileQuery,
  }),
  // The generic writes, replaced: an import's status and counts change only through its own calls.
  route('POST', '/imports', 'imports.readOnly', COMPANY_USER_ONLY, IMPORTS),
  route('POST', '/imports/bulk', 'imports.readOnly', COMPANY_USER_ONLY, IMPORTS),
  route('PATCH', '/imports/{id}', 'imports.readOnlyOne', COMPANY_USER_ONLY, IMPORTS),
  route('PUT', '/imports/{id}', 'imports.readOnlyOne', COMPANY_USER_ONLY, IMPORTS),
];

/** The log's own calls (02 §7 Logs): an import's file, and the undo of a deletion. */
const LOG_ROUTES: readonly HttpRoute[] = [
  logRoute('GET', '/logs/{id}/attachment', 'logs.attachment', LOGS_RESOURCE.read, { resource: 'logs' }),
  // Bringing an item back is a write: company admins, whose own write access to the item is checked too.
  logRoute('POST', '/logs/{id}/delete-rollback', 'logs.deleteRollback', ['company_admin'], {
    resource: 'logs',
  }),
];

const IMPORT_QUEUES: readonly QueueDecl[] = [
  {
    name: 'imports',
    consumer: 'imports',
    batchSize: 1,
    // The worker extends the visibility while it works (see queue-function.ts).
    visibilityTimeoutSeconds: 900,
    maxReceiveCount: 3,
  },
];

const IMPORT_SUBSCRIPTIONS: readonly SubscriptionDecl[] = [
  // Files put with an import's upload URL: `imports/{companyId}/{importId}/{file}`.
  { bucket: 'uploads', prefix: 'imports/', queue: 'imports' },
];

/** Imports of files, their templates, and the log of what changed. */
export const IMPORTS_AREA: AreaDecl = {
  name: 'imports',
  resources: IMPORTS_AREA_RESOURCES,
  routes: withQueries([...IMPORT_ROUTES, ...LOG_ROUTES], {
    'GET /imports/upload-url': importUploadQuery,
    'GET /imports/{id}/items': importItemsQuery,
  }),
  queues: IMPORT_QUEUES,
  subscriptions: IMPORT_SUBSCRIPTIONS,
};
