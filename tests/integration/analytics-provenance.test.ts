import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addToRollups, putAccountMonth } from '../../functions/accounts/consumption-repository.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import type { StoredItem } from '../../functions/core/data/item-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { confirmInvoice } from '../../functions/invoices/invoice-confirm.ts';
import { putInvoice } from '../../functions/invoices/invoice-repository.ts';
import type {
  ProvenanceAnswer,
  ProvenanceBill,
  ProvenanceFigure,
  ProvenanceMeter,
} from '../../shared/schemas/provenance.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * Where a figure comes from, worked by hand. Bills go through confirmation as users confirm them, so
 * each is shared over its months by days and its emissions taken at its months' DESNZ factors:
 *
 *   Aldgate electricity  B1 15 Jan – 14 Feb 2025 (31 days) 3100 kWh £620: Jan 17 days, Feb 14 days
 *                        B2 15 Feb – 14 Mar 2025 (28 days) 2800 kWh £560: Feb 14 days, Mar 14 days
 *   Aldgate gas          Feb 2025 estimated for a missing bill: 500 kWh £50 91.155 kg
 *   Temple electricity   B3 17 Dec 2024 – 15 Jan 2025 (30 days) 3000 kWh £600: Dec 15 days, Jan 15 days
 *                        B4 1 – 28 Feb 2025 1000 kWh £200
 *
 * Electricity 2025 is 0.177 kg/kWh (desnz-2025-v1), 2024 is 0.20705 (desnz-2024-v1). February at
 * Aldgate: B1 1400 kWh £280 247.8 kg + B2 1400 kWh £280 247.8 kg = 2800 kWh £560 495.6 kg.
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const account: Record<string, string> = {};
const billId: Record<string, string> = {};

const FEB = 'from=2025-02-01&to=2025-02-28';
const TOTAL_BOX = { Left: 0.62, Top: 0.71, Width: 0.2, Height: 0.03 };

async function bill(
  name: string,
  key: string,
  period: [string, string],
  consumption: number,
  netTotal: number,
) {
  const id = newId();
  billId[key] = id;
  const grossTotal = Math.round(netTotal * 120) / 100;
  const invoice: StoredItem = {
    _id: id,
    companyId: w.demoId,
    accountId: account[name],
    status: 'captured',
    completed: false,
    invoiceNumber: `INV-${key}`,
    fileName: `${key}.pdf`,
    key: `invoices/${w.demoId}/${id}/${key}.pdf`,
    values: {
      startDate: period[0],
      endDate: period[1],
      consumption,
      consumptionUnit: 'kWh',
      netTotal,
      grossTotal,
      openingRead: 10_000,
      closingRead: 10_000 + consumption,
    },
    results: {
      values: {
        grossTotal: { value: grossTotal, text: `£${grossTotal}`, page: 1, bbox: TOTAL_BOX, confidence: 99 },
        netTotal: { value: netTotal, text: `£${netTotal}`, page: 1, confidence: 99 },
      },
    },
  };
  await putInvoice(w.demoId, invoice);
  await confirmInvoice(w.demoId, invoice, 'owner');
}

async function provenance(query: string, token = owner) {
  return api({ method: 'GET', path: `/analytics/provenance?${query}`, token });
}

const meterOf = (body: ProvenanceAnswer, name: string): ProvenanceMeter => {
  const found = body.sites.flatMap((s) => s.meters ?? []).find((m) => m._id === account[name]);
  if (!found) throw new Error(`No meter ${name}`);
  return found;
};
const billOf = (meter: ProvenanceMeter, key: string): ProvenanceBill => {
  const found = meter.bills.find((b) => b.invoiceId === billId[key]);
  if (!found) throw new Error(`No bill ${key}`);
  return found;
};
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** The parts of a meter, added up: its bills' parts and what no bill holds. */
function sumOfParts(meter: ProvenanceMeter): Omit<ProvenanceFigure, 'unit'> {
  const parts = [...meter.bills.map((b) => b.part), ...meter.others.map((o) => o.part)];
  return {
    consumption: r3(parts.reduce((s, p) => s + p.consumption, 0)),
    cost: r3(parts.reduce((s, p) => s + (p.cost ?? 0), 0)),
    emissionsKg: r3(parts.reduce((s, p) => s + p.emissionsKg, 0)),
  };
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
  for (const name of ['Aldgate electricity', 'Aldgate gas', 'Temple electricity']) {
    const [siteName = '', type] = name.split(' ');
    account[name] = await created(api, owner, '/accounts', { type, assetId: site[siteName], name });
  }
  await bill('Aldgate electricity', 'B1', ['2025-01-15', '2025-02-14'], 3100, 620);
  await bill('Aldgate electricity', 'B2', ['2025-02-15', '2025-03-14'], 2800, 560);
  await bill('Temple electricity', 'B3', ['2024-12-17', '2025-01-15'], 3000, 600);
  await bill('Temple electricity', 'B4', ['2025-02-01', '2025-02-28'], 1000, 200);
  const estimate = { consumption: 500, unit: 'kWh', cost: 50, emissionsKg: 91.155 };
  await putAccountMonth(w.demoId, account['Aldgate gas'] as string, {
    month: '2025-02',
    ...estimate,
    currency: 'GBP',
    factorVersion: 'desnz-2025-v1',
    source: 'estimate',
  });
  await addToRollups(w.demoId, site.Aldgate as string, '2025-02', 'gas', estimate);
}, 60_000);

afterAll(async () => w?.stop());

describe('a site’s figure, meter by meter and bill by bill', () => {
  it('gives each bill crossing a month end its share by days, and the parts add up to the figure', async () => {
    const res = await provenance(`${FEB}&assetId=${site.Aldgate}`);
    expect(res.status).toBe(200);
    const body = res.body as unknown as ProvenanceAnswer;
    expect(body.level).toBe('site');
    const electricity = meterOf(body, 'Aldgate electricity');
    const b1 = billOf(electricity, 'B1');
    expect(b1).toMatchObject({
      invoiceNumber: 'INV-B1',
      period: { start: '2025-01-15', end: '2025-02-14' },
      days: 31,
      daysInWindow: 14,
      share: 0.451613,
      bill: { consumption: 3100, unit: 'kWh', netTotal: 620, grossTotal: 744 },
      part: { consumption: 1400, unit: 'kWh', cost: 280, emissionsKg: 247.8 },
    });
    expect(billOf(electricity, 'B2')).toMatchObject({
      days: 28,
      daysInWindow: 14,
      share: 0.5,
      part: { consumption: 1400, cost: 280, emissionsKg: 247.8 },
    });
    expect(electricity.figure).toEqual({ consumption: 2800, unit: 'kWh', cost: 560, emissionsKg: 495.6 });
    expect(sumOfParts(electricity)).toEqual({ consumption: 2800, cost: 560, emissionsKg: 495.6 });

    const gas = meterOf(body, 'Aldgate gas');
    expect(gas.bills).toEqual([]);
    expect(gas.others).toEqual([
      {
        kind: 'estimate',
        month: '2025-02',
        part: { consumption: 500, unit: 'kWh', cost: 50, emissionsKg: 91.155 },
        factorVersion: 'desnz-2025-v1',
      },
    ]);
    const expectedSite = {
      utilities: {
        electricity: { consumption: 2800, unit: 'kWh', cost: 560, emissionsKg: 495.6 },
        gas: { consumption: 500, unit: 'kWh', cost: 50, emissionsKg: 91.155 },
      },
      cost: 610,
      emissionsKg: 586.755,
    };
    expect(body.sites[0]?.figure).toEqual(expectedSite);
    expect(body.figure).toEqual(expectedSite);
    // The figure Insights shows for the same site and month is the one taken apart.
    const insights = await api({
      method: 'GET',
      path: `/analytics/v2/consumption?startDate=2025-02-01&endDate=2025-02-28&assetId=${site.Aldgate}`,
      token: owner,
    });
    // Insights adds each utility's unit rate (net cost per kWh) to the same figure.
    expect(insights.body.totals).toEqual({
      ...expectedSite,
      utilities: {
        electricity: { ...expectedSite.utilities.electricity, unitRate: 0.2 },
        gas: { ...expectedSite.utilities.gas, unitRate: 0.1 },
      },
    });
  });

  it('takes the January side of the same bill in January', async () => {
    const res = await provenance(`from=2025-01-01&to=2025-01-31&accountId=${account['Aldgate electricity']}`);
    const meter = meterOf(res.body as unknown as ProvenanceAnswer, 'Aldgate electricity');
    expect(meter.bills.map((b) => b.invoiceNumber)).toEqual(['INV-B1']);
    expect(billOf(meter, 'B1')).toMatchObject({
      daysInWindow: 17,
      part: { consumption: 1700, cost: 340, emissionsKg: 300.9 },
    });
  });

  it('names the factor and its version, one per year for a bill across a year end', async () => {
    const res = await provenance(`from=2024-12-01&to=2025-01-31&accountId=${account['Temple electricity']}`);
    expect(res.status).toBe(200);
    const body = res.body as unknown as ProvenanceAnswer;
    expect(body.level).toBe('meter');
    const b3 = billOf(meterOf(body, 'Temple electricity'), 'B3');
    // 1500 kWh at 0.20705 in December 2024 and 1500 kWh at 0.177 in January 2025.
    expect(b3.months).toEqual([
      {
        month: '2024-12',
        consumption: 1500,
        cost: 300,
        emissionsKg: 310.575,
        factorVersion: 'desnz-2024-v1',
      },
      { month: '2025-01', consumption: 1500, cost: 300, emissionsKg: 265.5, factorVersion: 'desnz-2025-v1' },
    ]);
    expect(b3.part).toEqual({ consumption: 3000, unit: 'kWh', cost: 600, emissionsKg: 576.075 });
    expect(b3.factors).toEqual([
      {
        value: 0.20705,
        unit: 'kWh',
        activity: 'generation',
        scope: 2,
        year: 2024,
        set: 'UK Government GHG Conversion Factors for Company Reporting (DESNZ) 2024',
        version: 'desnz-2024-v1',
      },
      {
        value: 0.177,
        unit: 'kWh',
        activity: 'generation',
        scope: 2,
        year: 2025,
        set: 'UK Government GHG Conversion Factors for Company Reporting (DESNZ) 2025',
        version: 'desnz-2025-v1',
      },
    ]);
  });

  it("names a 2022 bill's own 2022 factor, with no borrowed-year note", async () => {
    await bill('Temple electricity', 'B5', ['2022-06-01', '2022-06-30'], 1000, 200);
    const res = await provenance(`from=2022-06-01&to=2022-06-30&accountId=${account['Temple electricity']}`);
    const b5 = billOf(meterOf(res.body as unknown as ProvenanceAnswer, 'Temple electricity'), 'B5');
    // BEIS 2022 condensed set v2.0, UK electricity!F24: 0.19338 kg/kWh (2023's 0.20707 stood in before, with
    // "no 2022 figure: the 2023 factor stands in" beside it).
    expect(b5.part).toEqual({ consumption: 1000, unit: 'kWh', cost: 200, emissionsKg: 193.38 });
    expect(b5.factors).toEqual([
      {
        value: 0.19338,
        unit: 'kWh',
        activity: 'generation',
        scope: 2,
        year: 2022,
        set: 'UK Government GHG Conversion Factors for Company Reporting (DESNZ) 2022 (published by BEIS), condensed set v2.0 and flat file v3.0',
        version: 'desnz-2022-v2',
      },
    ]);
  });

  it('says who confirmed each bill and when, where its total was read, and its reads', async () => {
    const res = await provenance(`${FEB}&accountId=${account['Temple electricity']}`);
    const b4 = billOf(meterOf(res.body as unknown as ProvenanceAnswer, 'Temple electricity'), 'B4');
    expect(b4.confirmation).toMatchObject({
      how: 'confirmed',
      by: { sub: 'owner', name: 'owner@demo.test' },
    });
    expect(Date.parse(String(b4.confirmation.at))).toBeGreaterThan(Date.now() - 10 * 60_000);
    // The total's box was kept by capture; the net total's was not, so only the total can be shown.
    expect(b4.positions).toEqual({ grossTotal: { page: 1, bbox: TOTAL_BOX, text: '£240' } });
    expect(b4.readings).toEqual([
      { openingRead: 10_000, closingRead: 11_000, readType: 'actual', date: '2025-02-28' },
    ]);
    expect(b4.hasDocument).toBe(true);
  });

  it("lists the company's sites with their figures, which add up to the company's", async () => {
    const res = await provenance(FEB);
    const body = res.body as unknown as ProvenanceAnswer;
    expect(body.level).toBe('company');
    expect(body.sites.map((s) => [s.siteName, s.figure.cost, s.figure.emissionsKg])).toEqual([
      ['Aldgate', 610, 586.755],
      ['Temple', 200, 177],
    ]);
    expect(body.sites.every((s) => s.meters === undefined)).toBe(true);
    expect(body.figure).toMatchObject({ cost: 810, emissionsKg: 763.755 });
  });
});

describe('a site whose roll-ups drifted from its meters', () => {
  it('gives the roll-up Insights reads beside the meters’ sum, so the difference shows', async () => {
    const aldgate = (await provenance(`${FEB}&assetId=${site.Aldgate}`)).body as unknown as ProvenanceAnswer;
    expect(aldgate.sites[0]?.recorded).toEqual(aldgate.sites[0]?.figure);
    // 100 kWh counted in Temple's roll-up that no meter month holds.
    await addToRollups(w.demoId, site.Temple as string, '2025-02', 'electricity', {
      consumption: 100,
      unit: 'kWh',
      cost: 20,
      emissionsKg: 17.7,
    });
    const temple = (await provenance(`${FEB}&assetId=${site.Temple}`)).body as unknown as ProvenanceAnswer;
    expect(temple.sites[0]?.figure).toMatchObject({ cost: 200, emissionsKg: 177 });
    expect(temple.sites[0]?.recorded).toMatchObject({ cost: 220, emissionsKg: 194.7 });
  });
});

describe('what a caller may read', () => {
  it('answers a site outside a user’s grants as it answers an unknown one', async () => {
    const token = await w.addUser('aldgate-only', ['asset_user'], {
      assets: { read: [site.Aldgate as string], write: [] },
    });
    const own = await provenance(`${FEB}&assetId=${site.Aldgate}`, token);
    expect(own.status).toBe(200);
    const outside = await provenance(`${FEB}&assetId=${site.Temple}`, token);
    const unknown = await provenance(`${FEB}&assetId=${newId()}`, token);
    expect(outside.status).toBe(404);
    expect(unknown.status).toBe(404);
    const { correlationId: _a, ...hidden } = outside.body;
    const { correlationId: _b, ...missing } = unknown.body;
    expect(hidden).toEqual(missing);
    expect((await provenance(`${FEB}&accountId=${account['Temple electricity']}`, token)).status).toBe(404);
    const company = (await provenance(FEB, token)).body as unknown as ProvenanceAnswer;
    expect(company.sites.map((s) => s.siteName)).toEqual(['Aldgate']);
    expect(company.figure.cost).toBe(610);
  });

  it('refuses a bad window, id or utility field by field', async () => {
    const cases: [string, Record<string, string>][] = [
      ['from=2025-02-28&to=2025-02-01', { to: 'Must be on or after from' }],
      ['from=2020-01-01&to=2025-01-01', { to: 'The window is at most three years' }],
      ['from=2025-02-30&to=2025-03-01', { from: 'Must be a date as YYYY-MM-DD' }],
      [`${FEB}&assetId=aldgate`, { assetId: 'Must be a valid id' }],
      [`${FEB}&utilityType=steam`, { utilityType: expect.stringMatching(/^Invalid option/) }],
    ];
    for (const [query, formMessages] of cases) {
      const res = await provenance(query);
      expect(res.status, query).toBe(400);
      expect(res.body.formMessages, query).toEqual(formMessages);
    }
    const garbage = [
      '',
      'from=not-a-date&to=2025-13-45&assetId=..%2Fx&accountId=',
      `${FEB}&assetId=${'k'.repeat(3000)}&accountId=${'k'.repeat(3000)}`,
      `${FEB}&__proto__[polluted]=1&utilityType=%00`,
    ];
    for (const query of garbage) expect((await provenance(query)).status, query).toBe(400);
  });
});

describe('a company of many sites', () => {
  it("reads every site's figure for any window from the site years, not a query per site", async () => {
    const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Retail Ltd' });
    const shops: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await created(api, owner, '/assets', {
        siteName: `Shop ${String(i).padStart(2, '0')}`,
        entityId,
        address: { streetAddress: `${i + 1} High Street`, locality: 'London', postCode: 'EC3N 1DL' },
      });
      shops.push(id);
      // March: 3100 kWh £620 548.7 kg; April: 3000 kWh £600 531 kg.
      const figures = (consumption: number, cost: number, emissionsKg: number) => ({
        consumption,
        unit: 'kWh',
        cost,
        emissionsKg,
      });
      await addToRollups(w.demoId, id, '2025-03', 'electricity', figures(3100, 620, 548.7));
      await addToRollups(w.demoId, id, '2025-04', 'electricity', figures(3000, 600, 531));
    }
    // 15 March to 14 April: 17 of March's 31 days and 14 of April's 30.
    const window = 'from=2025-03-15&to=2025-04-14';
    await provenance(window);
    const client = documentClient();
    const send = client.send.bind(client);
    const perSite: string[] = [];
    const reads = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      if (command instanceof QueryCommand) {
        const pk = String(command.input.ExpressionAttributeValues?.[':pk'] ?? '');
        if (pk.includes('#rollup#asset#')) perSite.push(pk);
      }
      return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof client.send);
    let body: ProvenanceAnswer;
    try {
      body = (await provenance(window)).body as unknown as ProvenanceAnswer;
    } finally {
      reads.mockRestore();
    }
    expect(perSite).toEqual([]);
    expect(body.level).toBe('company');
    const shopFigures = body.sites.filter((s) => shops.includes(s._id));
    expect(shopFigures).toHaveLength(20);
    for (const s of shopFigures)
      expect(s.figure).toMatchObject({
        cost: 620,
        emissionsKg: 548.7,
        utilities: { electricity: { consumption: 3100, unit: 'kWh', cost: 620, emissionsKg: 548.7 } },
      });
  }, 120_000);
});
