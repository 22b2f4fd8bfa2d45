import type { PermissionName, RoutePermission } from '../../access/permission-names.ts';
import { screensQuerySchema } from '../../schemas/staff-admin-queries.ts';
import type { AreaDecl } from '../area.ts';
import { KIOSK_AREA_RESOURCES } from '../resources/kiosk.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const COMPANY_ADMIN: readonly PermissionName[] = ['company_admin'];
const STAFF: RoutePermission = [];
const route = routesOf('util');

/** Kiosks (02 §7): made and re-keyed by company admins; their screens call with the kiosk's own key. */
const KIOSK_ROUTES: readonly HttpRoute[] = [
  route('POST', '/kiosks', 'kiosks.create', COMPANY_ADMIN),
  route('POST', '/kiosks/{id}/rotate-secret', 'kiosks.rotate', COMPANY_ADMIN),
  route('GET', '/kiosks/{id}/preview', 'kiosks.preview', COMPANY_ADMIN, { auth: ['user', 'kiosk'] }),
  route('GET', '/kiosks/live', 'kiosks.live', STAFF, { auth: ['kiosk'] }),
  route('GET', '/kiosks/live/consumption', 'kiosks.liveConsumption', STAFF, { auth: ['kiosk'] }),
  route('GET', '/kiosks/live/news', 'kiosks.liveNews', STAFF, { auth: ['kiosk'] }),
  route('GET', '/kiosks/optisigns/screens', 'kiosks.screens', COMPANY_ADMIN),
  route('POST', '/kiosks/optisigns/screens', 'kiosks.pairScreen', COMPANY_ADMIN),
  route('DELETE', '/kiosks/optisigns/screens/{deviceId}', 'kiosks.unpairScreen', COMPANY_ADMIN),
];

/** Kiosk displays. */
export const KIOSK_AREA: AreaDecl = {
  name: 'kiosk',
  resources: KIOSK_AREA_RESOURCES,
  routes: withQueries([...KIOSK_ROUTES], {
    'GET /kiosks/optisigns/screens': screensQuerySchema,
  }),
};
