import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/core/lib/ids.ts';
import type { HttpRoute } from '../../shared/system/routes.ts';
import type { AccessFixture, DemoWorld } from './access-support.ts';
import { areaReads, oneSiteMember, seedDemoWorld, startAccessFixture, walkReads } from './access-support.ts';

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

    const token = await oneSiteMember(fx, companyId, site, {
      email: 'one-site-areas@demo.test',
      permissions: ['asset_user'],
    });

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

    const reads = await areaReads(AREAS_WALKED);
    expect(reads.length).toBeGreaterThan(60);

    const { leaks, answered, seen } = await walkReads(fx, token, reads, {
      aimAt,
      alsoAt: (route) => {
        const base = aimAt(route, 'granted');
        return AIMING_QUERIES.map((name) => `${base}?${name}=${queryAim(name)}`);
      },
      mustSee: Object.values(granted),
      leaksIn: (path, res, text) => {
        // A refusal may name what it was asked for; an answer may name nothing out of reach.
        const asked = (id: string) => res.status !== 200 && path.includes(id);
        return [
          ...[...outOfReach].filter((id) => text.includes(id) && !asked(id)).map((id) => `${path}: ${id}`),
          ...hiddenNames.filter((name) => text.includes(name)).map((name) => `${path}: ${name}`),
        ];
      },
    });
    console.log(
      `${reads.length} reads walked; answers by status: ${JSON.stringify(Object.fromEntries(answered))}`,
    );
    expect(leaks).toEqual([]);
    // The walk read the granted site's own items: the caller was not simply refused everything.
    expect([...seen].sort()).toEqual(expect.arrayContaining([site, mine.thread, mine.target]));
    expect(answered.get(200) ?? 0).toBeGreaterThan(30);
  });
});
