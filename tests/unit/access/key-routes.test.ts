import { describe, expect, it } from 'vitest';
import { KEY_ROUTE_PERMISSIONS, keyAreasOf, samePermission } from '../../../shared/access/key-routes.ts';
import { HTTP_ROUTES } from '../../../shared/system/routes.ts';

describe('the key route table of 01 §6', () => {
  it('holds the permissions the specification lists', () => {
    expect(KEY_ROUTE_PERMISSIONS).toEqual({
      companyPages: ['company_admin'],
      companyUsersList: ['company_owner', 'company_user', 'company_user_full'],
      admin: [],
      suppliers: [],
      // Widened from the specification's admin only: targets are set on the scopes people may read.
      targets: ['company_user', 'company_user_full', 'entity_user', 'asset_user', 'account_user'],
      imports: ['company_user'],
      marketplace: ['company_user'],
      entityImport: ['company_user'],
      connectors: ['company_admin'],
      automation: ['company_admin', 'view_integrations'],
      companyLog: ['company_admin', 'company_log'],
      invoiceUpload: ['company_admin', 'bill_validation'],
    });
  });

  it('is what every declared API call of each area asks for', () => {
    const mismatches = HTTP_ROUTES.flatMap((route) =>
      keyAreasOf(route)
        .filter((area) => !samePermission(route.permission, KEY_ROUTE_PERMISSIONS[area]))
        .map((area) => `${route.method} ${route.path}: ${JSON.stringify(route.permission)} is not ${area}`),
    );
    expect(mismatches).toEqual([]);
  });

  it('finds declared calls for the areas the API serves', () => {
    const covered = new Set(HTTP_ROUTES.flatMap((r) => keyAreasOf(r)));
    for (const area of [
      'companyPages',
      'companyUsersList',
      'admin',
      'suppliers',
      'targets',
      'imports',
      'marketplace',
      'connectors',
      'automation',
      'companyLog',
    ] as const) {
      expect(covered.has(area), area).toBe(true);
    }
  });

  it('tells areas apart by method and path', () => {
    expect(keyAreasOf({ method: 'GET', path: '/suppliers' })).toEqual([]);
    expect(keyAreasOf({ method: 'POST', path: '/suppliers' })).toEqual(['suppliers']);
    expect(keyAreasOf({ method: 'POST', path: '/invoices/captur-upload' })).toEqual(['invoiceUpload']);
    expect(keyAreasOf({ method: 'GET', path: '/companies/{id}/users' })).toEqual(['companyUsersList']);
    expect(keyAreasOf({ method: 'PATCH', path: '/companies/{id}/supplier-portals/{supplierId}' })).toEqual([
      'connectors',
    ]);
  });
});
