import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consumptionKeys } from '../../functions/accounts/consumption-repository.ts';
import {
  applyInvoiceContribution,
  listAccountMonths,
  listGoneMonths,
} from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { dieOn } from './crash-support.ts';
import {
  delivery,
  dyingRestatement,
  expectEveryLevel,
  expectLevelsEqualMonths,
  failRestatement,
  type MeterWorld,
  onThe,
  restate,
  restater,
  startMeterWorld,
  utf8,
  writesMeterMonths,
  writesRollup,
} from './imports-world.ts';

/**
 * What someone else does to an import's months between its worker dying and SQS delivering its message
 * again: a restatement that failed for good, a bill, another import, a rollback. Whatever happened, every
 * level of roll-up comes to the sum of the months once the import (and its rollback) finish.
 */
let world: MeterWorld;
const MPRN = '1234567890';

beforeAll(async () => {
  world = await startMeterWorld({ type: 'gas', meterPointNumber: MPRN });
}, 120_000);
afterAll(() => world?.w.stop());

const csv = (rows: readonly string[]) => utf8(['MPRN,Month,kWh,Cost', ...rows].join('\r\n'));

/** Uploads a file and queues its import, answering the import and the message SQS holds for it. */
async function queued(fileName: string, rows: readonly string[]) {
  const { w, owner } = world;
  const id = await w.upload(owner, 'monthly-consumption', fileName, csv(rows));
  expect((await w.post(owner, `/imports/${id}/import`)).status).toBe(202);
  const bodies = await w.drain('imports');
  expect(bodies).toHaveLength(1);
  return { id, message: JSON.parse(bodies[0] as string) as Record<string, unknown> };
}

async function imported(fileName: string, rows: readonly string[]) {
  const { w, owner } = world;
  const id = await w.upload(owner, 'monthly-consumption', fileName, csv(rows));
  expect((await w.run(owner, id, 'import')).body).toMatchObject({ status: 'completed' });
  return id;
}

/** A bill for a meter's month, confirmed: its share reaches the month and every roll-up. */
const bill = (month: string, consumption: number, cost: number) =>
  applyInvoiceContribution(
    world.w.demoId,
    world.meterId,
    world.siteId,
    newId(),
    {
      month,
      utilityType: 'gas',
      consumption,
      unit: 'kWh',
      cost,
      emissionsKg: Math.round(consumption * 0.18296 * 1000) / 1000,
      factorVersion: 'desnz-2025-v2',
    },
    1,
  );

describe('a rollback taking away a month a restatement recorded its change on', () => {
  it('leaves the roll-ups at the months once a later restatement finishes the failed one', async () => {
    const { w, owner } = world;
    const id = await imported('january.csv', [`${MPRN},2025-01,10000,500.00`]);
    // The first edition's natural gas factor for 2025 differs from the current one's: January is
    // restated and the change recorded on it, but never reaches the roll-ups.
    await failRestatement(world, 'desnz-v1');

    expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 0, kept: 0 },
    });
    expect(await listAccountMonths(w.demoId, world.meterId, '2025-01', '2025-12')).toEqual([]);

    // A later restatement puts on the roll-ups what the failed one changed, January included.
    expect(await restate(world, 'desnz-v1')).toMatchObject({ status: 'done' });
    const none = { consumption: 0, cost: 0, emissionsKg: 0 };
    expect((await expectLevelsEqualMonths(world, 2025)).site).toEqual(none);
    // Its change on the roll-ups, the record the month left is not kept.
    expect((await listGoneMonths(w.demoId)).size).toBe(0);
  }, 120_000);
  it('leaves the roll-ups at the months once the restatement, delivered again, finishes its own change', async () => {
    const { w, owner } = world;
    const id = await imported('march.csv', [`${MPRN},2025-03,8000,400.00`]);
    // The first delivery restates March, records its change on it, and dies before the roll-ups.
    const { jobId, bodies } = await dyingRestatement(world, 'desnz-v1', 1);

    expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 0, kept: 0 },
    });
    // SQS delivers the job again: it puts its change of March on the roll-ups, though March is gone.
    expect((await (await restater())(delivery(bodies, 2))).batchItemFailures).toEqual([]);
    expect((await w.get(owner, `/analytics/factor-sets/restatements/${jobId}`)).body).toMatchObject({
      status: 'done',
    });
    const none = { consumption: 0, cost: 0, emissionsKg: 0 };
    expect((await expectLevelsEqualMonths(world, 2025)).site).toEqual(none);
    // Its change on the roll-ups, the record the month left is not kept.
    expect((await listGoneMonths(w.demoId)).size).toBe(0);
  }, 120_000);
});

describe('an import whose worker died, redelivered after someone changed its months', () => {
  it('adds the dead run’s change of a month a bill reached before the redelivery', async () => {
    const { w, owner } = world;
    await imported('earlier-2026.csv', [`${MPRN},2026-01,1000,100.00`]);
    const { id, message } = await queued('2026.csv', [
      `${MPRN},2026-01,1200,120.00`,
      `${MPRN},2026-02,900,90.00`,
    ]);
    // The months are written; the worker dies on its first roll-up write, so none of them reaches one.
    await dieOn(() => w.workOn(message), writesRollup);
    await bill('2026-01', 100, 10);

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 2, create: 1, update: 1, error: 0 },
    });
    const months = await listAccountMonths(w.demoId, world.meterId, '2026-01', '2026-12');
    expect(months.map((m) => [m.month, m.consumption, m.cost, m.source])).toEqual([
      ['2026-01', 1300, 130, 'invoice'],
      ['2026-02', 900, 90, 'import'],
    ]);
    await expectEveryLevel(world, 2026, 2026, { consumption: 2200, cost: 220 });

    // The billed month is kept as it is; February goes.
    expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 0, kept: 1 },
    });
    await expectEveryLevel(world, 2026, 2026, { consumption: 1300, cost: 130 });
  }, 120_000);

  it('adds no change twice when some of its roll-ups landed and another import changed a month since', async () => {
    const { w, owner } = world;
    const { id, message } = await queued('2027.csv', [
      `${MPRN},2027-01,1000,100.00`,
      `${MPRN},2027-02,500,50.00`,
    ]);
    // The sites' roll-ups land; the worker dies on the next roll-up write.
    await dieOn(() => w.workOn(message), onThe(1, writesRollup));
    // Another import changes January, as the dead run left it, before SQS delivers the message again.
    const later = await imported('january-2027.csv', [`${MPRN},2027-01,1500,150.00`]);
    expect((await w.get(owner, `/imports/${later}`)).body).toMatchObject({ results: { update: 1 } });

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 2, create: 2, error: 0 },
    });
    const months = await listAccountMonths(w.demoId, world.meterId, '2027-01', '2027-12');
    expect(months.map((m) => [m.month, m.consumption, m.cost])).toEqual([
      ['2027-01', 1500, 150],
      ['2027-02', 500, 50],
    ]);
    await expectEveryLevel(world, 2027, 2027, { consumption: 2000, cost: 200 });
  }, 120_000);

  it('adds no change twice when it dies again after writing new months, its first roll-ups recorded as added', async () => {
    const { w, owner } = world;
    const earlier = await imported('earlier-2028.csv', [`${MPRN},2028-01,1000,100.00`]);
    // January is as the file has it; February is new.
    const { id, message } = await queued('2028.csv', [
      `${MPRN},2028-01,1000,100.00`,
      `${MPRN},2028-02,500,50.00`,
    ]);
    // The first run adds February's roll-ups, records so, and dies as it keeps the rows' outcomes.
    await dieOn(
      () => w.workOn(message),
      (c) =>
        c instanceof BatchWriteCommand &&
        Object.values(c.input.RequestItems ?? {})
          .flat()
          .some((r) => String(r.PutRequest?.Item?.sk).startsWith('import#')),
    );
    await expectEveryLevel(world, 2028, 2028, { consumption: 1500, cost: 150 });
    // The earlier import is rolled back: January is gone, so the import now creates it.
    expect((await w.run(owner, earlier, 'rollback')).body).toMatchObject({ status: 'rolled-back' });
    await expectEveryLevel(world, 2028, 2028, { consumption: 500, cost: 50 });
    // The second delivery writes January and dies on its first roll-up write.
    await dieOn(() => w.workOn(message), writesRollup);

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 2, create: 2, error: 0 },
    });
    await expectEveryLevel(world, 2028, 2028, { consumption: 1500, cost: 150 });

    expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 2, restored: 0, kept: 0 },
    });
    await expectEveryLevel(world, 2028, 2028, { consumption: 0, cost: 0 });
  }, 120_000);
});

/** A roll-up write under the mark of months a delivery found changed after a dead run's adds landed. */
const addsLate = (c: unknown) =>
  c instanceof TransactWriteCommand &&
  (c.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).includes('#late#'));

describe('an import whose roll-ups began to land, redelivered after someone changed a month it found as the file has it', () => {
  it('writes the month as the file has it, reports it updated, and adds its change once', async () => {
    const { w, owner } = world;
    await imported('earlier-2030.csv', [`${MPRN},2030-01,1000,100.00`]);
    // January is as the file has it; February is new.
    const { id, message } = await queued('2030.csv', [
      `${MPRN},2030-01,1000,100.00`,
      `${MPRN},2030-02,500,50.00`,
    ]);
    // The sites' roll-ups land; the worker dies on the next roll-up write.
    await dieOn(() => w.workOn(message), onThe(1, writesRollup));
    // Another import sets January to 1,500 before SQS delivers the message again.
    await imported('january-2030.csv', [`${MPRN},2030-01,1500,150.00`]);

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 2, create: 1, update: 1, unchanged: 0, error: 0 },
    });
    const months = await listAccountMonths(w.demoId, world.meterId, '2030-01', '2030-12');
    expect(months.map((m) => [m.month, m.consumption, m.cost])).toEqual([
      ['2030-01', 1000, 100],
      ['2030-02', 500, 50],
    ]);
    await expectEveryLevel(world, 2030, 2030, { consumption: 1500, cost: 150 });

    // January gets back the 1,500 it held when the import wrote it; February goes.
    expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 1, kept: 0 },
    });
    await expectEveryLevel(world, 2030, 2030, { consumption: 1500, cost: 150 });
  }, 120_000);

  it('adds that change once when the delivery that found it dies with part of it added', async () => {
    const { w, owner } = world;
    await imported('earlier-2031.csv', [`${MPRN},2031-01,1000,100.00`]);
    const { id, message } = await queued('2031.csv', [
      `${MPRN},2031-01,1000,100.00`,
      `${MPRN},2031-02,500,50.00`,
    ]);
    await dieOn(() => w.workOn(message), onThe(1, writesRollup));
    await imported('january-2031.csv', [`${MPRN},2031-01,1500,150.00`]);
    // The second delivery writes January and dies once the site's share of its change landed.
    await dieOn(() => w.workOn(message), onThe(1, addsLate));

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 2, create: 1, update: 1, unchanged: 0, error: 0 },
    });
    await expectEveryLevel(world, 2031, 2031, { consumption: 1500, cost: 150 });
    expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 1, kept: 0 },
    });
    await expectEveryLevel(world, 2031, 2031, { consumption: 1500, cost: 150 });
  }, 120_000);
});

/** Whether a command saves pages of an import's journal. */
const savesJournal = (c: unknown) =>
  c instanceof BatchWriteCommand &&
  Object.values(c.input.RequestItems ?? {})
    .flat()
    .some((r) => String(r.PutRequest?.Item?.sk).startsWith('journal#'));

/**
 * Runs `work`, and `act` once, whole, just before the first command `lands` says yes to (as another worker
 * landing between a read and a write; `act`'s own commands go through). With `dies`, answers once the
 * work dies on the first command it says yes to after `act` ran (that command and all after it never
 * land); otherwise once the work is done.
 */
async function landingThenDying(
  lands: (command: unknown) => boolean,
  act: () => Promise<unknown>,
  dies: ((command: unknown) => boolean) | undefined,
  work: () => Promise<unknown>,
): Promise<void> {
  const client = documentClient();
  const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
  let stage: 'before' | 'acting' | 'after' | 'dead' = 'before';
  const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown, ...rest: unknown[]) => {
    if (stage === 'dead') return new Promise<never>(() => undefined);
    if (stage === 'before' && lands(command)) {
      stage = 'acting';
      await act();
      stage = 'after';
    } else if (stage === 'after' && dies?.(command)) {
      stage = 'dead';
      return new Promise<never>(() => undefined);
    }
    return send(command, ...rest);
  }) as typeof client.send);
  try {
    if (!dies) {
      await work();
      expect(stage).toBe('after');
      return;
    }
    void work().catch(() => undefined);
    await vi.waitFor(
      () => {
        if (stage !== 'dead') throw new Error('The worker has not reached the command it dies on');
      },
      { timeout: 30_000 },
    );
  } finally {
    spy.mockRestore();
  }
}

describe('an import whose worker died saving its journal again after a month changed under its write', () => {
  it('moves the roll-ups from what the month held when it wrote it, and its rollback puts that back', async () => {
    const { w, owner } = world;
    await imported('earlier-2029.csv', [`${MPRN},2029-01,1000,100.00`]);
    const { id, message } = await queued('2029.csv', [`${MPRN},2029-01,1200,120.00`]);
    // Another import sets January to 1,500 between the run's read (1,000) and its write: the run reads it
    // again, writes 1,200 over 1,500, and dies saving its journal of January again.
    await landingThenDying(
      writesMeterMonths(world),
      () => imported('january-2029.csv', [`${MPRN},2029-01,1500,150.00`]),
      savesJournal,
      () => w.workOn(message),
    );
    const january = await listAccountMonths(w.demoId, world.meterId, '2029-01', '2029-01');
    expect(january.map((m) => [m.consumption, m.importId])).toEqual([[1200, id]]);

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 1, update: 1, error: 0 },
    });
    // The roll-ups moved from 1,500, not from the 1,000 the journal first named.
    await expectEveryLevel(world, 2029, 2029, { consumption: 1200, cost: 120 });

    expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 0, restored: 1, kept: 0 },
    });
    await expectEveryLevel(world, 2029, 2029, { consumption: 1500, cost: 150 });
  }, 120_000);
});

describe('a rollback landing while a restatement, delivered again, is under way', () => {
  it('leaves the roll-ups at the months once the restatement is done, the month gone before its meter was listed', async () => {
    const { w, owner } = world;
    const id = await imported('may.csv', [`${MPRN},2025-05,8000,400.00`]);
    // The first delivery restates May, records its change on it, and dies before the roll-ups.
    const { jobId, bodies } = await dyingRestatement(world, 'desnz-v1', 1);
    // Delivered again, the job has read the months taken away so far; the import is rolled back just
    // before it lists the meter's months, so May is gone from the list, its record left behind.
    const listsMeter = (c: unknown) =>
      c instanceof QueryCommand &&
      c.input.ExpressionAttributeValues?.[':pk'] === consumptionKeys.accountMonths(w.demoId, world.meterId);
    await landingThenDying(
      listsMeter,
      async () =>
        expect((await w.run(owner, id, 'rollback')).body).toMatchObject({
          status: 'rolled-back',
          rollback: { removed: 1, restored: 0, kept: 0 },
        }),
      undefined,
      async () => expect((await (await restater())(delivery(bodies, 2))).batchItemFailures).toEqual([]),
    );
    expect((await w.get(owner, `/analytics/factor-sets/restatements/${jobId}`)).body).toMatchObject({
      status: 'done',
    });
    expect(await listAccountMonths(w.demoId, world.meterId, '2025-01', '2025-12')).toEqual([]);
    const none = { consumption: 0, cost: 0, emissionsKg: 0 };
    expect((await expectLevelsEqualMonths(world, 2025)).site).toEqual(none);
    expect((await listGoneMonths(w.demoId)).size).toBe(0);
  }, 120_000);
});
