import {
  activityQuerySchema,
  assetFinderQuerySchema,
  emailDownloadQuery,
  liveConnectionsQuerySchema,
  siteQuery,
  staffEmailsQuerySchema,
} from '../../schemas/staff-admin-queries.ts';
import type { AreaDecl } from '../area.ts';
import { STAFF_TOOLS_AREA_RESOURCES } from '../resources/staff-tools.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

/** An empty permission list admits staff (admins) only. */
const STAFF: readonly never[] = [];
const route = routesOf('util');

/** The staff admin pages: counts, product settings, activity log and e-mails across companies, live connections. */
const STAFF_ADMIN_ROUTES: readonly HttpRoute[] = [
  route('GET', '/util/admin-overview', 'admin.overview', STAFF),
  route('GET', '/util/product-settings', 'admin.settings', STAFF),
  route('PUT', '/util/product-settings', 'admin.saveSettings', STAFF),
  route('GET', '/util/activity', 'admin.activity', STAFF),
  route('GET', '/util/emails', 'admin.emails', STAFF),
  route('GET', '/util/emails/{id}/attachments/{attachmentId}/download', 'admin.emailDownload', STAFF),
  route('GET', '/util/live-connections', 'admin.liveConnections', STAFF),
  route('POST', '/util/live-connections/broadcast', 'admin.broadcast', STAFF),
  route('GET', '/util/asset-finder', 'admin.findAssets', STAFF),
  route('GET', '/util/asset-finder/{id}', 'admin.siteView', STAFF),
];

/** Staff pages: e-mails sent and received, and the staff admin. */
export const STAFF_TOOLS_AREA: AreaDecl = {
  name: 'staff-tools',
  resources: STAFF_TOOLS_AREA_RESOURCES,
  routes: withQueries([...STAFF_ADMIN_ROUTES], {
    'GET /util/activity': activityQuerySchema,
    'GET /util/emails': staffEmailsQuerySchema,
    'GET /util/emails/{id}/attachments/{attachmentId}/download': emailDownloadQuery,
    'GET /util/live-connections': liveConnectionsQuerySchema,
    'GET /util/asset-finder': assetFinderQuerySchema,
    'GET /util/asset-finder/{id}': siteQuery,
  }),
};
