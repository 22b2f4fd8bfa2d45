import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addManyToRollups,
  applyInvoiceContribution,
  applyRestatementToSite,
} from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { config } from '../../functions/core/config.ts';
import { createUser } from '../support/api-fixture.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * The CRREM table of a company is answered from one kept copy of every site's fields and energy years,
 * not from an item per site and per site-year. The answer must be the one a fresh read gives, and every
 * change of what it is made from (a bill, an import, a restatement, a site's floor area, a site deleted
 * or added) must show in the very next answer.
 *
 * One pathway, United Kingdom offices: carbon 60 kg/m² in 2020 falling 2 a year, energy 200 kWh/m² falling
 * 5 a year. In each of the last two whole years:
 *   Aldgate  Office, 1000 m², electricity 10,000 kWh and 4,000 kg a month: 120 kWh/m², 48 kg/m².
 *   Bank     Office, 2000 m², an address naming no country (a UK one), gas 20,000 kWh and 3,000 kg a
 *            month: 120 kWh/m², 18 kg/m².
 *   Temple   Office, no floor area: cannot be benchmarked.
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
let aldgateOnly: string;
const office: Record<string, string> = { assetType: 'Office' };
const site: Record<string, string> = {};
const LAST = new Date().getUTCFullYear() - 1;
const YEARS = [LAST - 1, LAST];

interface Row {
  _id: string;
  siteName: string;
  benchmarked: boolean;
  missing?: string[];
  latest?: { year: number; kwhM2: number; kgCo2eM2: number; floorAreaM2: number };
}
interface Table {
  sites: Row[];
}

const table = async (token = owner, query = '') => {
  const res = await api({ method: 'GET', path: `/benchmarks/crrem/sites${query}`, token });
  expect(res.status).toBe(200);
  return res.body as unknown as Table;
};
const rowOf = (t: Table, name: string) => t.sites.find((s) => s.siteName === name);

/** The name of the copy kept now, if any. */
async function keptBuild(): Promise<string | undefined> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: config().tableName,
      Key: { pk: `C#${w.demoId}#kept-site-years#0`, sk: 'part' },
      ConsistentRead: true,
    }),
  );
  return typeof out.Item?.build === 'string' ? out.Item.build : undefined;
}

/** The table as the kept copy answers it: asked twice, the second answer made from no fresh read. */
async function tableFromKeptCopy(): Promise<Table> {
  await table();
  const build = await keptBuild();
  expect(build).toBeDefined();
  const answer = await table();
  expect(await keptBuild()).toBe(build);
  return answer;
}

async function bills(assetId: string, utilityType: 'electricity' | 'gas', kwh: number, kg: number) {
  const meter = await created(api, owner, '/accounts', { type: utilityType, assetId });
  for (const year of YEARS)
    for (let m = 1; m <= 12; m++) {
      const month = `${year}-${String(m).padStart(2, '0')}`;
      await applyInvoiceContribution(
        w.demoId,
        meter,
        assetId,
        `bill-${meter}-${month}`,
        { month, utilityType, consumption: kwh, unit: 'kWh', cost: 100, emissionsKg: kg, factorVersion: 'x' },
        1,
      );
    }
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  await createUser({ sub: 'staff', email: 'admin@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  const rows = ['Country,Property type,Year,kWh/m²,kgCO2e/m²'];
  for (let n = 0; n <= 30; n++) rows.push(`United Kingdom,Office,${2020 + n},${200 - 5 * n},${60 - 2 * n}`);
  const upload = await api({
    method: 'POST',
    path: '/benchmarks/crrem/pathway-sets',
    token: w.token('staff'),
    body: {
      name: 'Test pathways',
      version: '1.0',
      source: 'By hand',
      illustrative: true,
      csv: rows.join('\n'),
    },
  });
  expect(upload.status).toBe(201);
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  office.entityId = entityId;
  site.Aldgate = await created(api, owner, '/assets', {
    siteName: 'Aldgate',
    ...office,
    floorArea: 1000,
    address: { streetAddress: '1 Aldgate', postCode: 'EC3N 1AA', country: 'United Kingdom' },
  });
  site.Bank = await created(api, owner, '/assets', {
    siteName: 'Bank',
    ...office,
    floorArea: 2000,
    address: { streetAddress: '1 Bank', postCode: 'EC2R 8AH' },
  });
  site.Temple = await created(api, owner, '/assets', {
    siteName: 'Temple',
    ...office,
    address: { postCode: 'EC4Y 0HA' },
  });
  await bills(site.Aldgate as string, 'electricity', 10_000, 4_000);
  await bills(site.Bank as string, 'gas', 20_000, 3_000);
  aldgateOnly = await w.addUser('aldgate-only', ['asset_user'], {
    assets: { read: [site.Aldgate as string], write: [] },
  });
}, 120_000);

afterAll(async () => w?.stop());

describe('the CRREM table from the kept copy', () => {
  it('answers exactly as the fresh read that made the copy', async () => {
    expect(await keptBuild()).toBeUndefined();
    const fresh = await table();
    expect(await keptBuild()).toBeDefined();
    const kept = await tableFromKeptCopy();
    expect(JSON.stringify(kept)).toBe(JSON.stringify(fresh));
    expect(rowOf(kept, 'Aldgate')?.latest).toMatchObject({ year: LAST, kwhM2: 120, kgCo2eM2: 48 });
    expect(rowOf(kept, 'Bank')?.latest).toMatchObject({ year: LAST, kwhM2: 120, kgCo2eM2: 18 });
    expect(rowOf(kept, 'Temple')).toMatchObject({ benchmarked: false, missing: ['floorArea'] });
    // A user who reads one site is answered from the same copy, with that site alone, as it reads for all.
    const narrow = await table(aldgateOnly);
    expect(narrow.sites).toEqual([rowOf(kept, 'Aldgate')]);
    const typed = await table(owner, '?propertyType=office');
    expect(typed.sites.map((s) => s.siteName).sort()).toEqual(['Aldgate', 'Bank', 'Temple']);
  });

  it('shows a new bill in the next answer', async () => {
    const before = await tableFromKeptCopy();
    expect(rowOf(before, 'Bank')?.latest).toMatchObject({ kwhM2: 120, kgCo2eM2: 18 });
    await applyInvoiceContribution(
      w.demoId,
      'late-meter',
      site.Bank as string,
      'late-bill',
      {
        month: `${LAST}-06`,
        utilityType: 'gas',
        consumption: 24_000,
        unit: 'kWh',
        cost: 100,
        emissionsKg: 1_200,
        factorVersion: 'x',
      },
      1,
    );
    // 264,000 kWh and 37,200 kg over 2000 m².
    expect(rowOf(await table(), 'Bank')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 18.6 });
  });

  it("shows an import's months in the next answer", async () => {
    await tableFromKeptCopy();
    await addManyToRollups(w.demoId, [
      {
        assetId: site.Aldgate as string,
        month: `${LAST}-03`,
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 12_000,
        cost: 100,
        emissionsKg: 0,
      },
    ]);
    // 132,000 kWh over 1000 m²; the emissions as they were.
    expect(rowOf(await table(), 'Aldgate')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 48 });
  });

  it('shows a restatement of emissions in the next answer', async () => {
    await tableFromKeptCopy();
    await applyRestatementToSite(w.demoId, 'restate-1', site.Aldgate as string, [
      {
        month: `${LAST}-01`,
        utilityType: 'electricity',
        unit: 'kWh',
        emissionsKg: -2_000,
        factorVersion: 'y',
      },
    ]);
    expect(rowOf(await table(), 'Aldgate')?.latest).toMatchObject({ kwhM2: 132, kgCo2eM2: 46 });
  });

  it("shows a site's new floor area, a deleted site and a new one in the next answer", async () => {
    await tableFromKeptCopy();
    const patch = await api({
      method: 'PATCH',
      path: `/assets/${site.Bank}`,
      token: owner,
      body: { floorArea: 4000 },
    });
    expect(patch.status).toBe(200);
    expect(rowOf(await table(), 'Bank')?.latest).toMatchObject({
      kwhM2: 66,
      kgCo2eM2: 9.3,
      floorAreaM2: 4000,
    });

    await tableFromKeptCopy();
    const gone = await api({ method: 'DELETE', path: `/assets/${site.Temple}`, token: owner });
    expect(gone.status).toBeLessThan(300);
    expect(rowOf(await table(), 'Temple')).toBeUndefined();

    await tableFromKeptCopy();
    await created(api, owner, '/assets', { siteName: 'Moorgate', ...office, floorArea: 800 });
    expect(rowOf(await table(), 'Moorgate')).toMatchObject({ benchmarked: false, missing: ['country'] });
  });
});
