import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addHalfHourlyRollups,
  listIntervalDays,
  writeHalfHourlyDays,
} from '../../functions/analytics/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * The company's daily figures come from its meters' day totals summed by year, kept under a stamp of the
 * meters' versions. Every write of interval data (one meter at a time, as a reading arrives, or many
 * together, as an import or a connector writes them) moves the kept year by its change, so the first
 * company-wide daily read after it reads the kept year, not every meter's totals, and is right.
 *
 *   Aldgate  2025-02-03: 48 × 1 kWh = 48; then 48 × 2 = 96
 *   Temple   2025-02-03: 48 × 5 kWh = 240; 2025-02-04: 48 × 0.5 = 24
 *   Bank     (first written after the year was kept) 2025-02-04: 48 × 10 = 480
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
const meter: Record<string, string> = {};

const halfHours = (value: number) => Array.from({ length: 48 }, () => value);

interface Bucket {
  key: string;
  utilities: { electricity?: { consumption: number } };
}

/** The company's days of 3 to 5 February 2025, and how many of the meters' yearly totals the read took. */
async function companyDays() {
  const client = documentClient();
  const send = client.send.bind(client);
  let meterYearsRead = 0;
  const spy = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (command instanceof BatchGetCommand)
      for (const { Keys = [] } of Object.values(command.input.RequestItems ?? {}))
        meterYearsRead += Keys.filter((k) => String(k.pk).includes('#interval-days#')).length;
    return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
  }) as typeof client.send);
  try {
    const res = await api({
      method: 'GET',
      path: '/analytics/v2/consumption?granularity=daily&startDate=2025-02-03&endDate=2025-02-05',
      token: owner,
    });
    expect(res.status).toBe(200);
    const days = (res.body.buckets as Bucket[]).map((b) => [
      b.key,
      b.utilities.electricity?.consumption ?? 0,
    ]);
    return { days, meterYearsRead };
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  for (const siteName of ['Aldgate', 'Temple', 'Bank']) {
    const assetId = await created(api, owner, '/assets', { siteName, entityId });
    meter[siteName] = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId,
      name: `${siteName} electricity`,
    });
  }
  await writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [
    { date: '2025-02-03', values: halfHours(1) },
  ]);
  await writeHalfHourlyDays(w.demoId, meter.Temple as string, [{ date: '2025-02-03', values: halfHours(5) }]);
});

afterAll(async () => w?.stop());

describe("the company's kept daily sums", () => {
  it('follow every interval write, so the first read after one sums no meter again and is right', async () => {
    // The first read sums the two meters' years and keeps the sum.
    const first = await companyDays();
    expect(first.days).toEqual([
      ['2025-02-03', 288],
      ['2025-02-04', 0],
      ['2025-02-05', 0],
    ]);
    expect(first.meterYearsRead).toBe(2);
    expect((await companyDays()).meterYearsRead).toBe(0);

    // One meter's day written again, as a reading arrives.
    await writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [
      { date: '2025-02-03', values: halfHours(2) },
    ]);
    expect(await companyDays()).toEqual({
      days: [
        ['2025-02-03', 336],
        ['2025-02-04', 0],
        ['2025-02-05', 0],
      ],
      meterYearsRead: 0,
    });

    // Many meters together, as an import or a connector writes them, one of them never written before.
    const written = [
      await writeHalfHourlyDays(
        w.demoId,
        meter.Temple as string,
        [{ date: '2025-02-04', values: halfHours(0.5) }],
        {
          deferRollups: true,
        },
      ),
      await writeHalfHourlyDays(
        w.demoId,
        meter.Bank as string,
        [{ date: '2025-02-04', values: halfHours(10) }],
        {
          deferRollups: true,
        },
      ),
    ];
    await addHalfHourlyRollups(w.demoId, written);
    expect(await companyDays()).toEqual({
      days: [
        ['2025-02-03', 336],
        ['2025-02-04', 504],
        ['2025-02-05', 0],
      ],
      meterYearsRead: 0,
    });
  });

  it('follow writes of one meter that overlapped, one at a time or many together', async () => {
    // Two writes of one meter's year at once, as two readings arrive together.
    await Promise.all([
      writeHalfHourlyDays(w.demoId, meter.Bank as string, [{ date: '2025-02-05', values: halfHours(1) }]),
      writeHalfHourlyDays(w.demoId, meter.Bank as string, [{ date: '2025-02-04', values: halfHours(20) }]),
    ]);
    expect(await companyDays()).toEqual({
      days: [
        ['2025-02-03', 336],
        ['2025-02-04', 984],
        ['2025-02-05', 48],
      ],
      meterYearsRead: 0,
    });

    // Two parts of a file writing one meter's days at once, their changes added together.
    const parts = await Promise.all([
      writeHalfHourlyDays(w.demoId, meter.Temple as string, [{ date: '2025-02-05', values: halfHours(2) }], {
        deferRollups: true,
      }),
      writeHalfHourlyDays(w.demoId, meter.Temple as string, [{ date: '2025-02-03', values: halfHours(4) }], {
        deferRollups: true,
      }),
    ]);
    await addHalfHourlyRollups(w.demoId, parts);
    expect(await companyDays()).toEqual({
      days: [
        ['2025-02-03', 288],
        ['2025-02-04', 984],
        ['2025-02-05', 144],
      ],
      meterYearsRead: 0,
    });
  });

  it('are right after three writes of one meter at once, whether they moved the year kept or not', async () => {
    await Promise.all([
      writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [{ date: '2025-02-04', values: halfHours(1) }]),
      writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [{ date: '2025-02-05', values: halfHours(1) }]),
      writeHalfHourlyDays(w.demoId, meter.Aldgate as string, [{ date: '2025-02-03', values: halfHours(3) }]),
    ]);
    // Each day of the company is its meters' days.
    const meters = new Map<string, number>();
    for (const accountId of Object.values(meter))
      for (const d of await listIntervalDays(w.demoId, accountId, '2025-02-03', '2025-02-05'))
        meters.set(d.date, (meters.get(d.date) ?? 0) + d.total);
    expect((await companyDays()).days).toEqual(
      ['2025-02-03', '2025-02-04', '2025-02-05'].map((date) => [date, meters.get(date) ?? 0]),
    );
  });
});
