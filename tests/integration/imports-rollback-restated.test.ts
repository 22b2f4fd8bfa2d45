import type { SQSBatchResponse } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths, listAssetRollups } from '../../functions/accounts/index.ts';
import { type ImportWorld, startImportWorldWithMeter } from './imports-support.ts';
import { sqsEvent } from './invoices-support.ts';

/**
 * An imported month restated in another edition of the emission factors, then rolled back: the site's
 * roll-up loses the emissions the month held, not those the import first worked out.
 */
let w: ImportWorld;
let owner: string;
let siteId: string;
let meterId: string;

beforeAll(async () => {
  ({ w, owner, siteId, meterId } = await startImportWorldWithMeter({
    type: 'gas',
    meterPointNumber: '1234567890',
  }));
}, 120_000);
afterAll(() => w?.stop());

describe('rolling back a restated import', () => {
  it('takes away the emissions its months hold', async () => {
    const id = await w.upload(
      owner,
      'monthly-consumption',
      'gas.csv',
      new TextEncoder().encode('MPRN,Month,kWh,Cost\r\n1234567890,2025-01,10000,500.00\r\n'),
    );
    expect((await w.run(owner, id, 'import')).body).toMatchObject({ status: 'completed' });
    const emissions = async () => ({
      month: (await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12')).map((m) => m.emissionsKg),
      site: (await listAssetRollups(w.demoId, siteId, '2025-01', '2025-12')).map(
        // To the gram, and a taken-away -0 as 0.
        (r) => Math.round(r.emissionsKg * 1000) / 1000 + 0,
      ),
    });
    const imported = await emissions();

    // The first edition's natural gas factor for 2025 differs from the current one's.
    const restate = await w.post(owner, '/analytics/factor-sets/restate', { factorSet: 'desnz-v1' });
    expect(restate.status).toBe(202);
    const worker = (await import('../../functions/handlers/queue/restatements.ts')).handler as unknown as (
      event: ReturnType<typeof sqsEvent>,
    ) => Promise<SQSBatchResponse>;
    expect((await worker(sqsEvent(await w.drain('restatements'), 'restatements'))).batchItemFailures).toEqual(
      [],
    );
    const restated = await emissions();
    expect(restated.month).not.toEqual(imported.month);
    expect(restated.site).toEqual(restated.month);

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 1, kept: 0 } });
    expect(await emissions()).toEqual({ month: [], site: [0] });
  }, 120_000);
});
