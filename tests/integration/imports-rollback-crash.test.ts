import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths } from '../../functions/accounts/index.ts';
import { dieOn } from './crash-support.ts';
import type { ImportWorld } from './imports-support.ts';
import {
  expectEveryLevel,
  levels,
  type MeterWorld,
  onThe,
  startMeterWorld,
  utf8,
  writesMeterMonths,
  writesRollup,
} from './imports-world.ts';

/**
 * A rollback whose worker dies midway (partway through its months, between its months and its roll-ups,
 * or partway through its roll-ups), and whose message SQS then delivers again: the rollback finishes,
 * every month is as it was before the import, and so is every level of roll-up.
 */
let world: MeterWorld;
let w: ImportWorld;
let owner: string;

const MPAN = '1312345678907';
const monthsOf = (from: number, years: number) =>
  Array.from(
    { length: years * 12 },
    (_, i) => `${from + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
  );

/** Every level a month reaches over the years `from` to `to`, and the meter's months one by one. */
async function everything(from: number, to: number) {
  return {
    ...(await levels(world, from, to)),
    each: (await listAccountMonths(w.demoId, world.meterId, `${from}-01`, `${to}-12`)).map(
      (m) => [m.month, m.consumption, m.cost] as const,
    ),
  };
}

beforeAll(async () => {
  world = await startMeterWorld({ type: 'electricity', meterPointNumber: MPAN }, 'Rollback crash');
  ({ w, owner } = world);
}, 120_000);
afterAll(() => w?.stop());

describe('a rollback whose worker dies midway', () => {
  for (const { from, what, dies } of [
    {
      from: 2030,
      what: 'after the first hundred of its months, before the rest',
      dies: () => onThe(1, writesMeterMonths(world)),
    },
    {
      from: 2040,
      what: 'after all its months, on its first roll-up write',
      dies: () => writesRollup,
    },
    {
      from: 2050,
      what: "after some of its roll-ups (the site's months) landed",
      dies: () => onThe(2, writesRollup),
    },
  ])
    it(`finishes after redelivery when it dies ${what}, and every level is as before the import`, async () => {
      const to = from + 9;
      // Six months stored before: the import updates them and creates the other 114 of ten years.
      const earlier = await w.upload(
        owner,
        'monthly-consumption',
        `earlier-${from}.csv`,
        utf8(
          [
            'MPAN,Month,kWh,Cost',
            ...monthsOf(from, 1)
              .slice(0, 6)
              .map((m) => `${MPAN},${m},1000,100.00`),
          ].join('\r\n'),
        ),
      );
      expect((await w.run(owner, earlier, 'import')).body).toMatchObject({ status: 'completed' });
      await expectEveryLevel(world, from, to, { consumption: 6000, cost: 600 });
      const before = await everything(from, to);

      const id = await w.upload(
        owner,
        'monthly-consumption',
        `decade-${from}.csv`,
        utf8(
          ['MPAN,Month,kWh,Cost', ...monthsOf(from, 10).map((m) => `${MPAN},${m},500,50.00`)].join('\r\n'),
        ),
      );
      expect((await w.run(owner, id, 'import')).body).toMatchObject({
        status: 'completed',
        results: { rows: 120, create: 114, update: 6 },
      });
      await expectEveryLevel(world, from, to, { consumption: 60_000, cost: 6000 });

      expect((await w.post(owner, `/imports/${id}/rollback`)).status).toBe(202);
      const bodies = await w.drain('imports');
      expect(bodies).toHaveLength(1);
      const message = JSON.parse(bodies[0] as string) as Record<string, unknown>;
      await dieOn(() => w.workOn(message), dies());
      expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({ status: 'processing' });

      // SQS delivers the message again once its visibility timeout passes.
      await w.workOn(message);
      expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
        status: 'rolled-back',
        rollback: { removed: 114, restored: 6, kept: 0 },
      });
      expect(await everything(from, to)).toEqual(before);
    }, 180_000);

  it("finishes after redelivery when it dies after emptying a half-hourly import's days, before their roll-ups", async () => {
    // An emptied day leaves its meter's month at nought rather than gone: compared by their totals.
    const totals = () => levels(world, 2061, 2061);
    const before = await totals();
    const header = ['MPAN', 'Date', ...Array.from({ length: 48 }, (_, i) => `HH${i + 1}`)];
    const ones = Array.from({ length: 48 }, () => '1').join(',');
    const id = await w.upload(
      owner,
      'half-hourly-wide',
      'days-2061.csv',
      utf8(
        [
          header.join(','),
          ...['01/03/2061', '02/03/2061', '03/03/2061', '01/04/2061'].map((d) => `${MPAN},${d},${ones}`),
        ].join('\r\n'),
      ),
    );
    expect((await w.run(owner, id, 'import')).body).toMatchObject({ status: 'completed' });
    await expectEveryLevel(world, 2061, 2061, { consumption: 192, cost: 0 });

    expect((await w.post(owner, `/imports/${id}/rollback`)).status).toBe(202);
    const bodies = await w.drain('imports');
    const message = JSON.parse(bodies[0] as string) as Record<string, unknown>;
    // The days (and their meter's months) are emptied; the worker dies on adding their roll-ups.
    await dieOn(() => w.workOn(message), writesRollup);
    expect((await totals()).months).toEqual(before.months);

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 4, restored: 0, kept: 0 },
    });
    expect(await totals()).toEqual(before);
  }, 180_000);
});
