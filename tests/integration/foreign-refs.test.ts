import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccessFixture,
  type DemoUser,
  type DemoWorld,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

/**
 * A record of one company cannot point at another company's items: ids of Northwind's site, meter,
 * dashboard or template in a Demo record are refused as ids of nothing, whatever call writes them.
 */

let fx: AccessFixture;
let world: DemoWorld;
let owner: DemoUser;

beforeAll(async () => {
  fx = await startAccessFixture();
  world = await seedDemoWorld(fx);
  owner = world.user('owner@demo.test');
});
afterAll(async () => fx?.stop());

const call = (method: string, path: string, body: unknown) =>
  fx.api({ method, path, body, token: owner.token });

/** Demo's and Northwind's item of a resource. */
const both = (name: string) => {
  const pick = (c: DemoWorld['demo']) =>
    name === 'assets' || name === 'accounts' || name === 'entities'
      ? c.probeItems[name]
      : (c.probes.get(name) as string);
  return { mine: pick(world.demo), theirs: pick(world.northwind) };
};

describe("another company's ids in a record", () => {
  const cases: [string, string, (ref: string) => Record<string, unknown>][] = [
    ['accounts', 'assetId', (assetId) => ({ type: 'electricity', assetId, name: 'Cross meter' })],
    ['projects', 'assetId', (assetId) => ({ name: 'Cross project', assetId })],
    ['readings', 'accountId', (accountId) => ({ accountId, date: '2026-01-01', value: 5 })],
    ['widgets', 'dashboardId', (dashboardId) => ({ dashboardId, settings: { type: 'total' } })],
    [
      'scheduled-reports',
      'reportTemplateId',
      (reportTemplateId) => ({ reportTemplateId, recipients: ['a@demo.test'], frequency: 'monthly' }),
    ],
  ];

  it.each(cases)(
    'refuses a new %s whose %s is of another company, and takes its own',
    async (name, field, body) => {
      const target =
        field === 'assetId' ? 'assets' : field === 'accountId' ? 'accounts' : field.replace(/Id$/, '');
      const ref = both(
        {
          assets: 'assets',
          accounts: 'accounts',
          dashboard: 'dashboards',
          reportTemplate: 'report-templates',
        }[target] ?? target,
      );
      const refused = await call('POST', `/${name}`, body(ref.theirs));
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.formMessages).toEqual({ [field]: expect.stringMatching(/^No such .* was found$/) });
      const taken = await call('POST', `/${name}`, body(ref.mine));
      expect(taken.status, JSON.stringify(taken.body)).toBe(201);

      // Nor can an item be moved there, one at a time or in a bulk create.
      const moved = await call('PATCH', `/${name}/${taken.body._id}`, { [field]: ref.theirs });
      expect(moved.status).toBe(400);
      expect(moved.body.formMessages).toHaveProperty(field);
    },
  );

  it('names the entry of a bulk create that points elsewhere', async () => {
    const dashboards = both('dashboards');
    const res = await call('POST', '/widgets/bulk', [
      { dashboardId: dashboards.mine, settings: { type: 'total' } },
      { dashboardId: dashboards.theirs, settings: { type: 'total' } },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({ '1.dashboardId': 'No such dashboard was found' });
  });

  it("refuses a group of sites, or sites added to one, naming another company's site", async () => {
    const sites = both('assets');
    const refused = await call('POST', '/asset-groups', { name: 'Cross group', assetIds: [sites.theirs] });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.formMessages).toHaveProperty('assetIds');
    const group = await call('POST', '/asset-groups', { name: 'Own group', assetIds: [sites.mine] });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const added = await call(
      'PUT',
      `/asset-groups/${group.body._id}/assets/${sites.mine},${sites.theirs}`,
      {},
    );
    expect(added.status).toBe(400);
    expect(added.body.formMessages).toHaveProperty('assetIds');
    const one = await call('PUT', `/asset-groups/${group.body._id}/asset/${sites.theirs}`, {});
    expect(one.status).toBe(404);
    const kept = await call('GET', `/asset-groups/${group.body._id}/assets`, undefined);
    expect((kept.body.data as { _id: string }[]).map((a) => a._id)).toEqual([sites.mine]);
  });

  it("refuses grants naming another company's sites, meters or entities, for a user and a grant set", async () => {
    const sites = both('assets');
    const meters = both('accounts');
    const users = `/companies/${world.demo.companyId}/users`;
    const grants = (assets: string[], accounts: string[] = []) => ({
      assets: { read: assets, write: [] },
      accounts: { read: [], write: accounts },
    });
    const created = await call('POST', users, {
      email: 'cross-grants@demo.test',
      name: 'Cross grants',
      grants: grants([sites.mine, sites.theirs]),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.formMessages).toEqual({ 'grants.assets.read': 'No such site was found' });

    const member = world.user('user@demo.test');
    const changed = await call('PATCH', `${users}/${member.sub}`, { grants: grants([], [meters.theirs]) });
    expect(changed.status, JSON.stringify(changed.body)).toBe(400);
    expect(changed.body.formMessages).toEqual({ 'grants.accounts.write': 'No such meter was found' });

    const set = await call('POST', '/permissions', { name: 'Cross set', grants: grants([sites.theirs]) });
    expect(set.status, JSON.stringify(set.body)).toBe(400);
    expect(set.body.formMessages).toEqual({ 'grants.assets.read': 'No such site was found' });
    const own = await call('POST', '/permissions', { name: 'Own set', grants: grants([sites.mine]) });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
  });

  it('refuses a validation given to a user of another company', async () => {
    const theirs = world.user('owner@northwind.test').sub;
    const validation = world.demo.probes.get('invoice-validation') as string;
    const patched = await call('PATCH', `/invoice-validation/${validation}`, { assignedUserId: theirs });
    expect(patched.status, JSON.stringify(patched.body)).toBe(400);
    expect(patched.body.formMessages).toEqual({ assignedUserId: 'No such user was found' });
    const bulk = await call('POST', '/invoice-validation/assign-users', {
      ids: [validation],
      userSub: theirs,
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(400);
    expect(bulk.body.formMessages).toEqual({ userSub: 'No such user was found' });
    const mine = await call('PATCH', `/invoice-validation/${validation}`, { assignedUserId: owner.sub });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
  });

  it('refuses an id of nothing the same way', async () => {
    const res = await call('POST', '/projects', { name: 'Nowhere', assetId: 'ffffffffffff0000ffffffff' });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({ assetId: 'No such site was found' });
  });
});
