import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findResidualMix } from '../../shared/analytics/index.ts';
import { storeCapturedInvoice } from './invoices-support.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * Scopes, market-based scope 2, the cost split and entity scopes, over bills confirmed as a user confirms
 * them, worked by hand (March 2025; DESNZ 2025: grid 0.177, T&D 0.01853, gas 0.18296 kg per kWh):
 *
 *   Holdings (entity)  └ Offices (its child)         Other (entity)
 *   Aldgate (Holdings) electricity 1000 kWh, renewable contract with REGOs for 2025
 *                      net £250, VAT £50, levy £7.75 and standing £31 as bill fields
 *   Temple  (Offices)  electricity 2000 kWh, renewable contract without REGOs
 *                      net £500, VAT £100, levy £15.50 and standing £20 only as charge lines
 *                      gas 5000 kWh, net £400, VAT £80
 *   Hardman (Other)    electricity 3000 kWh, no contract, net £600, VAT £120
 *
 *   Holdings: scope 1 = 5000 × 0.18296 = 914.8; scope 2 location = (1000 + 2000) × 0.177 = 531;
 *             market = 0 (REGOs) + 2000 × residual mix; scope 3 T&D = 3000 × 0.01853 = 55.59;
 *             well-to-tank (DESNZ 2025 flat file) = gas 5000 × 0.03021 + electricity 3000 × (0.0459 + 0.00397)
 *             = 151.05 + 149.61 = 300.66; scope 3 = 356.25
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const meter: Record<string, string> = {};
const entity: Record<string, string> = {};
const MARCH = 'startDate=2025-03-01&endDate=2025-03-31';
const MIX_2025 = findResidualMix(2025);

interface UtilityFigures {
  consumption: number;
  cost?: number;
  emissionsKg: number;
}
interface ScopeSplit {
  scope1: number;
  scope2Location: number;
  scope2Market: number;
  scope3: number;
  totalLocation: number;
  totalMarket: number;
  factorSets: Record<string, string[]>;
}
/** The parts of an analytics answer these tests read. */
interface Answer {
  emissionsBasis: string;
  scope: Record<string, unknown>;
  totals: { utilities: Record<string, UtilityFigures>; cost?: number; emissionsKg: number };
  scopes: { totals: ScopeSplit; buckets?: ScopeSplit[] };
  assets?: { siteName: string }[];
}

async function get(path: string, token = owner) {
  const res = await api({ method: 'GET', path, token });
  return { status: res.status, body: res.body as unknown as Answer };
}

async function confirmBill(
  accountId: string,
  consumption: number,
  money: Record<string, number>,
  rates: Record<string, unknown>[] = [],
) {
  const id = await storeCapturedInvoice(
    w.demoId,
    {
      invoiceNumber: `M${Math.floor(Math.random() * 1e9)}`,
      startDate: '2025-03-01',
      endDate: '2025-03-31',
      consumption,
      consumptionUnit: 'kWh',
      ...money,
    },
    rates,
    { accountId },
  );
  const res = await api({ method: 'POST', path: `/invoices/${id}/confirm`, token: owner });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function contract(accountId: string, regoBacked: boolean) {
  await created(api, owner, `/accounts/${accountId}/contracts`, {
    name: regoBacked ? 'Green with REGOs' : 'Green without REGOs',
    startDate: '2025-01-01',
    endDate: '2025-12-31',
    isRenewable: true,
    regoBacked,
  });
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  entity.Holdings = await created(api, owner, '/entities', { legalName: 'Holdings Ltd' });
  entity.Offices = await created(api, owner, '/entities', {
    legalName: 'Offices Ltd',
    parentEntityId: entity.Holdings,
  });
  entity.Other = await created(api, owner, '/entities', { legalName: 'Other Ltd' });
  const entityOf = { Aldgate: 'Holdings', Temple: 'Offices', Hardman: 'Other' } as const;
  for (const [name, of] of Object.entries(entityOf)) {
    site[name] = await created(api, owner, '/assets', { siteName: name, entityId: entity[of] });
  }
  for (const name of ['Aldgate electricity', 'Temple electricity', 'Temple gas', 'Hardman electricity']) {
    const [siteName = '', type] = name.split(' ');
    meter[name] = await created(api, owner, '/accounts', { type, assetId: site[siteName], name });
  }
  await contract(meter['Aldgate electricity'] as string, true);
  await contract(meter['Temple electricity'] as string, false);
  await confirmBill(meter['Aldgate electricity'] as string, 1000, {
    netTotal: 250,
    vatTotal: 50,
    grossTotal: 300,
    climateChangeLevy: 7.75,
    standingCharge: 31,
  });
  await confirmBill(
    meter['Temple electricity'] as string,
    2000,
    { netTotal: 500, vatTotal: 100, grossTotal: 600 },
    [
      { _id: 'l1', description: 'Electricity', kind: 'unit', units: 2000, unit: 'kWh', amount: 464.5 },
      { _id: 'l2', description: 'Standing charge', kind: 'standing', units: 31, unit: 'day', amount: 20 },
      { _id: 'l3', description: 'Climate Change Levy', kind: 'ccl', units: 2000, unit: 'kWh', amount: 15.5 },
      { _id: 'l4', description: 'VAT at 20%', kind: 'vat', amount: 100 },
    ],
  );
  await confirmBill(meter['Temple gas'] as string, 5000, { netTotal: 400, vatTotal: 80, grossTotal: 480 });
  await confirmBill(meter['Hardman electricity'] as string, 3000, {
    netTotal: 600,
    vatTotal: 120,
    grossTotal: 720,
  });
});

afterAll(async () => w?.stop());

describe('market-based scope 2', () => {
  it('counts electricity under a REGO-backed renewable contract at 0, naming the REGO set', async () => {
    const res = await get(`/analytics/v2/consumption?${MARCH}&assetId=${site.Aldgate}&emissions=market`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.emissionsBasis).toBe('market');
    expect(res.body.totals.utilities.electricity?.emissionsKg).toBe(0);
    expect(res.body.totals.emissionsKg).toBe(0);
    expect(res.body.scopes.totals).toMatchObject({
      scope2Location: 177,
      scope2Market: 0,
      factorSets: { scope2Market: ['rego-zero'], scope2Location: ['desnz-2025-v1'] },
    });
    // Location-based, the same site's electricity counts at the grid factor.
    const location = await get(`/analytics/v2/consumption?${MARCH}&assetId=${site.Aldgate}`);
    expect(location.body.emissionsBasis).toBe('location');
    expect(location.body.totals.emissionsKg).toBe(177);
  });

  it('counts a renewable contract without REGOs, and no contract, at the residual mix', async () => {
    expect(MIX_2025).toBeDefined();
    const factor = MIX_2025?.factor ?? Number.NaN;
    for (const [name, kwh] of [
      ['Temple', 2000],
      ['Hardman', 3000],
    ] as const) {
      const res = await get(
        `/analytics/v2/consumption?${MARCH}&assetId=${site[name]}&emissions=market&accountType=electricity`,
      );
      expect(res.body.totals.utilities.electricity?.emissionsKg).toBeCloseTo(kwh * factor, 3);
      expect(res.body.scopes.totals.factorSets.scope2Market).toEqual([MIX_2025?.version]);
    }
  });
});

describe('emissions by scope', () => {
  it('splits an entity’s emissions by scope, each naming its factor sets, and the scopes add to the totals', async () => {
    const res = await get(`/analytics/v2/consumption?${MARCH}&entityId=${entity.Holdings}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const scopes = res.body.scopes.totals;
    const market = 2000 * (MIX_2025?.factor ?? Number.NaN);
    expect(scopes).toMatchObject({
      scope1: 914.8,
      scope2Location: 531,
      scope3: 356.25,
      scope3Parts: { transmissionDistribution: 55.59, water: 0, waste: 0, wellToTank: 300.66 },
      totalLocation: 1802.05,
      notCovered: [],
      factorSets: {
        scope1: ['desnz-2025-v2'],
        scope2Location: ['desnz-2025-v1'],
        scope2Market: [MIX_2025?.version, 'rego-zero'].sort(),
        scope3: ['desnz-2025-v1'],
      },
    });
    expect(scopes.scope2Market).toBeCloseTo(market, 3);
    expect(scopes.totalMarket).toBeCloseTo(914.8 + market + 356.25, 3);
    expect(scopes.scope1 + scopes.scope2Location + scopes.scope3).toBeCloseTo(scopes.totalLocation, 6);
    // The month's bucket holds the same split as the window.
    expect(res.body.scopes.buckets).toEqual([{ key: '2025-03', ...scopes }]);
  });
});

describe('the cost split', () => {
  it('gives net, VAT, levy and standing charges from bill fields or charge lines, and unit rates', async () => {
    const res = await get(`/analytics/v2/consumption?${MARCH}&entityId=${entity.Holdings}`);
    expect(res.body.totals).toMatchObject({ cost: 1150, vat: 230, ccl: 23.25, standingCharge: 51 });
    expect(res.body.totals.utilities.electricity).toMatchObject({
      consumption: 3000,
      cost: 750,
      vat: 150,
      ccl: 23.25,
      standingCharge: 51,
      unitRate: 0.25,
    });
    expect(res.body.totals.utilities.gas).toMatchObject({ cost: 400, vat: 80, unitRate: 0.08 });
  });
});

describe('an entity scope', () => {
  it('sums the sites of the entity and of its child entity, and a child alone', async () => {
    const holdings = await get(`/analytics/v2/consumption?${MARCH}&entityId=${entity.Holdings}`);
    expect(holdings.body.scope).toMatchObject({
      type: 'entity',
      id: entity.Holdings,
      name: 'Holdings Ltd',
      sites: 2,
    });
    expect(holdings.body.totals.utilities.electricity?.consumption).toBe(3000);
    const offices = await get(`/analytics/v2/consumption?${MARCH}&entityId=${entity.Offices}`);
    expect(offices.body.totals.utilities.electricity?.consumption).toBe(2000);
    expect(offices.body.totals.cost).toBe(900);
    const bySite = await get(`/analytics/v2/asset-consumption?${MARCH}&entityId=${entity.Holdings}`);
    expect((bySite.body.assets ?? []).map((a) => a.siteName).sort()).toEqual(['Aldgate', 'Temple']);
  });

  it('limits a user with a site grant to their sites of the entity, and hides an entity with none', async () => {
    const token = await w.addUser('temple-only', ['asset_user'], {
      assets: { read: [site.Temple as string], write: [] },
    });
    const res = await get(`/analytics/v2/consumption?${MARCH}&entityId=${entity.Holdings}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.scope).toMatchObject({ type: 'entity', restricted: true, sites: 1 });
    expect(res.body.totals.cost).toBe(900);
    expect(res.body.totals.utilities.electricity?.consumption).toBe(2000);
    expect((await get(`/analytics/v2/consumption?${MARCH}&entityId=${entity.Other}`, token)).status).toBe(
      404,
    );
  });

  it('refuses an entity beside a site', async () => {
    const res = await get(
      `/analytics/v2/consumption?${MARCH}&entityId=${entity.Holdings}&assetId=${site.Aldgate}`,
    );
    expect(res.status).toBe(400);
  });
});
