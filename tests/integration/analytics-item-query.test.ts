import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * The analytics of the site or portfolio in the path (GET /assets/{id}/analytics,
 * /asset-groups/{id}/analytics) and of a site's portfolios (GET /assets/{id}/group-analytics): their
 * query is checked on their routes, the path naming the site or portfolio and `id` the analytics.
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
let entityId: string;
let grouped: string;
let alone: string;
let portfolio: string;

const Q1 = 'startDate=2025-01-01&endDate=2025-03-31';
const get = (path: string) => api({ method: 'GET', path, token: owner });

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  const address = { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' };
  grouped = await created(api, owner, '/assets', { siteName: 'Aldgate', entityId, address });
  alone = await created(api, owner, '/assets', { siteName: 'Temple', entityId, address });
  portfolio = await created(api, owner, '/asset-groups', { name: 'City', assetIds: [grouped] });
  const accountId = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: grouped,
    name: 'Main',
  });
  await applyInvoiceContribution(
    w.demoId,
    accountId,
    grouped,
    newId(),
    {
      month: '2025-02',
      utilityType: 'electricity',
      consumption: 800,
      unit: 'kWh',
      cost: 200,
      emissionsKg: 165.6,
      factorVersion: 'DESNZ-2025',
    },
    1,
  );
});

afterAll(async () => w?.stop());

describe('the analytics of the site or portfolio in the path', () => {
  it("answers the path's site and portfolio as the analytics call asked for them does", async () => {
    const site = await get(`/assets/${grouped}/analytics?${Q1}`);
    expect(site.status).toBe(200);
    expect(site.body).toMatchObject({ totals: { utilities: { electricity: { consumption: 800 } } } });
    const asked = await get(`/analytics/v2/consumption?${Q1}&assetId=${grouped}`);
    expect(site.body).toEqual(asked.body);
    const group = await get(`/asset-groups/${portfolio}/analytics?${Q1}&id=asset-consumption`);
    expect(group.status).toBe(200);
    expect(group.body).toEqual(
      (await get(`/analytics/v2/asset-consumption?${Q1}&assetGroupId=${portfolio}`)).body,
    );
  });

  it('passes over a site or portfolio in the query: the path names it', async () => {
    const other = await get(`/assets/${grouped}/analytics?${Q1}&assetId=${alone}&assetGroupId=not-an-id`);
    expect(other.status).toBe(200);
    expect(other.body).toEqual((await get(`/assets/${grouped}/analytics?${Q1}`)).body);
  });

  it('refuses bad values beside their field', async () => {
    const cases: [string, Record<string, string>][] = [
      ['granularity=fortnightly', { granularity: expect.stringMatching(/^Must be one of halfhourly/) }],
      ['id=nope', { id: expect.stringMatching(/^Must be one of consumption/) }],
      [`entityId=${entityId}`, { assetGroupId: 'Choose one of a meter, a site, a portfolio or an entity' }],
    ];
    for (const [query, formMessages] of cases) {
      const res = await get(`/assets/${grouped}/analytics?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.formMessages, query).toEqual(formMessages);
    }
  });
});

describe("a site's portfolios", () => {
  it('answers each portfolio of the site, or the one asked for, as its own call does', async () => {
    const own = await get(`/asset-groups/${portfolio}/analytics?${Q1}`);
    const all = await get(`/assets/${grouped}/group-analytics?${Q1}&id=epc-ratings`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ assetId: grouped, data: [own.body] });
    const other = await get(`/assets/${grouped}/group-analytics?${Q1}&assetGroupId=${newId()}`);
    expect(other.body).toEqual({ assetId: grouped, data: [] });
  });

  it('refuses a bad value even for a site in no portfolio, rather than answering none', async () => {
    const res = await get(`/assets/${alone}/group-analytics?granularity=fortnightly`);
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      granularity: expect.stringMatching(/^Must be one of halfhourly/),
    });
  });
});
