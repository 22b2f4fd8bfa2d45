import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findResource } from '../../shared/system/resources.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';
import {
  type AccessFixture,
  type DemoUser,
  type DemoWorld,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

/**
 * Names a caller writes in a query (a sort field, a filter's field) are looked up in what the route offers:
 * the names every object inherits are names of nothing, refused as the caller's mistake, never a 500.
 */

const INHERITED = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', 'isPrototypeOf'];

let fx: AccessFixture;
let world: DemoWorld;
let admin: DemoUser;

beforeAll(async () => {
  fx = await startAccessFixture();
  world = await seedDemoWorld(fx);
  admin = world.user('admin@voltfolio.test');
});
afterAll(async () => fx?.stop());

/** The demo company's real item for each path parameter, so the query reaches the operation. */
function pathFor(route: HttpRoute): string {
  const company = world.demo;
  return route.path.replace(/\{(\w+)\}/g, (_m, param: string) => {
    const resource = route.resource ? findResource(route.resource) : undefined;
    if (route.companyParam === param) return company.companyId;
    if (route.item?.param === param)
      return route.item.resource
        ? (company.probes.get(route.item.resource) ?? company.probeItems[route.item.type])
        : company.probeItems[route.item.type];
    if (param === 'assetId') return company.probeItems.assets;
    if (param === 'accountId') return company.probeItems.accounts;
    if (param === 'entityId') return company.probeItems.entities;
    if (param === 'userSub') return admin.sub;
    if (param === 'id' && resource?.itemType) return company.probeItems[resource.itemType];
    if (param === 'id' && resource) return company.probes.get(resource.name) ?? company.companyId;
    return company.companyId;
  });
}

describe('inherited names in a query', () => {
  it('answers a sort or filter by an inherited name below 500 on every GET route', {
    timeout: 120_000,
  }, async () => {
    const wrong: string[] = [];
    const routes = HTTP_ROUTES.filter((r) => r.method === 'GET' && (r.auth ?? ['user']).includes('user'));
    for (const route of routes) {
      const queries = [
        ...INHERITED.map((n) => `$sort=${n}`),
        ...INHERITED.map((n) => `$sort=-${n}`),
        INHERITED.map((n) => `${n}=1`).join('&'),
        INHERITED.map((n) => `$sort[${n}]=1`).join('&'),
      ];
      for (const query of queries) {
        const res = await fx.api({ method: 'GET', path: `${pathFor(route)}?${query}`, token: admin.token });
        if (res.status >= 500) wrong.push(`${route.path}?${query}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('1');
  });

  it('refuses a sort by a field the list does not offer, saying which it does', async () => {
    for (const name of ['__proto__', 'hasOwnProperty', 'constructor', 'nope']) {
      const res = await fx.api({ method: 'GET', path: `/assets?$sort=${name}`, token: admin.token });
      expect(res.status, name).toBe(400);
      expect(String(res.body.message)).toMatch(/siteName/);
    }
  });

  it('refuses a filter on a field the resource does not have', async () => {
    for (const name of ['constructor', 'hasOwnProperty', '__proto__']) {
      const res = await fx.api({ method: 'GET', path: `/entities?${name}=1`, token: admin.token });
      expect(res.status, name).toBe(400);
      expect(String(res.body.message)).toMatch(/filter/i);
    }
  });
});
