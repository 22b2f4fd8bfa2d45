import type { AuthKind } from '../../access/route-rules.ts';
import { findResource } from '../resources.ts';
import type { HttpRoute } from '../routes.ts';

const countries = findResource('countries');
if (!countries) throw new Error('The countries resource is not declared');

// Reference lists: machines (report rendering) may read them too.
const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const lookup = (path: string, op: string): HttpRoute => ({
  method: 'GET',
  path,
  fn: 'util',
  op,
  permission: '*',
  ...READS,
});

const assets = findResource('assets');
if (!assets) throw new Error('The assets resource is not declared');
/** Admin utilities (02 §6: their roles are not shown): staff only, as a route with no permission is. */
const STAFF: HttpRoute['permission'] = [];

/** The util calls of 02 §7 beyond the lookups: staff tools, the portfolio's certificates, logo search. */
const UTILITY_ROUTES: readonly HttpRoute[] = [
  { method: 'GET', path: '/util/gridfetch-usage', fn: 'util', op: 'gridfetch.usage', permission: STAFF },
  { method: 'POST', path: '/util/gridfetch-loa', fn: 'util', op: 'gridfetch.loa', permission: STAFF },
  { method: 'GET', path: '/util/global-stats', fn: 'util', op: 'stats.global', permission: STAFF },
  { method: 'POST', path: '/util/gas-prediction-data', fn: 'util', op: 'gas.prediction', permission: STAFF },
  // The gas meters of a company that the prediction tool offers to choose from.
  {
    method: 'GET',
    path: '/util/gas-prediction-accounts',
    fn: 'util',
    op: 'gas.meterChoices',
    permission: STAFF,
  },
  // The EPC certificates of the sites the caller may read.
  {
    method: 'GET',
    path: '/util/asset-certificates',
    fn: 'util',
    op: 'assets.certificates',
    permission: assets.read,
    ...READS,
  },
  // A logo for the company (company settings) or a supplier (staff, who pass every route).
  {
    method: 'GET',
    path: '/util/company-logo-search',
    fn: 'util',
    op: 'lookups.companyLogoSearch',
    permission: ['company_admin'],
  },
];

/** The lookups of 02 §7, served from the versioned lists in shared/data, and the countries list. */
export const LOOKUP_ROUTES: readonly HttpRoute[] = [
  ...UTILITY_ROUTES,
  lookup('/util/asset-types', 'lookups.assetTypes'),
  lookup('/util/utility-types', 'lookups.utilityTypes'),
  lookup('/util/units', 'lookups.units'),
  lookup('/util/granularities', 'lookups.granularities'),
  lookup('/util/energy-suppliers', 'lookups.energySuppliers'),
  lookup('/util/integrations', 'lookups.integrations'),
  lookup('/util/template-value-format', 'lookups.templateValueFormat'),
  {
    method: 'GET',
    path: '/countries',
    fn: 'util',
    op: 'countries.list',
    permission: countries.read,
    resource: 'countries',
    ...READS,
  },
  // Staff map of every company's sites.
  { method: 'GET', path: '/util/global-assets', fn: 'util', op: 'lookups.globalAssets', permission: [] },
];
