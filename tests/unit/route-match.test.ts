import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../shared/system/route-match.ts';
import { HTTP_ROUTES, routePrefixes } from '../../shared/system/routes.ts';

const table = new RouteTable(HTTP_ROUTES);

describe('the API route table', () => {
  it('prefers a literal segment over a parameter', () => {
    expect(table.match('GET', '/assets/schema')?.route.op).toBe('generic.schema');
    expect(table.match('GET', '/assets/search')?.route.op).toBe('generic.search');
    expect(table.match('GET', '/users/me')?.route.op).toBe('me');
    const byId = table.match('GET', '/assets/0123456789abcdef01234567');
    // The register's own GET /assets/{id} (signed picture URLs) replaces the generic one.
    expect(byId?.route.op).toBe('assets.get');
    expect(byId?.params).toEqual({ id: '0123456789abcdef01234567' });
  });

  it('matches nested resources and sub-resources with their parameters', () => {
    expect(table.match('GET', '/marketplace/carbon/abc')?.route).toMatchObject({
      resource: 'marketplace/carbon',
    });
    const sub = table.match('PATCH', '/assets/a1/timeline-events/e9');
    expect(sub?.route.op).toBe('generic.sub.update');
    expect(sub?.params).toEqual({ id: 'a1', subId: 'e9' });
  });

  it('finds nothing for an undeclared path or method', () => {
    expect(table.match('GET', '/nothing-here')).toBeUndefined();
    expect(table.match('POST', '/users/me')).toBeUndefined();
  });

  it('decodes parameters', () => {
    expect(table.match('PUT', '/users/a%7Cb/company-id')?.params).toEqual({ userSub: 'a|b' });
  });

  it('gives every path prefix to exactly one function', () => {
    const prefixes = routePrefixes();
    expect(prefixes.get('assets')).toBe('assets');
    expect(prefixes.get('users')).toBe('session');
    expect(prefixes.get('marketplace')).toBe('collaboration');
    expect(() =>
      routePrefixes([
        { method: 'GET', path: '/x', fn: 'assets', op: 'a', permission: '*' },
        { method: 'GET', path: '/x/y', fn: 'util', op: 'b', permission: '*' },
      ]),
    ).toThrow(/served by both/);
  });

  it('declares every generic call of the specification for each resource', () => {
    const generic = [
      'accounts',
      'assets',
      'asset-groups',
      'entities',
      'companies',
      'users',
      'roles',
      'permissions',
      'dashboards',
      'widgets',
      'automations',
      'automation-runs',
      'imports',
      'import-templates',
      'invoices',
      'invoice-validation',
      'templates',
      'suppliers',
      'scraper-runs',
      'kiosks',
      'logs',
      'emails',
      'messages',
      'projects',
      'readings',
      'reports',
      'report-templates',
      'scheduled-reports',
      'settings',
      'targets',
      'recommendations',
      'benchmarks',
      'countries',
      'notifications',
      'marketplace/carbon',
    ];
    for (const r of generic) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', ''],
        ['POST', '/bulk'],
        ['GET', '/schema'],
        ['GET', '/search'],
        ['GET', '/x1'],
        ['PATCH', '/x1'],
        ['DELETE', '/x1'],
        ['PUT', '/x1'],
      ] as const) {
        expect(table.match(method, `/${r}${suffix}`), `${method} /${r}${suffix}`).toBeDefined();
      }
    }
  });
});
