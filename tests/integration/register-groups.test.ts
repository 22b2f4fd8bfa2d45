import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putRollups } from '../../functions/accounts/consumption-repository.ts';
import { lastTwelveMonths } from '../../functions/portfolios/asset-group-report-service.ts';
import type { AssetGroupReport } from '../../shared/schemas/register.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let owner: string;
let outsider: string;
let assetUser: string;
let entityId: string;
const asset: Record<string, string> = {};
let groupId: string;
let foreignAsset: string;
const UNKNOWN = '0123456789abcdef01234567';

const siteNames = (res: { body: Record<string, unknown> }) =>
  (res.body.data as { siteName: string }[]).map((a) => a.siteName);

async function groupAssets(token = owner) {
  return api({ method: 'GET', path: `/asset-groups/${groupId}/assets`, token });
}

async function groupCount(): Promise<number> {
  return Number((await api({ method: 'GET', path: '/asset-groups?limit=1', token: owner })).body.total);
}

function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 2, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  const sites = [
    ['Aldgate House', 1000, 'm2', 'EC3N 1DL'],
    ['Temple Quay Point', 500, 'm2', 'BS1 6EY'],
    ['Hardman Court', 10000, 'ft2', 'M3 3HF'],
    ['Empty Plot', undefined, 'm2', 'M1 1AA'],
  ] as const;
  for (const [siteName, floorArea, floorAreaUnit, postCode] of sites) {
    asset[siteName] = await created(api, owner, '/assets', {
      siteName,
      entityId,
      floorArea,
      floorAreaUnit,
      address: { streetAddress: '1 Test Street', locality: 'London', postCode },
    });
  }
  for (const type of ['electricity', 'gas'] as const) {
    await created(api, owner, '/accounts', {
      type,
      assetId: asset['Aldgate House'],
      name: `Aldgate ${type}`,
    });
  }
  await created(api, owner, '/accounts', { type: 'electricity', assetId: asset['Temple Quay Point'] });
  const otherEntity = await created(api, outsider, '/entities', { legalName: 'Northwind Holdings' });
  foreignAsset = await created(api, outsider, '/assets', {
    siteName: 'Northwind House',
    entityId: otherEntity,
  });
  assetUser = await w.addUser('asset-user', ['asset_user'], {
    assets: { read: [asset['Aldgate House'] as string, asset['Temple Quay Point'] as string], write: [] },
  });
});

afterAll(async () => w?.stop());

describe('making and editing a portfolio', () => {
  it('refuses bad input field by field, and an unknown or foreign asset, writing nothing', async () => {
    const before = await groupCount();
    const bad = [
      [{}, { name: 'This field is required' }],
      [{ name: 'London', assetIds: ['nope'] }, { 'assetIds.0': 'Must be a valid id' }],
      [
        { name: 'London', assetIds: [asset['Aldgate House'], UNKNOWN] },
        { assetIds: `No such asset: ${UNKNOWN}` },
      ],
      [{ name: 'London', assetIds: [foreignAsset] }, { assetIds: `No such asset: ${foreignAsset}` }],
    ] as const;
    for (const [body, formMessages] of bad) {
      const res = await api({ method: 'POST', path: '/asset-groups', token: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.formMessages).toEqual(formMessages);
    }
    expect(await groupCount()).toBe(before);
  });

  it('creates a portfolio and edits its name', async () => {
    groupId = await created(api, owner, '/asset-groups', {
      name: 'London portfolio',
      assetIds: [asset['Aldgate House'], asset['Aldgate House']],
    });
    expect(siteNames(await groupAssets())).toEqual(['Aldgate House']);
    const renamed = await api({
      method: 'PATCH',
      path: `/asset-groups/${groupId}`,
      token: owner,
      body: { name: 'Offices portfolio', description: 'All offices' },
    });
    expect(renamed.body).toMatchObject({ name: 'Offices portfolio', description: 'All offices' });
    expect(renamed.body.assetIds).toEqual([asset['Aldgate House']]);
    const badEdit = await api({
      method: 'PATCH',
      path: `/asset-groups/${groupId}`,
      token: owner,
      body: { assetIds: [UNKNOWN] },
    });
    expect(badEdit.status).toBe(400);
    expect(siteNames(await groupAssets())).toEqual(['Aldgate House']);
  });
});

describe("a portfolio's assets", () => {
  it('adds one asset, then several at once', async () => {
    const one = await api({
      method: 'PUT',
      path: `/asset-groups/${groupId}/asset/${asset['Temple Quay Point']}`,
      token: owner,
    });
    expect(one.status).toBe(200);
    const many = await api({
      method: 'PUT',
      path: `/asset-groups/${groupId}/assets/${asset['Hardman Court']},${asset['Empty Plot']},${asset['Temple Quay Point']}`,
      token: owner,
    });
    expect(many.status).toBe(200);
    expect(siteNames(await groupAssets())).toEqual([
      'Aldgate House',
      'Empty Plot',
      'Hardman Court',
      'Temple Quay Point',
    ]);
  });

  it('adds none of a list that names one unknown asset, and answers 404 for one unknown asset', async () => {
    const before = siteNames(await groupAssets());
    const list = await api({
      method: 'PUT',
      path: `/asset-groups/${groupId}/assets/${asset['Aldgate House']},${UNKNOWN}`,
      token: owner,
    });
    expect(list.status).toBe(400);
    expect(list.body.formMessages).toEqual({ assetIds: `No such asset: ${UNKNOWN}` });
    const malformed = await api({ method: 'PUT', path: `/asset-groups/${groupId}/assets/a,b`, token: owner });
    expect(malformed.status).toBe(400);
    const single = await api({
      method: 'PUT',
      path: `/asset-groups/${groupId}/asset/${foreignAsset}`,
      token: owner,
    });
    expect(single.status).toBe(404);
    expect(siteNames(await groupAssets())).toEqual(before);
  });

  it('takes an asset out, and answers 404 for one that is not in the portfolio', async () => {
    const out = await api({
      method: 'DELETE',
      path: `/asset-groups/${groupId}/asset/${asset['Empty Plot']}`,
      token: owner,
    });
    expect(out.status).toBe(200);
    const again = await api({
      method: 'DELETE',
      path: `/asset-groups/${groupId}/asset/${asset['Empty Plot']}`,
      token: owner,
    });
    expect(again.status).toBe(404);
    expect(siteNames(await groupAssets())).toEqual(['Aldgate House', 'Hardman Court', 'Temple Quay Point']);
  });

  it('adds up the floor area in m² and ft², converting assets entered in ft²', async () => {
    const res = await api({ method: 'GET', path: `/asset-groups/${groupId}/floor-area`, token: owner });
    const m2 = 1000 + 500 + 10000 * 0.092903;
    expect(res.body).toEqual({
      m2: Math.round(m2 * 100) / 100,
      ft2: Math.round((m2 / 0.092903) * 100) / 100,
      assetsCount: 3,
      assetsWithFloorArea: 3,
    });
  });

  it('finds assets to add, saying which are already in the portfolio', async () => {
    const res = await api({
      method: 'GET',
      path: `/asset-groups/${groupId}/search-assets?query=temple`,
      token: owner,
    });
    expect(res.body.data).toMatchObject([{ siteName: 'Temple Quay Point', inGroup: true }]);
    const plot = await api({
      method: 'GET',
      path: `/asset-groups/${groupId}/search-assets?query=M1%201AA`,
      token: owner,
    });
    expect(plot.body.data).toMatchObject([{ siteName: 'Empty Plot', inGroup: false }]);
    const browse = await api({ method: 'GET', path: `/asset-groups/${groupId}/search-assets`, token: owner });
    expect(browse.body.total).toBe(4);
    const short = await api({
      method: 'GET',
      path: `/asset-groups/${groupId}/search-assets?query=te`,
      token: owner,
    });
    expect(short.status).toBe(400);
  });
});

describe('removing several sites at once', () => {
  it('keeps only the remaining sites in one write, and refuses a list with a foreign site, changing nothing', async () => {
    const all = ['Aldgate House', 'Temple Quay Point', 'Hardman Court', 'Empty Plot'].map((n) => asset[n]);
    const bulkId = await created(api, owner, '/asset-groups', { name: 'Bulk portfolio', assetIds: all });
    const listed = async () =>
      siteNames(await api({ method: 'GET', path: `/asset-groups/${bulkId}/assets`, token: owner }));
    const keep = (...names: string[]) => names.map((n) => asset[n]);

    const foreign = await api({
      method: 'PATCH',
      path: `/asset-groups/${bulkId}`,
      token: owner,
      body: { assetIds: [...keep('Aldgate House'), foreignAsset] },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.formMessages).toEqual({ assetIds: `No such asset: ${foreignAsset}` });
    const byReader = await api({
      method: 'PATCH',
      path: `/asset-groups/${bulkId}`,
      token: assetUser,
      body: { assetIds: keep('Aldgate House') },
    });
    expect([403, 404]).toContain(byReader.status);
    expect(await listed()).toEqual(['Aldgate House', 'Empty Plot', 'Hardman Court', 'Temple Quay Point']);

    const removed = await api({
      method: 'PATCH',
      path: `/asset-groups/${bulkId}`,
      token: owner,
      body: { assetIds: keep('Hardman Court') },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.assetIds).toEqual(keep('Hardman Court'));
    expect(await listed()).toEqual(['Hardman Court']);
    const area = await api({ method: 'GET', path: `/asset-groups/${bulkId}/floor-area`, token: owner });
    expect(area.body).toMatchObject({ ft2: 10000, assetsCount: 1 });
    // Out of the way of the later listing checks, which count this company's portfolios.
    expect((await api({ method: 'DELETE', path: `/asset-groups/${bulkId}`, token: owner })).status).toBe(200);
  });
});

describe('report data', () => {
  it('gives each asset its floor area, accounts, and the last twelve months per utility from the roll-ups', async () => {
    const { from, to } = lastTwelveMonths();
    const aldgate = asset['Aldgate House'] as string;
    await putRollups(w.demoId, [
      {
        assetId: aldgate,
        month: to,
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 1000,
        cost: 250,
        emissionsKg: 177,
      },
      {
        assetId: aldgate,
        month: from,
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 500,
        cost: 100,
        emissionsKg: 88.5,
      },
      {
        assetId: aldgate,
        month: monthBefore(from),
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 9999,
        cost: 9999,
        emissionsKg: 9999,
      },
      {
        assetId: aldgate,
        month: to,
        utilityType: 'gas',
        unit: 'kWh',
        consumption: 300,
        cost: 30,
        emissionsKg: 54.7,
      },
      {
        assetId: asset['Temple Quay Point'],
        month: to,
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 200,
        cost: 50,
        emissionsKg: 35.4,
      },
    ]);
    const res = await api({ method: 'GET', path: `/asset-groups/${groupId}/report-data`, token: owner });
    expect(res.status).toBe(200);
    const report = res.body as unknown as AssetGroupReport;
    expect(report.period).toEqual({ from, to });
    const row = report.assets.find((a) => a._id === aldgate);
    expect(row).toMatchObject({
      siteName: 'Aldgate House',
      floorAreaM2: 1000,
      accountsCount: 2,
      utilities: {
        electricity: { consumption: 1500, unit: 'kWh', cost: 350, emissionsKg: 265.5 },
        gas: { consumption: 300, cost: 30 },
      },
    });
    expect(report.totals.accountsCount).toBe(3);
    expect(report.totals.utilities.electricity).toEqual({
      consumption: 1700,
      unit: 'kWh',
      cost: 400,
      emissionsKg: 300.9,
    });
    const early = await api({
      method: 'GET',
      path: `/asset-groups/${groupId}/report-data?from=${monthBefore(from)}&to=${monthBefore(from)}`,
      token: owner,
    });
    expect((early.body as unknown as AssetGroupReport).totals.utilities.electricity?.consumption).toBe(9999);
    const bad = await api({
      method: 'GET',
      path: `/asset-groups/${groupId}/report-data?from=2024-13`,
      token: owner,
    });
    expect(bad.status).toBe(400);
  });
});

describe('who sees a portfolio', () => {
  it("answers 404 for another company's portfolio on every portfolio call", async () => {
    const calls = [
      { method: 'GET', path: `/asset-groups/${groupId}` },
      { method: 'PATCH', path: `/asset-groups/${groupId}`, body: { name: 'Mine now' } },
      { method: 'GET', path: `/asset-groups/${groupId}/assets` },
      { method: 'PUT', path: `/asset-groups/${groupId}/asset/${foreignAsset}` },
      { method: 'PUT', path: `/asset-groups/${groupId}/assets/${foreignAsset}` },
      { method: 'DELETE', path: `/asset-groups/${groupId}/asset/${asset['Aldgate House']}` },
      { method: 'GET', path: `/asset-groups/${groupId}/report-data` },
      { method: 'GET', path: `/asset-groups/${groupId}/search-assets?query=ald` },
      { method: 'GET', path: `/asset-groups/${groupId}/floor-area` },
    ];
    for (const call of calls) {
      const res = await api({ ...call, token: outsider });
      expect(res.status, `${call.method} ${call.path}`).toBe(404);
    }
    const mine = await api({ method: 'GET', path: '/users/me/asset-groups', token: outsider });
    expect(mine.body).toMatchObject({ data: [], total: 0 });
  });

  it('lists for a user with asset grants only the portfolios whose every asset they may read', async () => {
    const small = await created(api, owner, '/asset-groups', {
      name: 'Aldgate only',
      assetIds: [asset['Aldgate House']],
    });
    const mine = await api({ method: 'GET', path: '/users/me/asset-groups', token: assetUser });
    expect((mine.body.data as { _id: string }[]).map((g) => g._id)).toEqual([small]);
    expect((await groupAssets(assetUser)).status).toBe(404);
    const ownerList = await api({ method: 'GET', path: '/users/me/asset-groups', token: owner });
    expect((ownerList.body.data as { name: string }[]).map((g) => g.name)).toEqual([
      'Aldgate only',
      'Offices portfolio',
    ]);
    const write = await api({
      method: 'PUT',
      path: `/asset-groups/${small}/asset/${asset['Temple Quay Point']}`,
      token: assetUser,
    });
    expect(write.status).toBe(403);
  });
});
