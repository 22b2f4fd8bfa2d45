import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToRollups, putAccountMonth } from '../../functions/accounts/consumption-repository.ts';
import { applyInvoiceContribution, splitOf } from '../../functions/accounts/index.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * The analytics params that say where figures come from (source, detailedSource, sourceData) and who
 * uses the meters (meterUserBreakdown; answered in analytics-splits), over months worked by hand:
 *
 *   Aldgate electricity  2025-01 bill 1000 kWh £250 207 kg; 2025-02 bill 800 kWh £200 165.6 kg;
 *                        2025-03 estimated 600 kWh £150 124.2 kg
 *   Temple electricity   2025-02 imported 2000 kWh £500 414 kg
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const account: Record<string, string> = {};
const invoice: Record<string, string> = {};

const Q1 = 'startDate=2025-01-01&endDate=2025-03-31';
const fig = (consumption: number, cost: number, emissionsKg: number) => ({ consumption, cost, emissionsKg });
const NONE = fig(0, 0, 0);

async function get(path: string) {
  return api({ method: 'GET', path, token: owner });
}

async function month(name: string, m: string, source: 'estimate' | 'import', f: ReturnType<typeof fig>) {
  const figures = { ...f, unit: 'kWh' };
  await putAccountMonth(w.demoId, account[name] as string, {
    month: m,
    ...figures,
    currency: 'GBP',
    factorVersion: 'DESNZ-2025',
    source,
  });
  // As the write paths add them: split by the month's source (the meters have no user set).
  const split = splitOf(f, source === 'estimate' ? 'estimates' : 'imports', undefined);
  await addToRollups(w.demoId, site[name.split(' ')[0] ?? ''] as string, m, 'electricity', {
    ...figures,
    ...split,
  });
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  for (const siteName of ['Aldgate', 'Temple']) {
    site[siteName] = await created(api, owner, '/assets', {
      siteName,
      entityId,
      address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' },
    });
  }
  for (const name of ['Aldgate electricity', 'Temple electricity']) {
    const [siteName = ''] = name.split(' ');
    account[name] = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: site[siteName],
      name,
    });
  }
  for (const [m, consumption, cost, emissionsKg] of [
    ['2025-01', 1000, 250, 207],
    ['2025-02', 800, 200, 165.6],
  ] as const) {
    invoice[m] = newId();
    await applyInvoiceContribution(
      w.demoId,
      account['Aldgate electricity'] as string,
      site.Aldgate,
      invoice[m],
      {
        month: m,
        utilityType: 'electricity',
        consumption,
        unit: 'kWh',
        cost,
        emissionsKg,
        factorVersion: 'DESNZ-2025',
      },
      1,
    );
  }
  await month('Aldgate electricity', '2025-03', 'estimate', fig(600, 150, 124.2));
  await month('Temple electricity', '2025-02', 'import', fig(2000, 500, 414));
});

afterAll(async () => w?.stop());

type Utility = { consumption: number; cost?: number; emissionsKg: number; sources?: Record<string, object> };
type Answer = {
  totals: { utilities: { electricity: Utility } };
  buckets: { key: string; utilities: { electricity?: Utility } }[];
  sourceData?: {
    window: Record<string, unknown>;
    buckets?: { key: string; invoiceIds: string[]; meterMonths: object[]; provenance?: string }[];
  };
};

describe('detailedSource', () => {
  it('splits each figure into the parts bills, imports, readings and estimates give, adding up to it', async () => {
    const res = await get(`/analytics/v2/consumption?${Q1}&detailedSource=true`);
    expect(res.status).toBe(200);
    const body = res.body as Answer;
    const electricity = body.totals.utilities.electricity;
    expect(electricity).toMatchObject({ consumption: 4400, cost: 1100, emissionsKg: 910.8 });
    expect(electricity.sources).toEqual({
      bills: fig(1800, 450, 372.6),
      imports: fig(2000, 500, 414),
      readings: NONE,
      estimates: fig(600, 150, 124.2),
    });
    const february = body.buckets.find((b) => b.key === '2025-02')?.utilities.electricity;
    expect(february?.sources).toEqual({
      bills: fig(800, 200, 165.6),
      imports: fig(2000, 500, 414),
      readings: NONE,
      estimates: NONE,
    });
  });

  it('gives one site its own parts, and works with the estimated part beside it', async () => {
    const res = await get(
      `/analytics/v2/consumption?${Q1}&detailedSource=true&estimateBreakdown=true&assetId=${site.Aldgate}`,
    );
    expect(res.status).toBe(200);
    const electricity = (res.body as Answer).totals.utilities.electricity;
    expect(electricity).toMatchObject({
      consumption: 2400,
      estimated: { consumption: 600, cost: 150, emissionsKg: 124.2 },
    });
    expect(electricity.sources).toMatchObject({ bills: fig(1800, 450, 372.6), imports: NONE });
  });
});

describe('sourceData', () => {
  it('names the bills and other meter months behind each period, with the provenance call for a site', async () => {
    const res = await get(`/analytics/v2/consumption?${Q1}&sourceData=true&assetId=${site.Aldgate}`);
    expect(res.status).toBe(200);
    const data = (res.body as Answer).sourceData;
    const aldgate = account['Aldgate electricity'];
    expect(data?.window).toEqual({
      key: 'window',
      start: '2025-01-01',
      end: '2025-03-31',
      invoiceIds: [invoice['2025-01'], invoice['2025-02']].sort(),
      invoiceCount: 2,
      meterMonths: [{ accountId: aldgate, month: '2025-03', source: 'estimates' }],
      meterMonthCount: 1,
      provenance: `/analytics/provenance?from=2025-01-01&to=2025-03-31&assetId=${site.Aldgate}`,
    });
    expect(data?.buckets?.map((b) => [b.key, b.invoiceIds, b.meterMonths.length])).toEqual([
      ['2025-01', [invoice['2025-01']], 0],
      ['2025-02', [invoice['2025-02']], 0],
      ['2025-03', [], 1],
    ]);
    const march = data?.buckets?.[2]?.provenance ?? '';
    expect(march).toBe(`/analytics/provenance?from=2025-03-01&to=2025-03-31&assetId=${site.Aldgate}`);
    // The link is a call the caller can make.
    expect((await get(march)).status).toBe(200);
  });

  it("covers the company's imported months too, and names only the window without a date breakdown", async () => {
    const res = await get(`/analytics/v2/consumption?${Q1}&sourceData=true&dateBreakdown=false`);
    expect(res.status).toBe(200);
    const data = (res.body as Answer).sourceData;
    expect(data?.buckets).toBeUndefined();
    expect(data?.window).toMatchObject({
      invoiceCount: 2,
      meterMonths: [
        { accountId: account['Temple electricity'], month: '2025-02', source: 'imports' },
        { accountId: account['Aldgate electricity'], month: '2025-03', source: 'estimates' },
      ],
      provenance: '/analytics/provenance?from=2025-01-01&to=2025-03-31',
    });
  });
});

describe('source and meterUserBreakdown', () => {
  it('answers source=combined, and the other params at their defaults, exactly as without them', async () => {
    const plain = await get(`/analytics/v2/consumption?${Q1}`);
    const explicit = await get(
      `/analytics/v2/consumption?${Q1}&source=combined&detailedSource=false&sourceData=false&meterUserBreakdown=false`,
    );
    expect(plain.status).toBe(200);
    expect(JSON.stringify(explicit.body)).toBe(JSON.stringify(plain.body));
  });

  it('refuses what the figures cannot answer, and bad values, beside the field', async () => {
    const hourly = 'granularity=hourly&startDate=2025-01-01&endDate=2025-01-31';
    const cases: [string, Record<string, string>][] = [
      [
        `${hourly}&source=invoices`,
        {
          source: 'Bills give no half-hourly or hourly figures: choose daily or coarser, or source=readings',
        },
      ],
      ['source=foo', { source: 'Must be one of combined, invoices, readings' }],
      [
        `${hourly}&meterUserBreakdown=true`,
        {
          meterUserBreakdown:
            'Half-hourly and hourly figures are not split by meter user: choose daily or coarser',
        },
      ],
      ['meterUserBreakdown=maybe', { meterUserBreakdown: 'Must be true or false' }],
      ['detailedSource=maybe', { detailedSource: 'Must be true or false' }],
      ['sourceData=yes', { sourceData: 'Must be true or false' }],
      [
        `${hourly}&detailedSource=true`,
        {
          detailedSource:
            'Half-hourly and hourly figures come from interval data alone: choose daily or coarser',
        },
      ],
    ];
    for (const [query, formMessages] of cases) {
      const res = await get(`/analytics/v2/consumption?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.formMessages, query).toEqual(formMessages);
    }
    const epc = await get(
      '/analytics/v2/epc-ratings?sourceData=true&source=invoices&meterUserBreakdown=true',
    );
    expect(epc.status).toBe(400);
    expect(epc.body.formMessages).toEqual({
      sourceData: 'Only consumption and asset-consumption give figures by source',
      source: 'Only consumption and asset-consumption give figures by source',
      meterUserBreakdown: 'Only consumption and asset-consumption give figures by meter user',
    });
  });

  it('answers source=invoices with bills and the estimates filling their gaps, source=readings with imports', async () => {
    const invoices = await get(`/assets/${site.Aldgate}/analytics?${Q1}&source=invoices`);
    expect(invoices.status).toBe(200);
    expect((invoices.body as Answer).totals.utilities.electricity).toMatchObject(fig(2400, 600, 496.8));
    const readings = await get(`/analytics/v2/consumption?${Q1}&source=readings`);
    expect(readings.status).toBe(200);
    expect((readings.body as Answer).totals.utilities.electricity).toMatchObject(fig(2000, 500, 414));
    // With detailedSource, the parts of the source chosen only.
    const parts = await get(`/analytics/v2/consumption?${Q1}&source=readings&detailedSource=true`);
    expect((parts.body as Answer).totals.utilities.electricity?.sources).toEqual({
      bills: NONE,
      imports: fig(2000, 500, 414),
      readings: NONE,
      estimates: NONE,
    });
  });
});
