import type { AuthKind } from '../../access/route-rules.ts';
import { findResource } from '../resources.ts';
import type { HttpRoute } from '../routes.ts';

const suppliers = findResource('suppliers');
if (!suppliers) throw new Error('The suppliers resource is not declared');

const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const GENERIC = { resource: 'suppliers' } as const;

/**
 * Suppliers (02 §7): the generic list (`?type=distributor`) and get answer with a link to the logo;
 * the logo is uploaded and removed by staff.
 */
export const SUPPLIER_ROUTES: readonly HttpRoute[] = [
  {
    method: 'GET',
    path: '/suppliers',
    fn: 'templates',
    op: 'suppliers.list',
    permission: suppliers.read,
    ...GENERIC,
    ...READS,
  },
  {
    method: 'GET',
    path: '/suppliers/{id}',
    fn: 'templates',
    op: 'suppliers.get',
    permission: suppliers.read,
    ...GENERIC,
    ...READS,
  },
  {
    method: 'PUT',
    path: '/suppliers/{id}/logo',
    fn: 'templates',
    op: 'suppliers.putLogo',
    permission: suppliers.write,
    ...GENERIC,
  },
  {
    method: 'DELETE',
    path: '/suppliers/{id}/logo',
    fn: 'templates',
    op: 'suppliers.deleteLogo',
    permission: suppliers.write,
    ...GENERIC,
  },
];
