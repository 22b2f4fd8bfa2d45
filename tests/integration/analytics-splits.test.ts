import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyIntervalMonth, applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { dieOn } from './crash-support.ts';
import { type InvoiceWorld, sqsEvent, startInvoiceWorld } from './invoices-support.ts';
import { type Api, created } from './register-support.ts';

/**
 * source=invoices|readings and meterUserBreakdown, answered from the split the roll-ups keep on every
 * write, over months worked by hand (electricity, location-based 0.207 kg/kWh):
 *
 *   Bank landlord    (landlord, bills)    2025-01 bill 1000 kWh £250 207 kg; 2025-02 bill 800 kWh £200 165.6 kg
 *   Bank tenant      (tenant Café Nero,   2025-01 interval days 300 + 200 kWh, 62.1 + 41.4 kg (no cost)
 *                     readings)
 *   Holborn supply   (no user set, bills) 2025-01 bill 400 kWh £100 82.8 kg
 *
 *   Bank Q1:    combined 2300 kWh £450 476.1 kg = invoices 1800 £450 372.6 + readings 500 £0 103.5
 *   Company Q1: combined 2700 £550 558.9 = landlord 1800 £450 372.6 + tenant 500 £0 103.5 + unset 400 £100 82.8
 */
let w: InvoiceWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const account: Record<string, string> = {};
let cafe = '';
let holbornTenant = '';

const Q1 = 'startDate=2025-01-01&endDate=2025-03-31';
const fig = (consumption: number, cost: number, emissionsKg: number) => ({ consumption, cost, emissionsKg });
const NONE = fig(0, 0, 0);

type Part = { consumption: number; cost?: number; emissionsKg: number };
type Utility = Part & { users?: Record<string, Part> };
type Answer = {
  totals: { utilities: { electricity?: Utility }; cost?: number; emissionsKg: number };
  buckets: { key: string; utilities: { electricity?: Utility } }[];
};

const get = async (path: string, token = owner) => api({ method: 'GET', path, token });
/** The owner's change to a meter. */
const patchMeter = (accountId: string | undefined, body: Record<string, unknown>) =>
  api({ method: 'PATCH', path: `/accounts/${accountId}`, token: owner, body });
const electricity = (body: unknown) => (body as Answer).totals.utilities.electricity;
const figures = (u: Utility | undefined) => u && fig(u.consumption, u.cost ?? 0, u.emissionsKg);

async function bill(name: string, assetId: string, month: string, f: ReturnType<typeof fig>) {
  await applyInvoiceContribution(
    w.demoId,
    account[name] as string,
    assetId,
    newId(),
    { month, utilityType: 'electricity', unit: 'kWh', factorVersion: 'DESNZ-2025', ...f },
    1,
  );
}

beforeAll(async () => {
  w = await startInvoiceWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  for (const siteName of ['Bank', 'Holborn'])
    site[siteName] = await created(api, owner, '/assets', {
      siteName,
      entityId,
      address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC2R 8AH' },
    });
  cafe = await created(api, owner, `/assets/${site.Bank}/tenants`, {
    name: 'Café Nero',
    unit: 'Ground floor',
  });
  holbornTenant = await created(api, owner, `/assets/${site.Holborn}/tenants`, { name: 'Holborn Books' });
  account['Bank landlord'] = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: site.Bank,
    name: 'Bank landlord',
    meterUser: 'landlord',
  });
  account['Bank tenant'] = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: site.Bank,
    name: 'Bank tenant',
    meterUser: 'tenant',
    meterUserTenantId: cafe,
  });
  account['Holborn supply'] = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: site.Holborn,
    name: 'Holborn supply',
  });
  await bill('Bank landlord', site.Bank as string, '2025-01', fig(1000, 250, 207));
  await bill('Bank landlord', site.Bank as string, '2025-02', fig(800, 200, 165.6));
  await applyIntervalMonth(w.demoId, account['Bank tenant'] as string, site.Bank, {
    month: '2025-01',
    utilityType: 'electricity',
    unit: 'kWh',
    factorVersion: 'DESNZ-2025',
    days: [
      { date: '2025-01-10', consumption: 300, emissionsKg: 62.1 },
      { date: '2025-01-11', consumption: 200, emissionsKg: 41.4 },
    ],
  });
  await bill('Holborn supply', site.Holborn as string, '2025-01', fig(400, 100, 82.8));
});

afterAll(async () => w?.stop());

const writesRollup = (c: unknown) =>
  (c instanceof UpdateCommand && String(c.input.Key?.pk).includes('#rollup#')) ||
  (c instanceof TransactWriteCommand &&
    (c.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).includes('#rollup#')));

describe('source', () => {
  it("gives a site's bills with source=invoices, its meter readings with source=readings, both combined", async () => {
    const at = `/analytics/v2/consumption?${Q1}&assetId=${site.Bank}`;
    const combined = await get(`${at}&source=combined`);
    const invoices = await get(`${at}&source=invoices`);
    const readings = await get(`${at}&source=readings`);
    expect([combined.status, invoices.status, readings.status]).toEqual([200, 200, 200]);
    expect(figures(electricity(combined.body))).toEqual(fig(2300, 450, 476.1));
    expect(figures(electricity(invoices.body))).toEqual(fig(1800, 450, 372.6));
    expect(figures(electricity(readings.body))).toEqual(fig(500, 0, 103.5));
    // By month: January holds both meters, February the bill alone.
    const months = (body: unknown) =>
      (body as Answer).buckets.map((b) => [b.key, b.utilities.electricity?.consumption ?? 0]);
    expect(months(invoices.body)).toEqual([
      ['2025-01', 1000],
      ['2025-02', 800],
      ['2025-03', 0],
    ]);
    expect(months(readings.body)).toEqual([
      ['2025-01', 500],
      ['2025-02', 0],
      ['2025-03', 0],
    ]);
  });

  it('limits the company-wide call, read from the company roll-ups, the same way', async () => {
    const invoices = await get(`/analytics/v2/consumption?${Q1}&source=invoices`);
    expect(invoices.status).toBe(200);
    expect(figures(electricity(invoices.body))).toEqual(fig(2200, 550, 455.4));
    const readings = await get(`/analytics/v2/consumption?${Q1}&source=readings`);
    expect(figures(electricity(readings.body))).toEqual(fig(500, 0, 103.5));
    const site = await get(`/analytics/v2/asset-consumption?${Q1}&source=readings`);
    const bySite = (site.body as { assets: { siteName?: string; totals: Answer['totals'] }[] }).assets;
    expect(bySite.map((a) => [a.siteName, a.totals.utilities.electricity?.consumption ?? 0]).sort()).toEqual([
      ['Bank', 500],
      ['Holborn', 0],
    ]);
  });
});

describe('meterUserBreakdown', () => {
  it('splits each figure into landlord, tenant, shared and not set, adding up to it', async () => {
    const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true`);
    expect(res.status).toBe(200);
    const e = electricity(res.body);
    expect(figures(e)).toEqual(fig(2700, 550, 558.9));
    expect(e?.users).toEqual({
      landlord: fig(1800, 450, 372.6),
      tenant: fig(500, 0, 103.5),
      shared: NONE,
      unset: fig(400, 100, 82.8),
    });
    const january = (res.body as Answer).buckets.find((b) => b.key === '2025-01')?.utilities.electricity;
    expect(january?.users).toEqual({
      landlord: fig(1000, 250, 207),
      tenant: fig(500, 0, 103.5),
      shared: NONE,
      unset: fig(400, 100, 82.8),
    });
  });

  it("gives a user granted one site that site's split only", async () => {
    const token = await w.addUser('holborn-reader', ['asset_user'], {
      assets: { read: [site.Holborn as string], write: [] },
    });
    const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true`, token);
    expect(res.status).toBe(200);
    expect(electricity(res.body)?.users).toEqual({
      landlord: NONE,
      tenant: NONE,
      shared: NONE,
      unset: fig(400, 100, 82.8),
    });
    const invoices = await get(`/analytics/v2/consumption?${Q1}&source=invoices`, token);
    expect(figures(electricity(invoices.body))).toEqual(fig(400, 100, 82.8));
  });

  it("splits a site's tenant part further by tenant, by the meters naming them", async () => {
    const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true&assetId=${site.Bank}`);
    expect(res.status).toBe(200);
    const body = res.body as Answer & {
      tenants?: { tenantId: string; name?: string; totals: Answer['totals'] }[];
    };
    expect(electricity(body)?.users?.tenant).toEqual(fig(500, 0, 103.5));
    expect(body.tenants?.map((t) => [t.tenantId, t.name, figures(t.totals.utilities.electricity)])).toEqual([
      [cafe, 'Café Nero', fig(500, 0, 103.5)],
    ]);
    // Limited to bills, the tenant (read by interval data) has none.
    const bills = await get(
      `/analytics/v2/consumption?${Q1}&meterUserBreakdown=true&source=invoices&assetId=${site.Bank}`,
    );
    const limited = (bills.body as typeof body).tenants?.[0]?.totals.utilities.electricity;
    expect(figures(limited)).toEqual(NONE);
    // The company has no tenants' list: tenants are a site's.
    const company = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true`);
    expect((company.body as typeof body).tenants).toBeUndefined();
  });

  it("moves a meter's figures to its new user when the meter's user changes", async () => {
    const patched = await patchMeter(account['Bank tenant'], {
      meterUser: 'landlord',
      meterUserTenantId: null,
    });
    expect(patched.status).toBe(200);
    for (const at of ['', `&assetId=${site.Bank}`]) {
      const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true${at}`);
      const users = electricity(res.body)?.users;
      expect(users?.landlord, at).toEqual(fig(2300, 450, 476.1));
      expect(users?.tenant, at).toEqual(NONE);
    }
    // Writes after the move go to the new user.
    await bill('Bank tenant', site.Bank as string, '2025-03', fig(100, 30, 20.7));
    const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true`);
    expect(electricity(res.body)?.users?.landlord).toEqual(fig(2400, 480, 496.8));
    const readings = await get(`/analytics/v2/consumption?${Q1}&source=invoices`);
    expect(figures(electricity(readings.body))).toEqual(fig(2300, 580, 476.1));
  });
});

describe("a meter's user", () => {
  it('is kept and shown on the meter, with its tenant', async () => {
    const res = await get(`/accounts/${account['Bank landlord']}`);
    expect(res.body).toMatchObject({ meterUser: 'landlord' });
    const tenant = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: site.Bank,
      name: 'Bank second tenant',
      meterUser: 'tenant',
      meterUserTenantId: cafe,
    });
    expect((await get(`/accounts/${tenant}`)).body).toMatchObject({
      meterUser: 'tenant',
      meterUserTenantId: cafe,
    });
  });

  it('refuses bad values beside the field', async () => {
    const base = { type: 'electricity', assetId: site.Bank, name: 'Bank spare' };
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ meterUser: 'owner' }, { meterUser: 'Must be one of landlord, tenant, shared' }],
      [
        { meterUser: 'tenant', meterUserTenantId: holbornTenant },
        { meterUserTenantId: "Must be one of the tenants of the meter's site" },
      ],
      [
        { meterUser: 'landlord', meterUserTenantId: cafe },
        { meterUserTenantId: 'Only a meter a tenant uses can name its tenant: choose Tenant as its user' },
      ],
    ];
    for (const [extra, formMessages] of cases) {
      const res = await api({ method: 'POST', path: '/accounts', token: owner, body: { ...base, ...extra } });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.formMessages).toEqual(formMessages);
    }
    const patched = await patchMeter(account['Holborn supply'], {
      meterUser: 'tenant',
      meterUserTenantId: cafe,
    });
    expect(patched.status).toBe(400);
    expect(patched.body.formMessages).toEqual({
      meterUserTenantId: "Must be one of the tenants of the meter's site",
    });
    const fine = await get(
      '/analytics/v2/consumption?granularity=hourly&startDate=2025-01-01&endDate=2025-01-31&source=invoices',
    );
    expect(fine.status).toBe(400);
    expect(Object.keys(fine.body.formMessages as object)).toEqual(['source']);
  });
});

describe("a meter's user changed by a request that dies before its site's rebuild", () => {
  it('loses nothing: the next split by meter user moves the figures at site, portfolio and company', async () => {
    const portfolio = await created(api, owner, '/asset-groups', {
      name: 'Bank only',
      assetIds: [site.Bank],
    });
    // Bank tenant is the landlord's since the move above: its 500 kWh of interval data and 100 kWh bill.
    const landlordBefore = fig(2400, 480, 496.8);
    const scopes = ['', `&assetId=${site.Bank}`, `&assetGroupId=${portfolio}`];
    for (const at of scopes) {
      const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true${at}`);
      expect(electricity(res.body)?.users?.landlord, at || 'company').toEqual(landlordBefore);
    }
    // The meter is saved as Café Nero's again; the request dies on its first roll-up write.
    await dieOn(
      () => patchMeter(account['Bank tenant'], { meterUser: 'tenant', meterUserTenantId: cafe }),
      writesRollup,
    );
    expect((await get(`/accounts/${account['Bank tenant']}`)).body).toMatchObject({ meterUser: 'tenant' });
    // Within a minute the request might still be running: a reader leaves its move alone.
    expect((await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true`)).status).toBe(200);
    expect(await w.drain('restatements')).toEqual([]);
    // Once the dead request could no longer be running, a reader of the split hands its move to the
    // analytics worker, which finishes it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect((await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true`)).status).toBe(200);
      // The worker takes whatever is on its queue, as SQS would deliver it.
      const bodies = await w.drain('restatements');
      const { handler } = await import('../../functions/handlers/queue/restatements.ts');
      const worker = handler as unknown as (e: ReturnType<typeof sqsEvent>) => Promise<SQSBatchResponse>;
      if (bodies.length > 0) {
        // Its first delivery fails on its first roll-up write: the queue delivers it again.
        const client = documentClient();
        const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
        const failing = vi
          .spyOn(client, 'send')
          .mockImplementation(((c: unknown, ...rest: unknown[]) =>
            writesRollup(c) ? Promise.reject(new Error('worker failed')) : send(c, ...rest)) as never);
        try {
          expect((await worker(sqsEvent(bodies, 'restatements'))).batchItemFailures).toHaveLength(1);
        } finally {
          failing.mockRestore();
        }
        expect((await worker(sqsEvent(bodies, 'restatements'))).batchItemFailures).toEqual([]);
      }
      for (const at of scopes) {
        const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true${at}`);
        expect(res.status).toBe(200);
        const e = electricity(res.body);
        expect(e?.users?.tenant, at || 'company').toEqual(fig(600, 30, 124.2));
        expect(e?.users?.landlord, at || 'company').toEqual(fig(1800, 450, 372.6));
        expect(e?.users?.unset, at || 'company').toEqual(at ? NONE : fig(400, 100, 82.8));
        // The totals never moved.
        expect(figures(e), at || 'company').toEqual(at ? fig(2400, 480, 496.8) : fig(2800, 580, 579.6));
      }
      // Finished: no reader hands it on again.
      expect(await w.drain('restatements')).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('removing a tenant that meters name as their user', () => {
  it('is refused with the meters named, and allowed once no meter names it', async () => {
    const tenants = async () =>
      ((await get(`/assets/${site.Bank}/tenants`)).body as { data: { _id: string }[] }).data.map(
        (t) => t._id,
      );
    const refused = await api({
      method: 'DELETE',
      path: `/assets/${site.Bank}/tenants/${cafe}`,
      token: owner,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'This tenant uses 2 meters (Bank tenant, Bank second tenant): choose another tenant or none on each meter first',
    );
    expect(await tenants()).toContain(cafe);
    // The meters' figures still show under Café Nero.
    const split = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true&assetId=${site.Bank}`);
    expect((split.body as { tenants?: { name?: string }[] }).tenants?.map((t) => t.name)).toEqual([
      'Café Nero',
    ]);

    const second = (
      (await get(`/accounts?assetId=${site.Bank}&limit=100`)).body as {
        data: { _id: string; name?: string }[];
      }
    ).data.find((a) => a.name === 'Bank second tenant')?._id;
    for (const meter of [account['Bank tenant'], second]) {
      const patched = await patchMeter(meter, { meterUserTenantId: null });
      expect(patched.status).toBe(200);
    }
    const removed = await api({
      method: 'DELETE',
      path: `/assets/${site.Bank}/tenants/${cafe}`,
      token: owner,
    });
    expect(removed.status).toBe(200);
    expect(await tenants()).not.toContain(cafe);
  });
});

describe("a tenant's sub-meter under a landlord's main meter", () => {
  it("stays in the main meter's landlord part; the sub-meter's own call gives its figures", async () => {
    const entityId = await created(api, owner, '/entities', { legalName: 'Moorgate Estates Ltd' });
    const moorgate = await created(api, owner, '/assets', {
      siteName: 'Moorgate',
      entityId,
      address: { streetAddress: '2 Test Street', locality: 'London', postCode: 'EC2M 6TX' },
    });
    const pret = await created(api, owner, `/assets/${moorgate}/tenants`, { name: 'Pret' });
    const main = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: moorgate,
      name: 'Moorgate main',
      meterUser: 'landlord',
    });
    const sub = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: moorgate,
      name: 'Moorgate Pret sub-meter',
      parentAccountId: main,
      meterUser: 'tenant',
      meterUserTenantId: pret,
    });
    account['Moorgate main'] = main;
    account['Moorgate Pret sub-meter'] = sub;
    await bill('Moorgate main', moorgate, '2025-01', fig(1000, 250, 207));
    // A sub-meter's bill reaches no roll-up: its parent's figures already hold it (as bill confirmation does).
    await applyInvoiceContribution(
      w.demoId,
      sub,
      undefined,
      newId(),
      {
        month: '2025-01',
        utilityType: 'electricity',
        unit: 'kWh',
        factorVersion: 'DESNZ-2025',
        ...fig(300, 75, 62.1),
      },
      1,
    );
    const res = await get(`/analytics/v2/consumption?${Q1}&meterUserBreakdown=true&assetId=${moorgate}`);
    expect(res.status).toBe(200);
    const e = electricity(res.body);
    expect(figures(e)).toEqual(fig(1000, 250, 207));
    expect(e?.users?.landlord).toEqual(fig(1000, 250, 207));
    expect(e?.users?.tenant).toEqual(NONE);
    expect((res.body as { tenants?: unknown[] }).tenants ?? []).toEqual([]);
    const own = await get(`/analytics/v2/consumption?${Q1}&accountId=${sub}`);
    expect(figures(electricity(own.body))).toEqual(fig(300, 75, 62.1));
  });
});
