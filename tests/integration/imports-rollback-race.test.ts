import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths } from '../../functions/accounts/index.ts';
import type { ImportWorld } from './imports-support.ts';
import {
  expectLevelsEqualMonths,
  landingBefore,
  type MeterWorld,
  restater,
  startMeterWorld,
  utf8,
  writesMonth,
} from './imports-world.ts';
import { sqsEvent } from './invoices-support.ts';

/**
 * A restatement that rewrites an import's months after its rollback has read them and before the rollback
 * takes them away or puts back what they held: every roll-up still comes to the sum of the months.
 */
let world: MeterWorld;
let w: ImportWorld;
let owner: string;
let meterId: string;

beforeAll(async () => {
  world = await startMeterWorld({ type: 'gas', meterPointNumber: '1234567890' });
  ({ w, owner, meterId } = world);
}, 120_000);
afterAll(() => w?.stop());

describe('a restatement landing inside a rollback', () => {
  it('leaves the site, portfolio, company and site-year roll-ups equal to the months', async () => {
    const first = await w.upload(
      owner,
      'monthly-consumption',
      'february.csv',
      utf8('MPRN,Month,kWh,Cost\r\n1234567890,2025-02,8000,400.00\r\n'),
    );
    expect((await w.run(owner, first, 'import')).body).toMatchObject({ status: 'completed' });
    const id = await w.upload(
      owner,
      'monthly-consumption',
      'winter.csv',
      utf8(
        ['MPRN,Month,kWh,Cost', '1234567890,2025-01,10000,500.00', '1234567890,2025-02,9000,450.00'].join(
          '\r\n',
        ),
      ),
    );
    expect((await w.run(owner, id, 'import')).body).toMatchObject({
      status: 'completed',
      results: { create: 1, update: 1 },
    });

    // The first edition's natural gas factor for 2025 differs from the current one's.
    const restate = await w.post(owner, '/analytics/factor-sets/restate', { factorSet: 'desnz-v1' });
    expect(restate.status).toBe(202);
    const restatements = await w.drain('restatements');
    const worker = await restater();

    expect((await w.post(owner, `/imports/${id}/rollback`)).status).toBe(202);
    const rollbacks = await w.drain('imports');
    expect(rollbacks).toHaveLength(1);
    // The rollback has read the months; before any of its writes to them lands, the restatement runs whole.
    const restating = await landingBefore(
      writesMonth,
      () => worker(sqsEvent(restatements, 'restatements')),
      () => w.workOn(JSON.parse(rollbacks[0] as string) as Record<string, unknown>),
    );
    expect(restating?.batchItemFailures).toEqual([]);
    const job = await w.get(owner, `/analytics/factor-sets/restatements/${String(restate.body.jobId)}`);
    expect(job.body).toMatchObject({ status: 'done', result: { factorSet: 'desnz-v1', months: 2 } });

    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 1, kept: 0 },
    });
    const months = await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12');
    expect(months.map((m) => [m.month, m.consumption, m.cost])).toEqual([['2025-02', 8000, 400]]);
    await expectLevelsEqualMonths(world, 2025);
  }, 120_000);
});
