import type { AreaDecl } from '../area.ts';
import { ADMIN_ONLY, BILLING } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';
import { routesOf } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

export const EMAILS_RESOURCE: ResourceDecl = {
  name: 'emails',
  fn: 'util',
  scope: 'company',
  read: BILLING,
  write: ADMIN_ONLY,
  searchFields: ['from', 'subject'],
};

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
  resources: [EMAILS_RESOURCE],
  routes: [...STAFF_ADMIN_ROUTES],
};
