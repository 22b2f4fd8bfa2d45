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

/** The lookups of 02 §7, served from the versioned lists in shared/data, and the countries list. */
export const LOOKUP_ROUTES: readonly HttpRoute[] = [
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
