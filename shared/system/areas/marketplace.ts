import { carbonProjectsQuery } from '../../schemas/carbon-marketplace.ts';
import type { AreaDecl } from '../area.ts';
import { ADMIN_ONLY, COMPANY_USER_ONLY } from '../permission-sets.ts';
import { MARKETPLACE_AREA_RESOURCES, MARKETPLACE_CARBON_RESOURCE } from '../resources/marketplace.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const route = routesOf('collaboration');
// Staff read every company's interest from their own tools, which the util function serves.
const staffRoute = routesOf('util');
const RESOURCE = { resource: MARKETPLACE_CARBON_RESOURCE.name };

/** The catalogue (02 §7), kept by staff; company users browse it and register interest in a project. */
const MARKETPLACE_ROUTES: readonly HttpRoute[] = [
  route('GET', '/marketplace/carbon/project-types', 'marketplace.projectTypes', COMPANY_USER_ONLY),
  route('GET', '/marketplace/carbon', 'marketplace.list', COMPANY_USER_ONLY, RESOURCE),
  route('GET', '/marketplace/carbon/{id}', 'marketplace.get', COMPANY_USER_ONLY, RESOURCE),
  route('POST', '/marketplace/carbon/{id}/interest', 'marketplace.interest', COMPANY_USER_ONLY, RESOURCE),
  // Staff: what every company registered, to follow up.
  staffRoute('GET', '/util/marketplace-interests', 'marketplace.interests', ADMIN_ONLY),
];

/** The carbon marketplace. */
export const MARKETPLACE_AREA: AreaDecl = {
  name: 'marketplace',
  resources: MARKETPLACE_AREA_RESOURCES,
  routes: withQueries(MARKETPLACE_ROUTES, {
    'GET /marketplace/carbon': carbonProjectsQuery,
  }),
};
