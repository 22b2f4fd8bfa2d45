import type { AuthKind } from '../../access/route-rules.ts';
import { assetCertificatesQuery } from '../../schemas/asset-queries.ts';
import { countryListQuery } from '../../schemas/list-queries.ts';
import { logoSearchQuery } from '../../schemas/queries.ts';
import { gasMeterChoicesQuerySchema, gridfetchUsageQuerySchema } from '../../schemas/util-staff-queries.ts';
import type { AreaDecl } from '../area.ts';
import { ASSETS_RESOURCE } from '../resources/assets.ts';
import { COUNTRIES_RESOURCE, LOOKUPS_AREA_RESOURCES } from '../resources/lookups.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const countries = COUNTRIES_RESOURCE;
const assets = ASSETS_RESOURCE;

// Reference lists: machines (report rendering) may read them too.
const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const route = routesOf('util');
const lookup = (path: string, op: string): HttpRoute => route('GET', path, op, '*', READS);

/** Admin utilities (02 §6: their roles are not shown): staff only, as a route with no permission is. */
const STAFF: HttpRoute['permission'] = [];

/** The util calls of 02 §7 beyond the lookups: staff tools, the portfolio's certificates, logo search. */
const UTILITY_ROUTES: readonly HttpRoute[] = [
  route('GET', '/util/gridfetch-usage', 'gridfetch.usage', STAFF),
  route('POST', '/util/gridfetch-loa', 'gridfetch.loa', STAFF),
  route('GET', '/util/global-stats', 'stats.global', STAFF),
  route('POST', '/util/gas-prediction-data', 'gas.prediction', STAFF),
  // The gas meters of a company that the prediction tool offers to choose from.
  route('GET', '/util/gas-prediction-accounts', 'gas.meterChoices', STAFF),
  // The EPC certificates of the sites the caller may read.
  route('GET', '/util/asset-certificates', 'assets.certificates', assets.read, READS),
  // A logo for the company (company settings) or a supplier (staff, who pass every route).
  route('GET', '/util/company-logo-search', 'lookups.companyLogoSearch', ['company_admin']),
];

/** The lookups of 02 §7, served from the versioned lists in shared/data, and the countries list. */
const LOOKUP_ROUTES: readonly HttpRoute[] = [
  ...UTILITY_ROUTES,
  lookup('/util/asset-types', 'lookups.assetTypes'),
  lookup('/util/utility-types', 'lookups.utilityTypes'),
  lookup('/util/units', 'lookups.units'),
  lookup('/util/granularities', 'lookups.granularities'),
  lookup('/util/energy-suppliers', 'lookups.energySuppliers'),
  lookup('/util/integrations', 'lookups.integrations'),
  lookup('/util/template-value-format', 'lookups.templateValueFormat'),
  route('GET', '/countries', 'countries.list', countries.read, { resource: 'countries', ...READS }),
  // Staff map of every company's sites.
  route('GET', '/util/global-assets', 'lookups.globalAssets', []),
];

/** The reference lists of 02 §7 and the staff utilities served beside them. */
export const LOOKUPS_AREA: AreaDecl = {
  name: 'lookups',
  resources: LOOKUPS_AREA_RESOURCES,
  routes: withQueries([...LOOKUP_ROUTES], {
    'GET /util/asset-certificates': assetCertificatesQuery,
    'GET /util/gridfetch-usage': gridfetchUsageQuerySchema,
    'GET /util/gas-prediction-accounts': gasMeterChoicesQuerySchema,
    'GET /util/company-logo-search': logoSearchQuery,
    'GET /countries': countryListQuery,
  }),
};
