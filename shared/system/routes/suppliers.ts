import type { AuthKind } from '../../access/route-rules.ts';
import type { HttpRoute } from '../routes.ts';
import { declaredResource, routesOf } from './route-builder.ts';

const suppliers = declaredResource('suppliers');

const READS = { auth: ['user', 'machine'] as readonly AuthKind[] };
const GENERIC = { resource: 'suppliers' } as const;
const route = routesOf('templates');

/**
 * Suppliers (02 §7): the generic list (`?type=distributor`) and get answer with a link to the logo;
 * the logo is uploaded and removed by staff.
 */
export const SUPPLIER_ROUTES: readonly HttpRoute[] = [
  route('GET', '/suppliers', 'suppliers.list', suppliers.read, { ...GENERIC, ...READS }),
  route('GET', '/suppliers/{id}', 'suppliers.get', suppliers.read, { ...GENERIC, ...READS }),
  route('PUT', '/suppliers/{id}/logo', 'suppliers.putLogo', suppliers.write, GENERIC),
  route('DELETE', '/suppliers/{id}/logo', 'suppliers.deleteLogo', suppliers.write, GENERIC),
];
