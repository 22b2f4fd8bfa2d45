import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution, listAccountMonths } from '../../functions/accounts/index.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import type { ImportWorld } from './imports-support.ts';
import {
  expectLevelsEqualMonths,
  failRestatement,
  landingBefore,
  type MeterWorld,
  restate,
  restater,
  startMeterWorld,
  utf8,
  writesMonth,
} from './imports-world.ts';
import { sqsEvent } from './invoices-support.ts';

/**
 * An import that updates meter months a restatement rewrote in another edition of the emission factors,
 * whether the restatement came before the import read the months or between its read and its write:
 * every roll-up level still comes to the sum of the months.
 */
let world: MeterWorld;
let w: ImportWorld;
let owner: string;
let siteId: string;
let meterId: string;

/** Every level of the roll-ups against the months they are made of; answers the meter's 2025 months. */
async function expectLevelsEqualMonths2025() {
  await expectLevelsEqualMonths(world, 2025);
  return listAccountMonths(w.demoId, meterId, '2025-01', '2025-12');
}

beforeAll(async () => {
  world = await startMeterWorld({ type: 'gas', meterPointNumber: '1234567890' });
  ({ w, owner, siteId, meterId } = world);
}, 120_000);
afterAll(() => w?.stop());

describe('an import updating restated months', () => {
  it('moves every roll-up level by what the months held, not by today’s factors', async () => {
    const first = await w.upload(
      owner,
      'monthly-consumption',
      'january.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-01,10000,500.00\r\n'),
    );
    expect((await w.run(owner, first, 'import')).body).toMatchObject({ status: 'completed' });
    const imported = await listAccountMonths(w.demoId, meterId, '2025-01', '2025-01');

    // The first edition's natural gas factor for 2025 differs from the current one's.
    expect(await restate(world, 'desnz-v1')).toMatchObject({ status: 'done' });
    const restated = await expectLevelsEqualMonths2025();
    expect(restated.map((m) => m.emissionsKg)).not.toEqual(imported.map((m) => m.emissionsKg));

    const update = await w.upload(
      owner,
      'monthly-consumption',
      'january-again.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-01,12000,600.00\r\n'),
    );
    expect((await w.run(owner, update, 'import')).body).toMatchObject({
      status: 'completed',
      results: { update: 1 },
    });
    const months = await expectLevelsEqualMonths2025();
    expect(months.map((m) => [m.month, m.consumption, m.cost])).toEqual([['2025-01', 12000, 600]]);
  }, 120_000);

  it('reads again a month a restatement rewrote between the import’s read and its write', async () => {
    const first = await w.upload(
      owner,
      'monthly-consumption',
      'march.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-03,8000,400.00\r\n'),
    );
    expect((await w.run(owner, first, 'import')).body).toMatchObject({ status: 'completed' });
    const update = await w.upload(
      owner,
      'monthly-consumption',
      'march-again.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-03,9000,450.00\r\n'),
    );
    expect((await w.post(owner, `/imports/${update}/import`)).status).toBe(202);
    const imports = await w.drain('imports');
    expect(imports).toHaveLength(1);

    // March (and January, as the last import wrote it) is in today's factors, so a restatement to the
    // first edition rewrites it.
    const started = await w.post(owner, '/analytics/factor-sets/restate', { factorSet: 'desnz-v1' });
    expect(started.status).toBe(202);
    const restatements = await w.drain('restatements');
    const worker = await restater();
    // The import has read March; before its write of it lands, the restatement runs whole.
    const restating = await landingBefore(
      writesMonth,
      () => worker(sqsEvent(restatements, 'restatements')),
      () => w.workOn(JSON.parse(imports[0] as string) as Record<string, unknown>),
    );
    expect(restating?.batchItemFailures).toEqual([]);
    const job = await w.get(owner, `/analytics/factor-sets/restatements/${String(started.body.jobId)}`);
    expect(job.body).toMatchObject({ status: 'done', result: { factorSet: 'desnz-v1', months: 2 } });

    expect((await w.get(owner, `/imports/${update}`)).body).toMatchObject({
      status: 'completed',
      results: { update: 1 },
    });
    const months = await expectLevelsEqualMonths2025();
    expect(months.find((m) => m.month === '2025-03')).toMatchObject({ consumption: 9000, cost: 450 });
  }, 120_000);
  it('keeps on the month what a restatement that failed every delivery changed, for a later one to finish', async () => {
    const first = await w.upload(
      owner,
      'monthly-consumption',
      'may.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-05,7000,350.00\r\n'),
    );
    expect((await w.run(owner, first, 'import')).body).toMatchObject({ status: 'completed' });
    // Every delivery rewrites May and dies on its first roll-up write; the third goes to the DLQ.
    await failRestatement(world, 'desnz-v1');

    const update = await w.upload(
      owner,
      'monthly-consumption',
      'may-again.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-05,7500,375.00\r\n'),
    );
    expect((await w.run(owner, update, 'import')).body).toMatchObject({
      status: 'completed',
      results: { update: 1 },
    });
    // A later restatement puts on the roll-ups what the failed one recorded on May, and restates May again.
    expect(await restate(world, 'desnz-v1')).toMatchObject({ status: 'done' });
    const months = await expectLevelsEqualMonths2025();
    expect(months.find((m) => m.month === '2025-05')).toMatchObject({ consumption: 7500, cost: 375 });
  }, 120_000);
  it('refuses a row whose month a bill reached between the import’s read and its write, keeping the bill', async () => {
    const first = await w.upload(
      owner,
      'monthly-consumption',
      'july.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-07,6000,300.00\r\n'),
    );
    expect((await w.run(owner, first, 'import')).body).toMatchObject({ status: 'completed' });
    const update = await w.upload(
      owner,
      'monthly-consumption',
      'july-again.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-07,6500,325.00\r\n'),
    );
    expect((await w.post(owner, `/imports/${update}/import`)).status).toBe(202);
    const imports = await w.drain('imports');
    let billed = false;
    await landingBefore(
      writesMonth,
      async () => {
        await applyInvoiceContribution(
          w.demoId,
          meterId,
          siteId,
          newId(),
          {
            month: '2025-07',
            utilityType: 'gas',
            consumption: 1000,
            unit: 'kWh',
            cost: 60,
            emissionsKg: 182.96,
            factorVersion: 'desnz-2025-v2',
          },
          1,
        );
        billed = true;
      },
      () => w.workOn(JSON.parse(imports[0] as string) as Record<string, unknown>),
    );
    expect(billed).toBe(true);
    expect((await w.get(owner, `/imports/${update}`)).body).toMatchObject({
      status: 'completed',
      results: { error: 1, update: 0 },
    });
    const items = await w.get(owner, `/imports/${update}/items?stage=import&outcome=error`);
    expect(JSON.stringify(items.body)).toContain('already has billed figures for 2025-07');
    const months = await expectLevelsEqualMonths2025();
    expect(months.find((m) => m.month === '2025-07')).toMatchObject({
      consumption: 7000,
      cost: 360,
      source: 'invoice',
    });
  }, 120_000);
});
