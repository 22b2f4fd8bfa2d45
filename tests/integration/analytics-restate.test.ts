import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import type { AnalyticsAnswer } from '../../functions/analytics/analytics-service.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * Restating a company's emissions in a factor set edition, worked by hand:
 *   January 2025: 1000 kWh at 0.177 (desnz-2025-v1, the built-in edition's) = 177 kg
 *   January 2024: 1000 kWh stated at 250 kg by an earlier edition (desnz-2024-v0); the built-in edition's
 *   2024 factor is 0.20705, so restated it is 207.05 kg
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
let siteId: string;

const get = async (path: string, token = owner) => (await api({ method: 'GET', path, token })).body;
const restate = (factorSet: string, token = owner) =>
  api({ method: 'POST', path: '/analytics/factor-sets/restate', token, body: { factorSet } });
const emissionsOf = async (year: string, query = '') => {
  const answer = (await get(
    `/analytics/v2/consumption?startDate=${year}-01-01&endDate=${year}-12-31&dataType=emissions&dateBreakdown=false${query}`,
  )) as unknown as AnalyticsAnswer;
  return { kg: answer.totals.emissionsKg, sets: answer.factorVersions };
};

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  siteId = await created(api, owner, '/assets', {
    siteName: 'Aldgate',
    entityId,
    address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' },
  });
  const accountId = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: siteId,
    name: 'Main',
  });
  for (const [month, emissionsKg, factorVersion] of [
    ['2025-01', 177, 'desnz-2025-v1'],
    ['2024-01', 250, 'desnz-2024-v0'],
  ] as const) {
    await applyInvoiceContribution(
      w.demoId,
      accountId,
      siteId,
      newId(),
      {
        month,
        utilityType: 'electricity',
        consumption: 1000,
        unit: 'kWh',
        cost: 250,
        emissionsKg,
        factorVersion,
      },
      1,
    );
  }
});

afterAll(async () => w?.stop());

describe('restating emissions in a factor set', () => {
  it('is for company admins only, and leaves the figures alone when refused', async () => {
    const reader = await w.addUser('reader', ['company_user']);
    expect((await restate('desnz-v1', reader)).status).toBe(403);
    expect(await emissionsOf('2024')).toEqual({ kg: 250, sets: ['desnz-2024-v0'] });
    const bad = await restate('desnz-v9');
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toMatchObject({ factorSet: 'Must be one of desnz-v1' });
  });

  it('names the edition the figures are in and those there are', async () => {
    expect(await get('/analytics/factor-sets')).toEqual({
      current: { id: 'desnz-v1', label: expect.stringContaining('DESNZ') },
      editions: [{ id: 'desnz-v1', label: expect.stringContaining('DESNZ') }],
    });
  });

  it('recomputes months stated in other factors, in every roll-up, and logs the totals by year', async () => {
    const res = await restate('desnz-v1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      factorSet: 'desnz-v1',
      months: 1,
      years: [
        { year: '2024', beforeKg: 250, afterKg: 207.05 },
        { year: '2025', beforeKg: 177, afterKg: 177 },
      ],
    });
    expect(await emissionsOf('2024')).toEqual({ kg: 207.05, sets: ['desnz-2024-v1'] });
    expect(await emissionsOf('2024', `&assetId=${siteId}`)).toEqual({ kg: 207.05, sets: ['desnz-2024-v1'] });
    expect(await emissionsOf('2025')).toEqual({ kg: 177, sets: ['desnz-2025-v1'] });
    const log = (await get('/logs?type=restate')) as unknown as {
      data: { message?: string; modelId?: string }[];
    };
    expect(log.data).toHaveLength(1);
    expect(log.data[0]?.modelId).toBe('desnz-v1');
    expect(log.data[0]?.message).toContain('1 meter months recomputed');
    expect(log.data[0]?.message).toContain('2024: 250 kg → 207.05 kg CO2e');
    expect(log.data[0]?.message).not.toContain('2025:');
    expect((await get('/analytics/factor-sets')).current).toMatchObject({
      id: 'desnz-v1',
      restatedAt: expect.any(String),
    });
  });

  it('changes no figure when restated again in the same set', async () => {
    const before = [
      await emissionsOf('2024'),
      await emissionsOf('2025'),
      await emissionsOf('2024', `&assetId=${siteId}`),
    ];
    const res = await restate('desnz-v1');
    expect(res.body).toMatchObject({ months: 0 });
    expect([
      await emissionsOf('2024'),
      await emissionsOf('2025'),
      await emissionsOf('2024', `&assetId=${siteId}`),
    ]).toEqual(before);
    const log = (await get('/logs?type=restate')) as unknown as { data: { message?: string }[] };
    expect(log.data.map((l) => l.message)).toContainEqual(expect.stringContaining('no figure changed'));
  });
});
