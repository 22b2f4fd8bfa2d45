import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_BODY_BYTES } from '../../shared/constants.ts';
import { importFileQuery } from '../../shared/schemas/import-file-query.ts';
import { searchQuerySchema } from '../../shared/schemas/register.ts';
import { declaredResource } from '../../shared/system/resources.ts';
import { routesOf } from '../../shared/system/route-builder.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';

/** The one declared route with this method and path; a missing one fails the test that asked. */
function declaredRoute(method: HttpRoute['method'], path: string): HttpRoute {
  const found = HTTP_ROUTES.filter((r) => r.method === method && r.path === path);
  if (found.length !== 1) throw new Error(`${found.length} routes declared for ${method} ${path}`);
  return found[0] as HttpRoute;
}

describe('the route builder of the API areas', () => {
  it('names the function and keeps every rule given', () => {
    expect(routesOf('util')('GET', '/util/x', 'x.get', '*', { auth: ['user', 'machine'] })).toEqual({
      method: 'GET',
      path: '/util/x',
      fn: 'util',
      op: 'x.get',
      permission: '*',
      auth: ['user', 'machine'],
    });
  });

  it('refuses a resource that is not declared, so no route is left without its permission', () => {
    expect(() => declaredResource('no-such-resource')).toThrow(
      'The no-such-resource resource is not declared',
    );
    expect(declaredResource('suppliers').name).toBe('suppliers');
  });

  it("serves each area's calls from that area's function, with the area's permissions", () => {
    const assets = declaredResource('assets');
    const suppliers = declaredResource('suppliers');
    expect(declaredRoute('POST', '/assets/import')).toEqual({
      method: 'POST',
      path: '/assets/import',
      fn: 'assets',
      op: 'assets.import',
      permission: declaredResource('imports').write,
      maxBodyBytes: IMPORT_MAX_BODY_BYTES,
      query: importFileQuery,
    });
    expect(declaredRoute('GET', '/util/search')).toEqual({
      method: 'GET',
      path: '/util/search',
      fn: 'util',
      op: 'search.util',
      permission: assets.read,
      query: searchQuerySchema,
    });
    expect(declaredRoute('PUT', '/suppliers/{id}/logo')).toEqual({
      method: 'PUT',
      path: '/suppliers/{id}/logo',
      fn: 'templates',
      op: 'suppliers.putLogo',
      permission: suppliers.write,
      resource: 'suppliers',
    });
    expect(declaredRoute('POST', '/client-errors')).toEqual({
      method: 'POST',
      path: '/client-errors',
      fn: 'session',
      op: 'clientErrors.report',
      permission: '*',
      sessionOnly: true,
      profile: true,
    });
    expect(declaredRoute('GET', '/users/me/asset-groups')).toMatchObject({ fn: 'session', permission: '*' });
    expect(declaredRoute('PUT', '/templates/{id}/bounds')).toMatchObject({
      fn: 'templates',
      permission: [],
      resource: 'templates',
    });
    expect(declaredRoute('GET', '/countries')).toMatchObject({
      fn: 'util',
      op: 'countries.list',
      resource: 'countries',
      auth: ['user', 'machine'],
    });
  });
});
