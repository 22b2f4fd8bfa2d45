import { BatchWriteCommand, DeleteCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  allAccounts,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  listSiteYears,
} from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { type ImportWorld, startImportWorldWithMeter } from './imports-support.ts';
import { sqsEvent } from './invoices-support.ts';
import { created } from './register-support.ts';

/**
 * A restatement that rewrites an import's months after its rollback has read them and before the rollback
 * takes them away or puts back what they held: every roll-up still comes to the sum of the months.
 */
let w: ImportWorld;
let owner: string;
let siteId: string;
let meterId: string;
let groupId: string;

const utf8 = (text: string) => new TextEncoder().encode(text);
const round3 = (v: number) => Math.round(v * 1000) / 1000;
/** To the gram and the penny, and a taken-away -0 as 0. */
const sum = (rows: readonly { consumption: number; cost: number; emissionsKg: number }[]) => ({
  consumption: round3(rows.reduce((n, r) => n + Number(r.consumption), 0)) + 0,
  cost: Math.round(rows.reduce((n, r) => n + Number(r.cost), 0) * 100) / 100 + 0,
  emissionsKg: round3(rows.reduce((n, r) => n + Number(r.emissionsKg), 0)) + 0,
});

/** Whether a command writes or removes a meter's month (not a roll-up, and not a restatement's update). */
const writesMonth = (c: unknown) => {
  const isMonth = (pk: unknown) => String(pk).includes('#consumption#');
  if (c instanceof BatchWriteCommand)
    return Object.values(c.input.RequestItems ?? {})
      .flat()
      .some((r) => isMonth(r.DeleteRequest?.Key?.pk ?? r.PutRequest?.Item?.pk));
  if (c instanceof TransactWriteCommand)
    return (c.input.TransactItems ?? []).some((t) => isMonth(t.Delete?.Key?.pk ?? t.Put?.Item?.pk));
  if (c instanceof DeleteCommand) return isMonth(c.input.Key?.pk);
  if (c instanceof PutCommand) return isMonth(c.input.Item?.pk);
  return false;
};

beforeAll(async () => {
  ({ w, owner, siteId, meterId } = await startImportWorldWithMeter({
    type: 'gas',
    meterPointNumber: '1234567890',
  }));
  groupId = await created(w.api, owner, '/asset-groups', { name: 'City', assetIds: [siteId] });
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
    const restater = (await import('../../functions/handlers/queue/restatements.ts')).handler as unknown as (
      event: ReturnType<typeof sqsEvent>,
    ) => Promise<SQSBatchResponse>;

    expect((await w.post(owner, `/imports/${id}/rollback`)).status).toBe(202);
    const rollbacks = await w.drain('imports');
    expect(rollbacks).toHaveLength(1);
    // The rollback has read the months; before any of its writes to them lands, the restatement runs whole.
    const client = documentClient();
    const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
    let restating: Promise<SQSBatchResponse> | undefined;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
      if (writesMonth(command)) {
        restating ??= restater(sqsEvent(restatements, 'restatements'));
        await restating;
      }
      return send(command, ...rest);
    }) as typeof client.send);
    try {
      await w.workOn(JSON.parse(rollbacks[0] as string) as Record<string, unknown>);
    } finally {
      spy.mockRestore();
    }
    expect(restating).toBeDefined();
    expect((await restating)?.batchItemFailures).toEqual([]);
    const job = await w.get(owner, `/analytics/factor-sets/restatements/${String(restate.body.jobId)}`);
    expect(job.body).toMatchObject({ status: 'done', result: { factorSet: 'desnz-v1', months: 2 } });

    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 1, kept: 0 },
    });
    const months = await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12');
    expect(months.map((m) => [m.month, m.consumption, m.cost])).toEqual([['2025-02', 8000, 400]]);
    const meter = sum(months);
    expect(sum(await listAssetRollups(w.demoId, siteId, '2025-01', '2025-12'))).toEqual(meter);
    expect(sum(await listPortfolioRollups(w.demoId, groupId, '2025-01', '2025-12'))).toEqual(meter);
    const year = (await listSiteYears(w.demoId, 2025, 2025)).filter(
      (y) => y.assetId === siteId && y.utilityType === 'gas',
    );
    expect(sum(year)).toEqual(meter);
    const everyMonth = [];
    for (const account of await allAccounts(w.demoId))
      everyMonth.push(...(await listAccountMonths(w.demoId, account._id, '2025-01', '2025-12')));
    expect(sum(await listCompanyRollups(w.demoId, '2025-01', '2025-12'))).toEqual(sum(everyMonth));
  }, 120_000);
});
