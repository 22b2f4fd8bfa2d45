import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import type { AnalyticsAnswer } from '../../functions/analytics/analytics-service.ts';
import { updateRaw } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * The year-on-year split of a change in emissions, worked by hand (LMDI-I, one item per utility):
 *
 *   Aldgate (100 m²) electricity  Jan 2024 1000 kWh 200 kg (0.2 kg/kWh); Jan 2025 1500 kWh 225 kg (0.15)
 *   Temple  (50 m²)  gas          Jan 2025 1000 kWh 183 kg: a new site, so 150 m² in 2025 against 100
 *
 *   electricity: L(225, 200) = 25 / ln 1.125 = 212.2547; area = L·ln 1.5 = 86.062;
 *                factor = L·ln 0.75 = −61.062; consumption per m² = L·ln(1.125 / (1.5 × 0.75)) = 0
 *   gas: nothing in 2024, so its 183 kg is all consumption
 *   change 408 − 200 = 208 = 183 (consumption) − 61.062 (factor) + 86.062 (area)
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const account: Record<string, string> = {};

async function bill(name: string, utilityType: UtilityType, month: string, kwh: number, kg: number) {
  const [siteName = ''] = name.split(' ');
  await applyInvoiceContribution(
    w.demoId,
    account[name] as string,
    site[siteName],
    newId(),
    { month, utilityType, consumption: kwh, unit: 'kWh', cost: 0, emissionsKg: kg, factorVersion: 'DESNZ' },
    1,
  );
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  for (const [siteName, floorArea] of [
    ['Aldgate', 100],
    ['Temple', 50],
  ] as const) {
    site[siteName] = await created(api, owner, '/assets', {
      siteName,
      entityId,
      address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' },
    });
    await updateRaw(keys.collection({ companyId: w.demoId }, 'assets'), site[siteName] as string, {
      floorArea,
      floorAreaUnit: 'm2',
    });
  }
  for (const name of ['Aldgate electricity', 'Temple gas']) {
    const [siteName = '', type] = name.split(' ');
    account[name] = await created(api, owner, '/accounts', { type, assetId: site[siteName], name });
  }
  await bill('Aldgate electricity', 'electricity', '2024-01', 1000, 200);
  await bill('Aldgate electricity', 'electricity', '2025-01', 1500, 225);
  await bill('Temple gas', 'gas', '2025-01', 1000, 183);
});

afterAll(async () => w?.stop());

const answerOf = (res: { body: unknown }) => res.body as AnalyticsAnswer;

const JAN = 'startDate=2025-01-01&endDate=2025-01-31&dataType=emissions';

describe('the year-on-year split of emissions', () => {
  it('splits the change into consumption, factor and floor-area effects that add up to it exactly', async () => {
    // A user reading two sites is answered site by site, so the new site's floor area is seen arriving.
    const reader = await w.addUser('site-reader', ['asset_user'], {
      assets: { read: [site.Aldgate as string, site.Temple as string], write: [] },
    });
    const res = await api({
      method: 'GET',
      path: `/analytics/v2/consumption?${JAN}&comparePeriod=year`,
      token: reader,
    });
    expect(res.status).toBe(200);
    const split = answerOf(res).comparison?.emissionsChange;
    expect(split).toEqual({
      previousKg: 200,
      currentKg: 408,
      changeKg: 208,
      consumptionKg: 183,
      factorKg: -61.062,
      areaKg: 86.062,
      floorAreaM2: { previous: 100, current: 150 },
      areaUsed: true,
    });
    expect((split?.consumptionKg ?? 0) + (split?.factorKg ?? 0) + (split?.areaKg ?? 0)).toBeCloseTo(208, 9);
    expect(split?.previousKg).toBe(answerOf(res).comparison?.totals.emissionsKg);
    expect(split?.currentKg).toBe(answerOf(res).totals.emissionsKg);
  });

  it("reads the company's roll-up for the owner: same change, floor area the same in both years", async () => {
    const res = await api({
      method: 'GET',
      path: `/analytics/v2/consumption?${JAN}&comparePeriod=year`,
      token: owner,
    });
    const split = answerOf(res).comparison?.emissionsChange;
    expect(split).toMatchObject({ previousKg: 200, currentKg: 408, changeKg: 208, areaKg: 0 });
    expect(split?.floorAreaM2).toEqual({ previous: 150, current: 150 });
    // Electricity: factor L·ln 0.75 = −61.062, consumption L·ln 1.5 = 86.062; gas 183.
    expect(split?.factorKg).toBe(-61.062);
    expect(split?.consumptionKg).toBe(269.062);
  });

  it('gives no split for another comparison, nor for consumption figures', async () => {
    const byPeriod = await api({
      method: 'GET',
      path: `/analytics/v2/consumption?${JAN}&comparePeriod=period`,
      token: owner,
    });
    expect(answerOf(byPeriod).comparison?.emissionsChange).toBeUndefined();
    const consumption = await api({
      method: 'GET',
      path: '/analytics/v2/consumption?startDate=2025-01-01&endDate=2025-01-31&comparePeriod=year',
      token: owner,
    });
    expect(answerOf(consumption).comparison?.emissionsChange).toBeUndefined();
  });
});
