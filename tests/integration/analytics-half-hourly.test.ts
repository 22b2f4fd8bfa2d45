import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  applyInvoiceContribution,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
} from '../../functions/accounts/index.ts';
import { readSummedYears } from '../../functions/analytics/analytics-half-hourly-repository.ts';
import { addHalfHourlyRollups, writeHalfHourlyDays } from '../../functions/analytics/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * Interval data worked by hand. Electricity in 2025 is 0.177 kg CO2e per kWh (DESNZ 2025, generation).
 *
 *   Aldgate meter  2025-01-06: periods 1..48 hold 0.5, 1.0, …, 24.0 kWh (k/2) = 588 kWh
 *                  2025-01-07: 48 × 2 kWh = 96 kWh, then written again as 48 × 3 kWh = 144 kWh
 *                  2025-03-30 (clocks go forward): 46 × 1 kWh
 *                  2025-10-26 (clocks go back): 50 × 1 kWh
 *   Temple meter   2025-01-06: 48 × 10 kWh = 480 kWh
 *   Temple billed  a second electricity meter with a bill of 310 kWh, £62 for January 2025: 10 kWh, £2 a day
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const site: Record<string, string> = {};
const meter: Record<string, string> = {};
let entityId: string;

const halfHours = (n: number, value: (i: number) => number) => Array.from({ length: n }, (_, i) => value(i));
const get = (path: string, token = owner) => api({ method: 'GET', path, token });

interface Bucket {
  key: string;
  utilities: { electricity?: { consumption: number; emissionsKg: number; cost?: number } };
}
const electricity = (b: Bucket | undefined) => b?.utilities.electricity?.consumption ?? 0;

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  for (const siteName of ['Aldgate', 'Temple']) {
    site[siteName] = await created(api, owner, '/assets', { siteName, entityId });
    meter[siteName] = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: site[siteName],
      name: `${siteName} electricity`,
    });
  }
  await writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [
    { date: '2025-01-06', values: halfHours(48, (i) => (i + 1) / 2) },
    { date: '2025-01-07', values: halfHours(48, () => 2) },
  ]);
  const billed = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: site.Temple,
    name: 'Temple billed',
  });
  const bill = {
    month: '2025-01',
    utilityType: 'electricity' as const,
    unit: 'kWh',
    factorVersion: 'DESNZ-2025',
  };
  await applyInvoiceContribution(
    w.demoId,
    billed,
    site.Temple,
    'bill-1',
    {
      ...bill,
      consumption: 310,
      cost: 62,
      emissionsKg: 54.87,
    },
    1,
  );
  await writeHalfHourlyDays(w.demoId, meter.Temple as string, [
    { date: '2025-01-06', values: halfHours(48, () => 10) },
  ]);
});

afterAll(async () => w?.stop());

describe('writing interval data', () => {
  it('counts a day written twice once, in the meter, its site and the company', async () => {
    const again = [{ date: '2025-01-07', values: halfHours(48, () => 3) }];
    expect((await writeHalfHourlyDays(w.demoId, meter.Aldgate as string, again)).consumptionChange).toBe(48);
    expect((await writeHalfHourlyDays(w.demoId, meter.Aldgate as string, again)).consumptionChange).toBe(0);
    const months = await listAccountMonths(w.demoId, meter.Aldgate as string, '2025-01', '2025-01');
    expect(months.map((m) => [m.month, m.consumption, m.source])).toEqual([['2025-01', 732, 'interval']]);
    const [siteMonth] = await listAssetRollups(w.demoId, site.Aldgate as string, '2025-01', '2025-01');
    expect(siteMonth).toMatchObject({ consumption: 732, unit: 'kWh' });
    expect(siteMonth?.emissionsKg).toBeCloseTo(732 * 0.177, 3);
    const [companyMonth] = await listCompanyRollups(w.demoId, '2025-01', '2025-01');
    expect(companyMonth?.consumption).toBe(732 + 480 + 310);
  });

  it('refuses a day with the wrong number of periods for its clock change, naming the day', async () => {
    await expect(
      writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [
        { date: '2025-03-30', values: halfHours(48, () => 1) },
      ]),
    ).rejects.toMatchObject({
      formMessages: {
        'days.0': '2025-03-30 has 48 half-hourly values; a day of 46 settlement periods was expected',
      },
    });
  });
});

describe('interval granularities', () => {
  it('gives daily totals equal to the sum of the 48 values, and monthly figures that hold them', async () => {
    const daily = await get(
      `/analytics/v2/consumption?accountId=${meter.Aldgate}&granularity=daily&startDate=2025-01-05&endDate=2025-01-08`,
    );
    expect(daily.status).toBe(200);
    expect(daily.body).toMatchObject({ scope: { type: 'meter', id: meter.Aldgate }, intervalMeters: 1 });
    const buckets = daily.body.buckets as Bucket[];
    expect(buckets.map((b) => [b.key, electricity(b)])).toEqual([
      ['2025-01-05', 0],
      ['2025-01-06', 588],
      ['2025-01-07', 144],
      ['2025-01-08', 0],
    ]);
    expect(buckets[1]?.utilities.electricity?.emissionsKg).toBeCloseTo(588 * 0.177, 3);
    const monthly = await get(
      `/analytics/v2/consumption?assetId=${site.Aldgate}&startDate=2025-01-01&endDate=2025-01-31`,
    );
    expect((monthly.body.totals as Bucket).utilities.electricity?.consumption).toBe(732);
  });

  it("gives the company's days from its meters' summed totals, kept and followed through every later write", async () => {
    const companyDays = async () => {
      const res = await get(
        '/analytics/v2/consumption?granularity=daily&startDate=2025-01-05&endDate=2025-01-08',
      );
      expect(res.status).toBe(200);
      return (res.body.buckets as Bucket[]).map((b) => [b.key, electricity(b)]);
    };
    // Aldgate's 588 and 144 kWh, Temple's 480 kWh and the billed meter's 10 kWh a day.
    const january = [
      ['2025-01-05', 10],
      ['2025-01-06', 1078],
      ['2025-01-07', 154],
      ['2025-01-08', 10],
    ];
    expect(await companyDays()).toEqual(january);
    const kept = await readSummedYears(w.demoId, [{ year: '2025', utilityType: 'electricity', unit: 'kWh' }]);
    expect(kept.get('2025#electricity#kWh')?.totals[5]).toBe(588 + 480);
    expect(await companyDays()).toEqual(january);
    // Temple's day written again at 20 kWh a half hour: the kept sums no longer count.
    await writeHalfHourlyDays(w.demoId, meter.Temple as string, [
      { date: '2025-01-06', values: halfHours(48, () => 20) },
    ]);
    expect((await companyDays())[1]).toEqual(['2025-01-06', 1558]);
    await writeHalfHourlyDays(w.demoId, meter.Temple as string, [
      { date: '2025-01-06', values: halfHours(48, () => 10) },
    ]);
    expect(await companyDays()).toEqual(january);
  });

  it("gives a site's days its interval meters' exact days plus its billed meters' months spread by day", async () => {
    const res = await get(
      `/analytics/v2/consumption?assetId=${site.Temple}&granularity=daily&startDate=2025-01-01&endDate=2025-01-31`,
    );
    expect(res.status).toBe(200);
    const days = res.body.buckets as Bucket[];
    expect(days).toHaveLength(31);
    expect(days[5]).toMatchObject({
      key: '2025-01-06',
      utilities: { electricity: { consumption: 490, cost: 2 } },
    });
    expect(days[6]).toMatchObject({
      key: '2025-01-07',
      utilities: { electricity: { consumption: 10, cost: 2 } },
    });
    // The month's days still add up to its roll-up: 480 + 310 kWh, £62.
    expect((res.body.totals as Bucket).utilities.electricity).toMatchObject({ consumption: 790, cost: 62 });
  });

  it('gives half-hourly and hourly figures of a site, summed over its meters', async () => {
    const half = await get(
      `/analytics/v2/consumption?assetId=${site.Aldgate}&granularity=halfhourly&startDate=2025-01-06&endDate=2025-01-06`,
    );
    expect(half.status).toBe(200);
    const periods = half.body.buckets as Bucket[];
    expect(periods).toHaveLength(48);
    expect(periods[0]).toMatchObject({
      key: '2025-01-06T00:00+00:00',
      utilities: { electricity: { consumption: 0.5 } },
    });
    expect(periods[47]).toMatchObject({
      key: '2025-01-06T23:30+00:00',
      utilities: { electricity: { consumption: 24 } },
    });
    expect(half.body.costsIncluded).toBe(false);
    const hourly = await get(
      `/analytics/v2/consumption?granularity=hourly&startDate=2025-01-06&endDate=2025-01-06`,
    );
    const hours = hourly.body.buckets as Bucket[];
    expect(hours).toHaveLength(24);
    // 00:00 holds Aldgate's 0.5 + 1.0 and Temple's 10 + 10; the billed meter has no half hours.
    expect(electricity(hours[0])).toBe(21.5);
    expect(hourly.body.intervalMeters).toBe(2);
    expect((hourly.body.totals as Bucket).utilities.electricity?.consumption).toBe(588 + 480);
  });

  it('gives 23 hours on the day clocks go forward and 25 on the day they go back', async () => {
    await writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [
      { date: '2025-03-30', values: halfHours(46, () => 1) },
      { date: '2025-10-26', values: halfHours(50, () => 1) },
    ]);
    const spring = await get(
      `/analytics/v2/consumption?accountId=${meter.Aldgate}&granularity=hourly&startDate=2025-03-30&endDate=2025-03-30`,
    );
    const springHours = spring.body.buckets as Bucket[];
    expect(springHours).toHaveLength(23);
    expect(springHours.map((b) => b.key).slice(0, 3)).toEqual([
      '2025-03-30T00:00+00:00',
      '2025-03-30T02:00+01:00',
      '2025-03-30T03:00+01:00',
    ]);
    expect((spring.body.totals as Bucket).utilities.electricity?.consumption).toBe(46);
    const autumn = await get(
      `/analytics/v2/consumption?accountId=${meter.Aldgate}&granularity=hourly&startDate=2025-10-26&endDate=2025-10-26`,
    );
    const autumnHours = autumn.body.buckets as Bucket[];
    expect(autumnHours).toHaveLength(25);
    expect(autumnHours.map((b) => b.key).slice(1, 3)).toEqual([
      '2025-10-26T01:00+01:00',
      '2025-10-26T01:00+00:00',
    ]);
    const daily = await get(
      `/analytics/v2/consumption?accountId=${meter.Aldgate}&granularity=daily&startDate=2025-03-30&endDate=2025-03-30`,
    );
    expect(electricity((daily.body.buckets as Bucket[])[0])).toBe(46);
    const [march] = await listAssetRollups(w.demoId, site.Aldgate as string, '2025-03', '2025-03');
    expect(march?.consumption).toBe(46);
  });

  it('says half-hourly figures need interval data where there is none', async () => {
    const bare = await created(api, owner, '/assets', { siteName: 'Hardman', entityId });
    const res = await get(
      `/analytics/v2/consumption?assetId=${bare}&granularity=halfhourly&startDate=2025-01-06&endDate=2025-01-06`,
    );
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      granularity:
        'Half-hourly and hourly figures need interval data, and there is none here: choose daily or coarser',
    });
  });
});

describe('what a caller may read', () => {
  it("never gives a user granted one site another site's interval data", async () => {
    const token = await w.addUser('aldgate-only', ['asset_user'], {
      assets: { read: [site.Aldgate as string], write: [] },
    });
    const day = 'granularity=halfhourly&startDate=2025-01-06&endDate=2025-01-06';
    expect((await get(`/analytics/v2/consumption?accountId=${meter.Temple}&${day}`, token)).status).toBe(404);
    expect((await get(`/analytics/v2/consumption?assetId=${site.Temple}&${day}`, token)).status).toBe(404);
    const own = await get(`/analytics/v2/consumption?${day}`, token);
    expect(own.status).toBe(200);
    expect(own.body.intervalMeters).toBe(1);
    expect((own.body.totals as Bucket).utilities.electricity?.consumption).toBe(588);
    const mine = await get(`/analytics/v2/consumption?accountId=${meter.Aldgate}&${day}`, token);
    expect(mine.status).toBe(200);
  });
});

/**
 * A bill and interval data for the same meter and month: the month's consumption and emissions come from
 * the interval data, its cost from the bill, in the meter, its site and the company, whichever comes first.
 *   Bank meter     bill for April 2025: 900 kWh, £180; then 30 days of 48 × 0.5 kWh = 720 kWh
 *   Bank second    30 days of 48 × 0.25 kWh in May 2025 = 360 kWh; then a bill for May: 400 kWh, £80
 */
describe('a meter with both bills and interval data', () => {
  const bill = (month: string, consumption: number, cost: number) => ({
    month,
    utilityType: 'electricity' as const,
    unit: 'kWh',
    factorVersion: 'desnz-2025-v1',
    consumption,
    cost,
    emissionsKg: Math.round(consumption * 0.177 * 1000) / 1000,
  });
  const monthDays = (month: string, value: number) =>
    Array.from({ length: 30 }, (_, i) => ({
      date: `${month}-${String(i + 1).padStart(2, '0')}`,
      values: halfHours(48, () => value),
    }));
  const figures = async (accountId: string, assetId: string, month: string) => {
    const [m] = await listAccountMonths(w.demoId, accountId, month, month);
    const [s] = await listAssetRollups(w.demoId, assetId, month, month);
    const [c] = await listCompanyRollups(w.demoId, month, month);
    return {
      meter: [m?.consumption, m?.cost, m?.source],
      site: [s?.consumption, s?.cost],
      siteEmissions: s?.emissionsKg ?? Number.NaN,
      company: [c?.consumption, c?.cost],
    };
  };

  it('counts the interval data, not the bill, once interval data arrives for a billed month', async () => {
    const bank = await created(api, owner, '/assets', { siteName: 'Bank', entityId });
    const account = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: bank,
      name: 'Bank',
    });
    await applyInvoiceContribution(w.demoId, account, bank, 'bank-april', bill('2025-04', 900, 180), 1);
    expect((await figures(account, bank, '2025-04')).site).toEqual([900, 180]);

    const written = await writeHalfHourlyDays(w.demoId, account, monthDays('2025-04', 0.5));
    // The bill's 900 kWh leave the figures as the 720 kWh of interval data come in.
    expect(written.consumptionChange).toBe(720 - 900);
    const april = await figures(account, bank, '2025-04');
    expect(april).toMatchObject({ meter: [720, 180, 'interval'], site: [720, 180], company: [720, 180] });
    expect(april.siteEmissions).toBeCloseTo(720 * 0.177, 3);

    // Confirming the same bill again changes nothing; withdrawing it takes its cost and leaves the energy.
    await applyInvoiceContribution(w.demoId, account, bank, 'bank-april', bill('2025-04', 900, 180), 1);
    expect((await figures(account, bank, '2025-04')).site).toEqual([720, 180]);
    await applyInvoiceContribution(w.demoId, account, bank, 'bank-april', bill('2025-04', 900, 180), -1);
    expect(await figures(account, bank, '2025-04')).toMatchObject({ site: [720, 0], company: [720, 0] });
  });

  it('adds only the cost of a bill for a month interval data already holds', async () => {
    const bank = await created(api, owner, '/assets', { siteName: 'Bank second', entityId });
    const account = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: bank,
      name: 'Bank 2',
    });
    await writeHalfHourlyDays(w.demoId, account, monthDays('2025-05', 0.25));
    await applyInvoiceContribution(w.demoId, account, bank, 'bank-may', bill('2025-05', 400, 80), 1);
    const may = await figures(account, bank, '2025-05');
    expect(may).toMatchObject({ meter: [360, 80, 'interval'], site: [360, 80], company: [360, 80] });
    expect(may.siteEmissions).toBeCloseTo(360 * 0.177, 3);
    const [month] = await listAccountMonths(w.demoId, account, '2025-05', '2025-05');
    // What the bill said is kept beside the figures, for checking one source against the other.
    expect(month).toMatchObject({ billConsumption: 400 });
  });

  it("counts a bill that lands on a month while many meters' months are written together", async () => {
    const bank = await created(api, owner, '/assets', { siteName: 'Bank third', entityId });
    const account = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: bank,
      name: 'Bank 3',
    });
    const client = documentClient();
    const send = client.send.bind(client);
    let billed = false;
    // The bill is confirmed after the months are read, before they are written.
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
      const pass = () => (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
      const monthWrite =
        command instanceof TransactWriteCommand &&
        (command.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).endsWith(account));
      if (monthWrite && !billed) {
        billed = true;
        spy.mockRestore();
        await applyInvoiceContribution(
          w.demoId,
          account,
          bank,
          'bank-september',
          bill('2025-09', 400, 80),
          1,
        );
      }
      return pass();
    }) as typeof client.send);
    let written: Awaited<ReturnType<typeof writeHalfHourlyDays>>;
    try {
      written = await writeHalfHourlyDays(
        w.demoId,
        account,
        [...monthDays('2025-08', 0.5), ...monthDays('2025-09', 0.25)],
        { deferRollups: true },
      );
    } finally {
      spy.mockRestore();
    }
    expect(billed).toBe(true);
    await addHalfHourlyRollups(w.demoId, [written]);
    expect(await figures(account, bank, '2025-08')).toMatchObject({
      meter: [720, 0, 'interval'],
      site: [720, 0],
    });
    // The bill's 400 kWh leave the figures as the interval data comes in; its £80 stays.
    expect(await figures(account, bank, '2025-09')).toMatchObject({
      meter: [360, 80, 'interval'],
      site: [360, 80],
    });
  });
});
