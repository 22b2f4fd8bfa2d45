import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumptionKeys } from '../../functions/accounts/consumption-repository.ts';
import { listAccountMonths } from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { config } from '../../functions/core/config.ts';
import { dieOn } from './crash-support.ts';
import type { ImportWorld } from './imports-support.ts';
import {
  expectEveryLevel,
  levels,
  type MeterWorld,
  onThe,
  startMeterWorld,
  use,
  utf8,
  writesRollup,
} from './imports-world.ts';

/**
 * An import whose worker dies after writing a file's months, before their roll-ups, and whose message
 * SQS then delivers again: the finished import counts the months once, and its rollback takes away every
 * month it made and puts back every month it changed, the dead run's included.
 */
let world: MeterWorld;
let w: ImportWorld;
let owner: string;
let meterId: string;

/** Runs the worker on a message until `dies` says a command is its last: nothing it sends after lands. */
const dieOnMessage = (body: string, dies: (command: unknown) => boolean) =>
  dieOn(() => w.workOn(JSON.parse(body) as Record<string, unknown>), dies);

beforeAll(async () => {
  world = await startMeterWorld({ type: 'electricity', meterPointNumber: '1312345678907' }, 'Crash');
  ({ w, owner, meterId } = world);
}, 120_000);
afterAll(() => w?.stop());

describe('an import whose worker dies midway', () => {
  it('counts the months once after redelivery, and its rollback undoes all of them', async () => {
    const first = await w.upload(
      owner,
      'monthly-consumption',
      'january.csv',
      utf8('MPAN,Month,kWh,Cost\r\n1312345678907,2025-01,1000,100.00\r\n'),
    );
    expect((await w.run(owner, first, 'import')).body).toMatchObject({ status: 'completed' });
    const before = await expectEveryLevel(world, 2025, 2025, { consumption: 1000, cost: 100 });

    const id = await w.upload(
      owner,
      'monthly-consumption',
      'quarter.csv',
      utf8(
        [
          'MPAN,Month,kWh,Cost',
          '1312345678907,2025-01,1200,150.00',
          '1312345678907,2025-02,900,90.00',
          '1312345678907,2025-03,800,80.00',
        ].join('\r\n'),
      ),
    );
    expect((await w.post(owner, `/imports/${id}/import`)).status).toBe(202);
    const bodies = await w.drain('imports');
    expect(bodies).toHaveLength(1);

    // The worker dies on its first roll-up write: the months are written, and nothing it sends after lands.
    await dieOnMessage(bodies[0] as string, writesRollup);
    const months = await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12');
    expect(months.map((m) => [m.month, m.consumption])).toEqual([
      ['2025-01', 1200],
      ['2025-02', 900],
      ['2025-03', 800],
    ]);

    // SQS delivers the message again once its visibility timeout passes.
    await w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>);
    const done = await w.get(owner, `/imports/${id}`);
    expect(done.body).toMatchObject({
      status: 'completed',
      results: { rows: 3, create: 2, update: 1, unchanged: 0, error: 0 },
    });
    await expectEveryLevel(world, 2025, 2025, { consumption: 2900, cost: 320 });

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 2, restored: 1, kept: 0 },
    });
    const left = await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12');
    expect(left.map((m) => [m.month, m.consumption, m.cost])).toEqual([['2025-01', 1000, 100]]);
    expect(await levels(world, 2025, 2025)).toEqual(before);
  }, 120_000);

  it('adds the roll-ups once when the worker dies after adding them, before keeping its results', async () => {
    const id = await w.upload(
      owner,
      'monthly-consumption',
      'next-year.csv',
      utf8(
        ['MPAN,Month,kWh,Cost', '1312345678907,2026-01,500,50.00', '1312345678907,2026-02,700,70.00'].join(
          '\r\n',
        ),
      ),
    );
    expect((await w.post(owner, `/imports/${id}/import`)).status).toBe(202);
    const bodies = await w.drain('imports');
    // The worker dies as it keeps the import's row outcomes: every month and roll-up is already written.
    await dieOnMessage(bodies[0] as string, (c) => {
      if (!(c instanceof BatchWriteCommand)) return false;
      const items = Object.values(c.input.RequestItems ?? {}).flat();
      return items.some((r) => String(r.PutRequest?.Item?.sk).startsWith('import#'));
    });
    const whole = { consumption: 1200, cost: 120 };
    await expectEveryLevel(world, 2026, 2026, whole);

    await w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 2, create: 2, update: 0, unchanged: 0, error: 0 },
    });
    await expectEveryLevel(world, 2026, 2026, whole);

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 2, restored: 0 } });
    await expectEveryLevel(world, 2026, 2026, { consumption: 0, cost: 0 });
  }, 120_000);
  for (const { year, landed, what } of [
    { year: 2027, landed: 1, what: "the sites' roll-ups" },
    {
      year: 2028,
      landed: 3,
      what: "the site's, portfolio's and year's roll-ups, before the site's whole year",
    },
  ])
    it(`adds each roll-up once when the worker dies after adding ${what}`, async () => {
      const id = await w.upload(
        owner,
        'monthly-consumption',
        `year-${year}.csv`,
        utf8(
          [
            'MPAN,Month,kWh,Cost',
            `1312345678907,${year}-01,400,40.00`,
            `1312345678907,${year}-02,300,30.00`,
            `1312345678907,${year}-03,200,20.00`,
          ].join('\r\n'),
        ),
      );
      expect((await w.post(owner, `/imports/${id}/import`)).status).toBe(202);
      const bodies = await w.drain('imports');
      // The worker's first roll-up writes land; it dies on the next one, so the rest never do.
      await dieOnMessage(bodies[0] as string, onThe(landed, writesRollup));
      const partial = await levels(world, year, year);
      expect(use(partial.site)).toEqual({ consumption: 900, cost: 90 });
      expect(use(partial.company)).toEqual({ consumption: 0, cost: 0 });
      const marks = async () =>
        (
          await documentClient().send(
            new QueryCommand({
              TableName: config().tableName,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': consumptionKeys.rollupMarks(w.demoId, `import#${id}`) },
            }),
          )
        ).Count;
      expect(await marks()).toBe(landed === 1 ? 1 : 2);

      await w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>);
      expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
        status: 'completed',
        results: { rows: 3, create: 3, update: 0, unchanged: 0, error: 0 },
      });
      // Once every roll-up is added and recorded so, the chunks' markers are not kept.
      expect(await marks()).toBe(0);
      await expectEveryLevel(world, year, year, { consumption: 900, cost: 90 });

      const undone = await w.run(owner, id, 'rollback');
      expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 3, restored: 0 } });
      await expectEveryLevel(world, year, year, { consumption: 0, cost: 0 });
    }, 120_000);

  it("counts half-hourly days' months once in the roll-ups after redelivery", async () => {
    const header = ['MPAN', 'Date', ...Array.from({ length: 48 }, (_, i) => `HH${i + 1}`)];
    const ones = Array.from({ length: 48 }, () => '1').join(',');
    const id = await w.upload(
      owner,
      'half-hourly-wide',
      'days.csv',
      utf8(
        [
          header.join(','),
          ...['01/03/2027', '02/03/2027', '03/03/2027', '01/04/2027'].map(
            (d) => `1312345678907,${d},${ones}`,
          ),
        ].join('\r\n'),
      ),
    );
    expect((await w.post(owner, `/imports/${id}/import`)).status).toBe(202);
    const bodies = await w.drain('imports');
    // The worker dies on its first roll-up write, after its days (and their meter's months) are stored.
    await dieOnMessage(bodies[0] as string, writesRollup);
    expect((await levels(world, 2027, 2027)).months.consumption).toBeGreaterThanOrEqual(144);

    await w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 4, create: 4, update: 0, unchanged: 0, error: 0 },
    });
    await expectEveryLevel(world, 2027, 2027, { consumption: 192, cost: 0 });

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 4, restored: 0 } });
    await expectEveryLevel(world, 2027, 2027, { consumption: 0, cost: 0 });
  }, 120_000);
});
