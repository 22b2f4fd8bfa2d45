import { BatchWriteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  allAccounts,
  applyInvoiceContribution,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  listSiteYears,
} from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { type ImportWorld, startImportWorldWithMeter } from './imports-support.ts';
import { sqsEvent } from './invoices-support.ts';
import { created } from './register-support.ts';

/**
 * An import that updates meter months a restatement rewrote in another edition of the emission factors,
 * whether the restatement came before the import read the months or between its read and its write:
 * every roll-up level still comes to the sum of the months.
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

/** Whether a command writes a meter's month (not a roll-up, and not a restatement's update). */
const writesMonth = (c: unknown) => {
  const isMonth = (pk: unknown) => String(pk).includes('#consumption#');
  if (c instanceof BatchWriteCommand)
    return Object.values(c.input.RequestItems ?? {})
      .flat()
      .some((r) => isMonth(r.PutRequest?.Item?.pk));
  if (c instanceof TransactWriteCommand)
    return (c.input.TransactItems ?? []).some((t) => isMonth(t.Put?.Item?.pk));
  if (c instanceof PutCommand) return isMonth(c.input.Item?.pk);
  return false;
};

async function restater() {
  return (await import('../../functions/handlers/queue/restatements.ts')).handler as unknown as (
    event: ReturnType<typeof sqsEvent>,
  ) => Promise<SQSBatchResponse>;
}

/** Every level of the roll-ups against the months they are made of. */
async function expectLevelsEqualMonths() {
  const months = await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12');
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
  return months;
}

beforeAll(async () => {
  ({ w, owner, siteId, meterId } = await startImportWorldWithMeter({
    type: 'gas',
    meterPointNumber: '1234567890',
  }));
  groupId = await created(w.api, owner, '/asset-groups', { name: 'City', assetIds: [siteId] });
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
    const restate = await w.post(owner, '/analytics/factor-sets/restate', { factorSet: 'desnz-v1' });
    expect(restate.status).toBe(202);
    const worker = await restater();
    expect((await worker(sqsEvent(await w.drain('restatements'), 'restatements'))).batchItemFailures).toEqual(
      [],
    );
    const restated = await expectLevelsEqualMonths();
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
    const months = await expectLevelsEqualMonths();
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
    const restate = await w.post(owner, '/analytics/factor-sets/restate', { factorSet: 'desnz-v1' });
    expect(restate.status).toBe(202);
    const restatements = await w.drain('restatements');
    const worker = await restater();
    // The import has read March; before its write of it lands, the restatement runs whole.
    const client = documentClient();
    const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
    let restating: Promise<SQSBatchResponse> | undefined;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
      if (writesMonth(command)) {
        restating ??= worker(sqsEvent(restatements, 'restatements'));
        await restating;
      }
      return send(command, ...rest);
    }) as typeof client.send);
    try {
      await w.workOn(JSON.parse(imports[0] as string) as Record<string, unknown>);
    } finally {
      spy.mockRestore();
    }
    expect(restating).toBeDefined();
    expect((await restating)?.batchItemFailures).toEqual([]);
    const job = await w.get(owner, `/analytics/factor-sets/restatements/${String(restate.body.jobId)}`);
    expect(job.body).toMatchObject({ status: 'done', result: { factorSet: 'desnz-v1', months: 2 } });

    expect((await w.get(owner, `/imports/${update}`)).body).toMatchObject({
      status: 'completed',
      results: { update: 1 },
    });
    const months = await expectLevelsEqualMonths();
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
    const failing = await w.post(owner, '/analytics/factor-sets/restate', { factorSet: 'desnz-v1' });
    const bodies = await w.drain('restatements');
    const worker = await restater();
    // Every delivery rewrites May and dies on its first roll-up write; the third goes to the DLQ.
    const client = documentClient();
    const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
    const died = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      if (command instanceof UpdateCommand && String(command.input.Key?.pk).includes('#rollup#'))
        return Promise.reject(new Error('worker died'));
      return send(command, ...rest);
    }) as typeof client.send);
    try {
      for (const receiveCount of ['1', '2', '3']) {
        const event = sqsEvent(bodies, 'restatements');
        for (const r of event.Records) r.attributes.ApproximateReceiveCount = receiveCount;
        expect((await worker(event)).batchItemFailures).toHaveLength(1);
      }
    } finally {
      died.mockRestore();
    }
    expect(
      (await w.get(owner, `/analytics/factor-sets/restatements/${String(failing.body.jobId)}`)).body,
    ).toMatchObject({ status: 'failed' });

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
    const later = await w.post(owner, '/analytics/factor-sets/restate', { factorSet: 'desnz-v1' });
    expect((await worker(sqsEvent(await w.drain('restatements'), 'restatements'))).batchItemFailures).toEqual(
      [],
    );
    expect(
      (await w.get(owner, `/analytics/factor-sets/restatements/${String(later.body.jobId)}`)).body,
    ).toMatchObject({ status: 'done' });
    const months = await expectLevelsEqualMonths();
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
    const client = documentClient();
    const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
    let billing: Promise<unknown> | undefined;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
      if (writesMonth(command)) {
        billing ??= applyInvoiceContribution(
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
        await billing;
      }
      return send(command, ...rest);
    }) as typeof client.send);
    try {
      await w.workOn(JSON.parse(imports[0] as string) as Record<string, unknown>);
    } finally {
      spy.mockRestore();
    }
    expect(billing).toBeDefined();
    expect((await w.get(owner, `/imports/${update}`)).body).toMatchObject({
      status: 'completed',
      results: { error: 1, update: 0 },
    });
    const items = await w.get(owner, `/imports/${update}/items?stage=import&outcome=error`);
    expect(JSON.stringify(items.body)).toContain('already has billed figures for 2025-07');
    const months = await expectLevelsEqualMonths();
    expect(months.find((m) => m.month === '2025-07')).toMatchObject({
      consumption: 7000,
      cost: 360,
      source: 'invoice',
    });
  }, 120_000);
});
