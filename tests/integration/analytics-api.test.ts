import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToRollups, putAccountMonth } from '../../functions/accounts/consumption-repository.ts';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { updateRaw } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { defaultAnalyticsWindow } from '../../shared/analytics/index.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * Insights over bills written as the bill pipeline writes them (each into its account's month and its
 * site's and company's roll-ups), checked against figures worked by hand:
 *
 *   Aldgate electricity  2025-01 1000 kWh £250 207 kg; 2025-02 800 kWh £200 165.6 kg; 2024-02 900 kWh £180 180 kg
 *   Aldgate gas          2025-01 5000 kWh £400 915 kg
 *   Temple electricity   2025-01 2000 kWh £500 414 kg; 2025-03 1500 kWh £375 310.5 kg; 2025-04 3000 kWh £600 600 kg
 *   Hardman electricity  2025-02 3000 kWh £750 621 kg; 2025-05 1000 kWh £250 207 kg
 *   Aldgate electricity  2025-05 600 kWh £150 124.2 kg estimated for a missing bill
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
let outsider: string;
const site: Record<string, string> = {};
const account: Record<string, string> = {};
let foreignSite: string;
let entityId: string;

const Q1 = 'startDate=2025-01-01&endDate=2025-03-31';

async function bill(
  name: string,
  utilityType: UtilityType,
  month: string,
  consumption: number,
  cost: number,
  emissionsKg: number,
  factorVersion = 'DESNZ-2025',
) {
  const [siteName = ''] = name.split(' ');
  await applyInvoiceContribution(
    w.demoId,
    account[name] as string,
    site[siteName],
    newId(),
    { month, utilityType, consumption, unit: 'kWh', cost, emissionsKg, factorVersion },
    1,
  );
}

async function get(path: string, token = owner) {
  return api({ method: 'GET', path, token });
}

async function setCompanySettings(settings: Record<string, unknown>) {
  await updateRaw(keys.collection({}, 'companies'), w.demoId, {
    settings: { isDemo: true, showLogo: false, ...settings },
  });
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  for (const siteName of ['Aldgate', 'Temple', 'Hardman']) {
    site[siteName] = await created(api, owner, '/assets', {
      siteName,
      entityId,
      address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' },
    });
  }
  for (const name of ['Aldgate electricity', 'Aldgate gas', 'Temple electricity', 'Hardman electricity']) {
    const [siteName = '', type] = name.split(' ');
    account[name] = await created(api, owner, '/accounts', { type, assetId: site[siteName], name });
  }
  await bill('Aldgate electricity', 'electricity', '2025-01', 1000, 250, 207);
  await bill('Aldgate electricity', 'electricity', '2025-02', 800, 200, 165.6);
  await bill('Aldgate electricity', 'electricity', '2024-02', 900, 180, 180, 'DESNZ-2024');
  await bill('Aldgate gas', 'gas', '2025-01', 5000, 400, 915);
  await bill('Temple electricity', 'electricity', '2025-01', 2000, 500, 414);
  await bill('Temple electricity', 'electricity', '2025-03', 1500, 375, 310.5);
  await bill('Temple electricity', 'electricity', '2025-04', 3000, 600, 600);
  await bill('Hardman electricity', 'electricity', '2025-02', 3000, 750, 621);
  await bill('Hardman electricity', 'electricity', '2025-05', 1000, 250, 207);
  // A gap estimate, counted in the roll-ups as their rebuild counts it.
  const estimate = { consumption: 600, unit: 'kWh', cost: 150, emissionsKg: 124.2, unitRate: 0.25 };
  await putAccountMonth(w.demoId, account['Aldgate electricity'] as string, {
    month: '2025-05',
    ...estimate,
    currency: 'GBP',
    factorVersion: 'DESNZ-2025',
    source: 'estimate',
  });
  await addToRollups(w.demoId, site.Aldgate as string, '2025-05', 'electricity', estimate);
  const otherEntity = await created(api, outsider, '/entities', { legalName: 'Northwind Holdings' });
  foreignSite = await created(api, outsider, '/assets', {
    siteName: 'Northwind House',
    entityId: otherEntity,
  });
});

afterAll(async () => w?.stop());

describe('company analytics', () => {
  it("sums the company's bills per month and utility, with the window's totals", async () => {
    const res = await get(`/analytics/v2/consumption?${Q1}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 'consumption',
      version: 'v2',
      scope: { type: 'company', restricted: false },
      window: { startDate: '2025-01-01', endDate: '2025-03-31' },
      granularity: 'monthly',
      calendarPeriod: 'standard',
      costsIncluded: true,
      factorVersions: ['DESNZ-2025'],
    });
    expect(res.body.totals).toEqual({
      utilities: {
        electricity: { consumption: 8300, unit: 'kWh', cost: 2075, emissionsKg: 1718.1, unitRate: 0.25 },
        gas: { consumption: 5000, unit: 'kWh', cost: 400, emissionsKg: 915, unitRate: 0.08 },
      },
      cost: 2475,
      emissionsKg: 2633.1,
    });
    const buckets = res.body.buckets as { key: string; label: string; utilities: object; cost: number }[];
    expect(buckets.map((b) => [b.key, b.label, b.cost])).toEqual([
      ['2025-01', 'Jan 2025', 1150],
      ['2025-02', 'Feb 2025', 950],
      ['2025-03', 'Mar 2025', 375],
    ]);
    expect(buckets[1]?.utilities).toEqual({
      electricity: { consumption: 3800, unit: 'kWh', cost: 950, emissionsKg: 786.6, unitRate: 0.25 },
    });
  });

  it('answers v1 alike, by quarter, for one utility, with last year to compare', async () => {
    const res = await get(
      `/analytics/v1/consumption?${Q1}&granularity=quarterly&accountType=electricity&comparePeriod=year`,
    );
    expect(res.status).toBe(200);
    expect(res.body.version).toBe('v1');
    expect((res.body.buckets as { key: string }[]).map((b) => b.key)).toEqual(['2025-Q1']);
    expect((res.body.totals as { utilities: object }).utilities).toEqual({
      electricity: { consumption: 8300, unit: 'kWh', cost: 2075, emissionsKg: 1718.1, unitRate: 0.25 },
    });
    // The comparison carries its own scope split: last year's 900 kWh at 2024's 0.2 kg/kWh, location-based.
    expect((res.body.comparison as { scopes: { scope2Location: number } }).scopes.scope2Location).toBe(180);
    expect(res.body.comparison).toMatchObject({
      comparePeriod: 'year',
      window: { startDate: '2024-01-01', endDate: '2024-03-31' },
      totals: {
        utilities: {
          electricity: { consumption: 900, unit: 'kWh', cost: 180, emissionsKg: 180, unitRate: 0.2 },
        },
        cost: 180,
        emissionsKg: 180,
      },
    });
    expect(res.body.factorVersions).toEqual(['DESNZ-2024', 'DESNZ-2025']);
  });

  it('defaults to the last twelve whole months, monthly', async () => {
    const res = await get('/analytics/v2/consumption');
    const expected = defaultAnalyticsWindow(new Date().toISOString().slice(0, 10));
    expect(res.body.window).toEqual({ startDate: expected.start, endDate: expected.end });
    expect(res.body.granularity).toBe('monthly');
    expect(res.body.buckets).toHaveLength(12);
  });

  it('breaks the figures down by site for asset-consumption', async () => {
    const res = await get(`/analytics/v2/asset-consumption?${Q1}&dateBreakdown=false`);
    expect(res.status).toBe(200);
    expect(res.body.buckets).toBeUndefined();
    const bySite = Object.fromEntries(
      (res.body.assets as { siteName: string; totals: { cost: number; emissionsKg: number } }[]).map((a) => [
        a.siteName,
        [a.totals.cost, a.totals.emissionsKg],
      ]),
    );
    expect(bySite).toEqual({ Aldgate: [850, 1287.6], Temple: [875, 724.5], Hardman: [750, 621] });
    expect((res.body.totals as { cost: number }).cost).toBe(2475);
  });
});

describe('estimated figures', () => {
  it('tells the estimated part of each figure from the billed part', async () => {
    const path = '/analytics/v2/consumption?startDate=2025-05-01&endDate=2025-05-31&estimateBreakdown=true';
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({
      utilities: {
        electricity: {
          consumption: 1600,
          unit: 'kWh',
          cost: 400,
          unitRate: 0.25,
          emissionsKg: 331.2,
          estimated: { consumption: 600, cost: 150, emissionsKg: 124.2 },
        },
      },
      cost: 400,
      emissionsKg: 331.2,
    });
    const hardman = await get(`${path}&assetId=${site.Hardman}`);
    expect(
      (hardman.body.totals as { utilities: { electricity: { estimated: object } } }).utilities.electricity
        .estimated,
    ).toEqual({
      consumption: 0,
      cost: 0,
      emissionsKg: 0,
    });
  });
});

describe('a site and a portfolio', () => {
  it("gives a site's own totals, by the query or by the site's own route", async () => {
    const expected = {
      utilities: {
        electricity: { consumption: 1800, unit: 'kWh', cost: 450, emissionsKg: 372.6, unitRate: 0.25 },
        gas: { consumption: 5000, unit: 'kWh', cost: 400, emissionsKg: 915, unitRate: 0.08 },
      },
      cost: 850,
      emissionsKg: 1287.6,
    };
    const byQuery = await get(`/analytics/v2/consumption?${Q1}&assetId=${site.Aldgate}`);
    expect(byQuery.body.scope).toMatchObject({ type: 'site', id: site.Aldgate, name: 'Aldgate' });
    expect(byQuery.body.totals).toEqual(expected);
    const byRoute = await get(`/assets/${site.Aldgate}/analytics?${Q1}`);
    expect(byRoute.status).toBe(200);
    expect(byRoute.body.totals).toEqual(expected);
  });

  it("gives a portfolio's totals over its sites", async () => {
    const groupId = await created(api, owner, '/asset-groups', {
      name: 'Aldgate and Hardman',
      assetIds: [site.Aldgate, site.Hardman],
    });
    const res = await get(`/asset-groups/${groupId}/analytics?${Q1}&accountType=electricity`);
    expect(res.status).toBe(200);
    expect(res.body.scope).toMatchObject({ type: 'portfolio', id: groupId, sites: 2 });
    expect(res.body.totals).toEqual({
      utilities: {
        electricity: { consumption: 4800, unit: 'kWh', cost: 1200, emissionsKg: 993.6, unitRate: 0.25 },
      },
      cost: 1200,
      emissionsKg: 993.6,
    });
  });
});

describe('what a caller may read', () => {
  it('gives a user with two site grants the totals of those two sites only, never the company', async () => {
    const token = await w.addUser('two-sites', ['asset_user'], {
      assets: { read: [site.Aldgate as string, site.Temple as string], write: [] },
    });
    const res = await get(`/analytics/v2/consumption?${Q1}`, token);
    expect(res.status).toBe(200);
    expect(res.body.scope).toMatchObject({ type: 'company', restricted: true, sites: 2, meters: 0 });
    // Aldgate 1000 + 800 and Temple 2000 + 1500 kWh; Hardman's 3000 is not theirs.
    expect(res.body.totals).toEqual({
      utilities: {
        electricity: { consumption: 5300, unit: 'kWh', cost: 1325, emissionsKg: 1097.1, unitRate: 0.25 },
        gas: { consumption: 5000, unit: 'kWh', cost: 400, emissionsKg: 915, unitRate: 0.08 },
      },
      cost: 1725,
      emissionsKg: 2012.1,
    });
    expect((await get(`/analytics/v2/consumption?${Q1}&assetId=${site.Hardman}`, token)).status).toBe(404);
    expect((await get(`/assets/${site.Hardman}/analytics`, token)).status).toBe(404);
    const mixed = await created(api, owner, '/asset-groups', {
      name: 'Temple and Hardman',
      assetIds: [site.Temple, site.Hardman],
    });
    expect((await get(`/analytics/v2/consumption?assetGroupId=${mixed}`, token)).status).toBe(404);
    expect((await get(`/asset-groups/${mixed}/analytics`, token)).status).toBe(404);
  });

  it("gives a user granted the sites' entity every site's figures, read site by site", async () => {
    const token = await w.addUser('entity-reader', ['entity_user'], {
      entities: { read: [entityId], write: [] },
    });
    const res = await get(`/analytics/v2/consumption?${Q1}`, token);
    expect(res.body.scope).toMatchObject({ restricted: true, sites: 3, meters: 0 });
    expect((res.body.totals as { cost: number; emissionsKg: number }).cost).toBe(2475);
    expect((res.body.totals as { cost: number; emissionsKg: number }).emissionsKg).toBe(2633.1);
  });

  it("gives a user with one meter grant that meter's own months", async () => {
    const token = await w.addUser('one-meter', ['account_user'], {
      accounts: { read: [account['Hardman electricity'] as string], write: [] },
    });
    const res = await get(`/analytics/v2/consumption?${Q1}`, token);
    expect(res.body.scope).toMatchObject({ restricted: true, sites: 0, meters: 1 });
    expect(res.body.totals).toEqual({
      utilities: {
        electricity: { consumption: 3000, unit: 'kWh', cost: 750, emissionsKg: 621, unitRate: 0.25 },
      },
      cost: 750,
      emissionsKg: 621,
    });
  });

  it("answers 404 for another company's site, and for an analytics name it does not know", async () => {
    expect((await get(`/analytics/v2/consumption?assetId=${foreignSite}`)).status).toBe(404);
    expect((await get(`/assets/${foreignSite}/analytics`)).status).toBe(404);
    const unknown = await get('/analytics/v2/weather');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('There are no analytics called weather');
  });
});

describe('bad parameters', () => {
  it('refuses them field by field', async () => {
    const cases: [string, Record<string, string>][] = [
      [
        'granularity=fortnightly',
        { granularity: 'Must be one of halfhourly, hourly, daily, weekly, monthly, quarterly, yearly' },
      ],
      [
        'granularity=hourly',
        { granularity: 'Hourly figures cover at most 93 days: choose a coarser granularity' },
      ],
      ['startDate=2025-13-01', { startDate: 'Must be a date as YYYY-MM-DD' }],
      [
        'startDate=2025-03-01&endDate=2025-02-01',
        { endDate: 'The end date must be on or after the start date' },
      ],
      [
        'accountType=steam',
        { accountType: 'Must be one or more of electricity, gas, water, waste, heating, cooling, solar' },
      ],
      ['includeCosts=maybe', { includeCosts: 'Must be true or false' }],
    ];
    for (const [query, formMessages] of cases) {
      const res = await get(`/analytics/v2/consumption?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.formMessages, query).toEqual(formMessages);
    }
  });
});

describe('company settings', () => {
  it('leaves every cost out when the company hides cost data', async () => {
    await setCompanySettings({ hideCostData: true });
    try {
      const res = await get(`/analytics/v2/consumption?${Q1}&comparePeriod=year`);
      expect(res.status).toBe(200);
      expect(res.body.costsIncluded).toBe(false);
      expect(JSON.stringify(res.body)).not.toContain('"cost"');
      expect((res.body.totals as { utilities: object }).utilities).toEqual({
        electricity: { consumption: 8300, unit: 'kWh', emissionsKg: 1718.1 },
        gas: { consumption: 5000, unit: 'kWh', emissionsKg: 915 },
      });
      const asked = await get(`/analytics/v2/consumption?${Q1}&dataType=cost`);
      expect(asked.status).toBe(400);
      expect(asked.body.formMessages).toEqual({ dataType: 'Cost data is hidden for this company' });
    } finally {
      await setCompanySettings({});
    }
  });

  it("buckets by the company's calendar: rail period 1 is 1 to 28 April", async () => {
    await setCompanySettings({ calendarPeriod: 'Rail Calendar' });
    try {
      const res = await get(
        `/analytics/v2/consumption?startDate=2025-04-01&endDate=2025-05-26&assetId=${site.Temple}`,
      );
      expect(res.body.calendarPeriod).toBe('rail');
      const buckets = res.body.buckets as { key: string; start: string; end: string; utilities: object }[];
      expect(buckets.map((b) => [b.key, b.start, b.end])).toEqual([
        ['FY2025-P01', '2025-04-01', '2025-04-28'],
        ['FY2025-P02', '2025-04-29', '2025-05-26'],
      ]);
      // April's 3000 kWh over 30 days: 28 days in period 1, 2 in period 2.
      expect(buckets[0]?.utilities).toEqual({
        electricity: { consumption: 2800, unit: 'kWh', cost: 560, emissionsKg: 560, unitRate: 0.2 },
      });
      expect(buckets[1]?.utilities).toEqual({
        electricity: { consumption: 200, unit: 'kWh', cost: 40, emissionsKg: 40, unitRate: 0.2 },
      });
    } finally {
      await setCompanySettings({});
    }
  });
});
