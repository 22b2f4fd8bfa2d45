import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * The analytics of sites rather than of months, worked by hand:
 *
 *   Aldgate  EPC certificate band B, 1000 m²; electricity 3100 kWh in January 2025 (100 a day), a
 *            renewable REGO-backed contract for 1 to 15 January: 1500 kWh backed
 *   Temple   EPC rating typed as 'C+', 500 ft² (46.5 m²); electricity 3100 kWh in January 2025, a
 *            renewable contract without REGOs for all of January: 3100 kWh renewable, none backed; a gas meter
 *   Hardman  no EPC (its rating typed as N/A), 200 m²
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
let aldgateOnly: string;
const site: Record<string, string> = {};
const meter: Record<string, string> = {};
let london: string;

const get = (path: string, token = owner) => api({ method: 'GET', path, token });
const JANUARY = 'startDate=2025-01-01&endDate=2025-01-31';

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  site.Aldgate = await created(api, owner, '/assets', {
    siteName: 'Aldgate',
    entityId,
    floorArea: 1000,
    epc: { certificateId: 'cert-1', kind: 'non-domestic', rating: 45, band: 'B' },
  });
  site.Temple = await created(api, owner, '/assets', {
    siteName: 'Temple',
    entityId,
    floorArea: 500,
    floorAreaUnit: 'ft2',
    epcRating: 'C+',
  });
  site.Hardman = await created(api, owner, '/assets', {
    siteName: 'Hardman',
    entityId,
    floorArea: 200,
    epcRating: 'N/A',
  });
  for (const name of ['Aldgate', 'Temple']) {
    meter[name] = await created(api, owner, '/accounts', { type: 'electricity', assetId: site[name] });
    await applyInvoiceContribution(
      w.demoId,
      meter[name] as string,
      site[name],
      `bill-${name}`,
      {
        month: '2025-01',
        utilityType: 'electricity',
        consumption: 3100,
        unit: 'kWh',
        cost: 620,
        emissionsKg: 548.7,
        factorVersion: 'DESNZ-2025',
      },
      1,
    );
  }
  await created(api, owner, '/accounts', { type: 'gas', assetId: site.Temple });
  await created(api, owner, `/accounts/${meter.Aldgate}/contracts`, {
    name: 'Green fixed',
    startDate: '2025-01-01',
    endDate: '2025-01-15',
    isRenewable: true,
    regoBacked: true,
  });
  await created(api, owner, `/accounts/${meter.Temple}/contracts`, {
    name: 'Green tariff',
    startDate: '2024-10-01',
    endDate: '2025-09-30',
    isRenewable: true,
  });
  london = await created(api, owner, '/asset-groups', {
    name: 'London',
    assetIds: [site.Aldgate, site.Temple],
  });
  aldgateOnly = await w.addUser('aldgate-only', ['asset_user'], {
    assets: { read: [site.Aldgate as string], write: [] },
  });
});

afterAll(async () => w?.stop());

describe('epc-ratings', () => {
  it("counts the company's sites and their floor area by EPC band", async () => {
    const res = await get('/analytics/v2/epc-ratings');
    expect(res.status).toBe(200);
    const ratings = res.body.ratings as { band: string; sites: number; floorAreaM2: number }[];
    expect(ratings.filter((r) => r.sites > 0)).toEqual([
      { band: 'B', sites: 1, floorAreaM2: 1000 },
      { band: 'C', sites: 1, floorAreaM2: 46.5 },
      { band: 'unrated', sites: 1, floorAreaM2: 200 },
    ]);
    expect(res.body.totals).toEqual({ sites: 3, rated: 2, floorAreaM2: 1246.5 });
  });

  it('counts only the sites a granted user may read', async () => {
    const res = await get('/analytics/v1/epc-ratings', aldgateOnly);
    expect(res.body.scope).toMatchObject({ restricted: true, sites: 1 });
    expect(res.body.totals).toEqual({ sites: 1, rated: 1, floorAreaM2: 1000 });
    expect((await get(`/analytics/v2/epc-ratings?assetId=${site.Temple}`, aldgateOnly)).status).toBe(404);
  });
});

describe('asset-contract-renewable', () => {
  it("gives each site's share of electricity under a renewable REGO-backed contract", async () => {
    const res = await get(`/analytics/v2/asset-contract-renewable?${JANUARY}`);
    expect(res.status).toBe(200);
    const assets = res.body.assets as { _id: string; siteName: string }[];
    expect(assets.find((a) => a._id === site.Aldgate)).toEqual({
      _id: site.Aldgate,
      siteName: 'Aldgate',
      electricityKwh: 3100,
      renewableKwh: 1500,
      regoBackedKwh: 1500,
      share: 0.4839,
    });
    expect(assets.find((a) => a._id === site.Temple)).toMatchObject({
      electricityKwh: 3100,
      renewableKwh: 3100,
      regoBackedKwh: 0,
      share: 0,
    });
    expect(assets.find((a) => a._id === site.Hardman)).toMatchObject({ electricityKwh: 0, share: 0 });
    expect(res.body.totals).toEqual({
      electricityKwh: 6200,
      renewableKwh: 4600,
      regoBackedKwh: 1500,
      share: 0.2419,
    });
  });

  it('leaves out the sites a granted user may not read', async () => {
    const res = await get(`/analytics/v2/asset-contract-renewable?${JANUARY}`, aldgateOnly);
    expect((res.body.assets as { _id: string }[]).map((a) => a._id)).toEqual([site.Aldgate]);
    expect(res.body.totals).toMatchObject({ electricityKwh: 3100, regoBackedKwh: 1500 });
  });
});

describe("a site's portfolios and a portfolio's utilities", () => {
  it("gives a site's portfolios their figures, hiding a portfolio with a site the caller may not read", async () => {
    const res = await get(`/assets/${site.Aldgate}/group-analytics?${JANUARY}`);
    expect(res.status).toBe(200);
    const data = res.body.data as { scope: { type: string; id: string }; totals: unknown }[];
    expect(data).toHaveLength(1);
    expect(data[0]?.scope).toMatchObject({ type: 'portfolio', id: london });
    expect(data[0]?.totals).toMatchObject({ utilities: { electricity: { consumption: 6200, cost: 1240 } } });
    const hidden = await get(`/assets/${site.Aldgate}/group-analytics?${JANUARY}`, aldgateOnly);
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toEqual([]);
    expect((await get(`/assets/${site.Temple}/group-analytics`, aldgateOnly)).status).toBe(404);
  });

  it("lists the utilities metered across a portfolio's sites", async () => {
    const res = await get(`/asset-groups/${london}/account-types`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: ['electricity', 'gas'], counts: { electricity: 2, gas: 1 }, total: 2 });
    expect((await get(`/asset-groups/${london}/account-types`, aldgateOnly)).status).toBe(404);
  });
});
