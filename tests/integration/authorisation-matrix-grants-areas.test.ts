import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/core/lib/ids.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';
import { type AccessFixture, type DemoWorld, seedDemoWorld, startAccessFixture } from './access-support.ts';

/**
 * Grants inside a company, in the areas built on top of sites and meters: a caller granted one site calls
 * every read of analytics, benchmarks, targets, imports, reports, automation, discussions, the marketplace
 * and kiosks, aimed at that site, at another, and with another site's ids in the query. No id or name of
 * another site, its meters or its items may come back.
 */

let fx: AccessFixture;
let world: DemoWorld;

beforeAll(async () => {
  fx = await startAccessFixture({ aws: true });
  world = await seedDemoWorld(fx);
});
afterAll(async () => fx?.stop());

const AREAS_WALKED = [
  'analytics',
  'benchmarks',
  'targets',
  'imports',
  'reports',
  'automation',
  'collaboration',
  'marketplace',
  'kiosk',
];

/** Query names through which a read may be pointed at a site, a meter or an entity. */
const AIMING_QUERIES = ['assetId', 'assetIds', 'accountId', 'accountIds', 'scopeId', 'entityId', 'siteId'];

describe('grants inside a company: a caller granted one site, in the later areas', () => {
  it('meets no site, meter or item of another site on any read', { timeout: 400_000 }, async () => {
    const { putItem, declaredRef } = await import('../../functions/core/data/item-repository.ts');
    const { putProfile } = await import('../../functions/core/access/user-repository.ts');
    const { AREAS } = await import('../../shared/system/areas.ts');
    const { genericRoutes } = await import('../../shared/system/routes.ts');
    const demo = world.demo;
    const companyId = demo.companyId;
    const owner = world.user('owner@demo.test').token;
    const now = new Date().toISOString();
    const sites = [...demo.assets.entries()];
    const siteOf = (id: string | undefined): string | undefined => {
      for (let at = id; at; at = world.parents.get(at)) if (sites.some(([, s]) => s === at)) return at;
      return undefined;
    };
    const probeSites = new Set([demo.probeItems.assets, siteOf(demo.probeItems.accounts)]);
    const [siteName, site] = sites.find(([, id]) => !probeSites.has(id)) as [string, string];
    const [hiddenName, hiddenSite] = sites.find(([, id]) => id === demo.probeItems.assets) as [
      string,
      string,
    ];
    expect(site).toBeDefined();
    const meterOn = (assetId: string) =>
      [...demo.accounts.values()].find((id) => world.parents.get(id) === assetId) ?? newId();
    const hiddenMeter = demo.probeItems.accounts;

    // The same items on both sites: a discussion, a target and a report.
    const year = new Date().getUTCFullYear();
    const itemsOn = async (assetId: string, label: string) => {
      const thread = await fx.api({
        method: 'POST',
        path: '/messages',
        token: owner,
        body: { subject: `${label} thread`, assetId },
      });
      expect(thread.status, JSON.stringify(thread.body)).toBe(201);
      const target = await fx.api({
        method: 'POST',
        path: '/targets',
        token: owner,
        body: {
          name: `${label} target`,
          scope: 'site',
          scopeId: assetId,
          measure: 'energy',
          baselineYear: year - 2,
          targetYear: year + 8,
          reductionPercent: 20,
        },
      });
      expect(target.status, JSON.stringify(target.body)).toBe(201);
      const report = newId();
      await putItem(declaredRef('reports', { companyId }), {
        _id: report,
        companyId,
        name: `${label} report`,
        reportType: 'energy',
        assetIds: [assetId],
        status: 'done',
        createdAt: now,
        updatedAt: now,
      });
      return { thread: String(thread.body._id), target: String(target.body._id), report };
    };
    const mine = await itemsOn(site, 'Granted');
    const theirs = await itemsOn(hiddenSite, 'Hidden');

    const sub = newId();
    await putItem(declaredRef('users', { companyId }), {
      _id: sub,
      companyId,
      email: 'one-site-areas@demo.test',
      name: 'One site',
      permissions: ['asset_user'],
      grants: {
        entities: { read: [], write: [] },
        assets: { read: [site], write: [] },
        accounts: { read: [], write: [] },
      },
      createdAt: now,
      updatedAt: now,
    });
    await putProfile({
      sub,
      email: 'one-site-areas@demo.test',
      name: 'One site',
      isAdmin: false,
      currentCompanyId: companyId,
      companyIds: [companyId],
    });
    const token = fx.fx.issuer.accessToken(sub);

    // Every site other than the granted one, its meters and the items made on it, by id and by name.
    const outOfReach = new Set<string>([...Object.values(theirs)]);
    for (const [, id] of sites) if (id !== site) outOfReach.add(id);
    for (const [, id] of demo.accounts) if (siteOf(id) !== site) outOfReach.add(id);
    const hiddenNames = [
      ...sites.filter(([, id]) => id !== site).map(([name]) => name),
      'Hidden thread',
      'Hidden target',
      'Hidden report',
    ];
    expect(hiddenNames).toContain(hiddenName);
    expect(hiddenNames).not.toContain(siteName);

    const granted: Record<string, string> = {
      assets: site,
      accounts: meterOn(site),
      messages: mine.thread,
      targets: mine.target,
      reports: mine.report,
    };
    const hidden: Record<string, string> = {
      assets: hiddenSite,
      accounts: hiddenMeter,
      messages: theirs.thread,
      targets: theirs.target,
      reports: theirs.report,
    };
    const kindOf = (route: HttpRoute, param: string): string | undefined => {
      if (route.item?.param === param) return route.item.resource ?? route.item.type;
      if (param === 'assetId') return 'assets';
      if (param === 'accountId') return 'accounts';
      if (param === 'id') return route.resource ?? route.path.split('/')[1];
      return undefined;
    };
    const aimAt = (route: HttpRoute, reach: 'granted' | 'hidden') =>
      route.path.replace(/\{(\w+)\}/g, (_m, param: string) => {
        const kind = kindOf(route, param);
        const id = kind ? (reach === 'granted' ? granted[kind] : hidden[kind]) : undefined;
        return encodeURIComponent(id ?? newId());
      });
    const queryAim = (name: string) =>
      name.startsWith('account') ? hiddenMeter : name === 'entityId' ? newId() : hiddenSite;

    const keyOf = (r: HttpRoute) => `${r.method} ${r.path}`;
    const areaRoutes = new Set(
      AREAS.filter((a) => AREAS_WALKED.includes(a.name)).flatMap((a) =>
        [...(a.routes ?? []), ...(a.resources ?? []).flatMap(genericRoutes)].map(keyOf),
      ),
    );
    const reads = HTTP_ROUTES.filter((r) => r.method === 'GET' && areaRoutes.has(keyOf(r)));
    expect(reads.length).toBeGreaterThan(60);

    const leaks: string[] = [];
    const answered = new Map<number, number>();
    const seen = new Set<string>();
    const check = async (path: string) => {
      const res = await fx.api({ method: 'GET', path, token });
      answered.set(res.status, (answered.get(res.status) ?? 0) + 1);
      if (res.status >= 500) leaks.push(`${path}: ${res.status}`);
      const text = `${JSON.stringify(res.body)} ${JSON.stringify(res.headers)}`;
      // A refusal may name what it was asked for; an answer may name nothing out of reach.
      const asked = (id: string) => res.status !== 200 && path.includes(id);
      for (const id of outOfReach) if (text.includes(id) && !asked(id)) leaks.push(`${path}: ${id}`);
      for (const name of hiddenNames) if (text.includes(name)) leaks.push(`${path}: ${name}`);
      if (res.status === 200) for (const id of Object.values(granted)) if (text.includes(id)) seen.add(id);
    };
    for (const route of reads) {
      const aims = route.path.includes('{') ? (['granted', 'hidden'] as const) : (['granted'] as const);
      for (const reach of aims) await check(aimAt(route, reach));
      const base = aimAt(route, 'granted');
      for (const name of AIMING_QUERIES) await check(`${base}?${name}=${queryAim(name)}`);
    }
    console.log(
      `${reads.length} reads walked; answers by status: ${JSON.stringify(Object.fromEntries(answered))}`,
    );
    expect(leaks).toEqual([]);
    // The walk read the granted site's own items: the caller was not simply refused everything.
    expect([...seen].sort()).toEqual(expect.arrayContaining([site, mine.thread, mine.target]));
    expect(answered.get(200) ?? 0).toBeGreaterThan(30);
  });
});
