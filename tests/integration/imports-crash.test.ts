import { BatchWriteCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consumptionKeys } from '../../functions/accounts/consumption-repository.ts';
import {
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  listSiteYears,
  listWholeSiteYears,
} from '../../functions/accounts/index.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { config } from '../../functions/core/config.ts';
import { type ImportWorld, startImportWorldWithMeter } from './imports-support.ts';
import { created } from './register-support.ts';

/**
 * An import whose worker dies after writing a file's months, before their roll-ups, and whose message
 * SQS then delivers again: the finished import counts the months once, and its rollback takes away every
 * month it made and puts back every month it changed, the dead run's included.
 */
let w: ImportWorld;
let owner: string;
let siteId: string;
let meterId: string;

const utf8 = (text: string) => new TextEncoder().encode(text);
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const sum = (rows: readonly { consumption: number; cost: number }[]) => ({
  consumption: round3(rows.reduce((n, r) => n + Number(r.consumption), 0)),
  cost: Math.round(rows.reduce((n, r) => n + Number(r.cost), 0) * 100) / 100,
});
const figuresOf = async (year: number) => ({
  months: sum(await listAccountMonths(w.demoId, meterId, `${year}-01`, `${year}-12`)),
  site: sum(await listAssetRollups(w.demoId, siteId, `${year}-01`, `${year}-12`)),
  company: sum(
    (await listCompanyRollups(w.demoId, `${year}-01`, `${year}-12`)).filter(
      (r) => r.utilityType === 'electricity',
    ),
  ),
  year: sum(
    (await listSiteYears(w.demoId, year, year)).filter(
      (y) => y.assetId === siteId && y.utilityType === 'electricity',
    ),
  ),
});
const figures2025 = () => figuresOf(2025);

/** Runs the worker on a message until `dies` says a command is its last: nothing it sends after lands. */
async function dieOn(body: string, dies: (command: unknown) => boolean) {
  const client = documentClient();
  const send = client.send.bind(client);
  let dead = false;
  const spy = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
    if (!dead && dies(command)) dead = true;
    if (dead) return new Promise<never>(() => undefined);
    return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
  }) as typeof client.send);
  try {
    void w.workOn(JSON.parse(body) as Record<string, unknown>);
    await vi.waitFor(() => expect(dead).toBe(true), { timeout: 30_000 });
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  ({ w, owner, siteId, meterId } = await startImportWorldWithMeter({
    type: 'electricity',
    meterPointNumber: '1312345678907',
  }));
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
    const before = await figures2025();
    expect(before).toEqual({
      months: { consumption: 1000, cost: 100 },
      site: { consumption: 1000, cost: 100 },
      company: { consumption: 1000, cost: 100 },
      year: { consumption: 1000, cost: 100 },
    });

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
    await dieOn(
      bodies[0] as string,
      (c) =>
        (c instanceof UpdateCommand && String(c.input.Key?.pk).includes('#rollup#')) ||
        // Roll-ups of a file go in transactions of many adds at once.
        (c instanceof TransactWriteCommand &&
          (c.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).includes('#rollup#'))),
    );
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
    const whole = { consumption: 2900, cost: 320 };
    expect(await figures2025()).toEqual({ months: whole, site: whole, company: whole, year: whole });

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 2, restored: 1, kept: 0 },
    });
    const left = await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12');
    expect(left.map((m) => [m.month, m.consumption, m.cost])).toEqual([['2025-01', 1000, 100]]);
    expect(await figures2025()).toEqual(before);
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
    await dieOn(bodies[0] as string, (c) => {
      if (!(c instanceof BatchWriteCommand)) return false;
      const items = Object.values(c.input.RequestItems ?? {}).flat();
      return items.some((r) => String(r.PutRequest?.Item?.sk).startsWith('import#'));
    });
    const whole = { consumption: 1200, cost: 120 };
    expect(await figuresOf(2026)).toEqual({ months: whole, site: whole, company: whole, year: whole });

    await w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 2, create: 2, update: 0, unchanged: 0, error: 0 },
    });
    expect(await figuresOf(2026)).toEqual({ months: whole, site: whole, company: whole, year: whole });

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 2, restored: 0 } });
    const none = { consumption: 0, cost: 0 };
    expect(await figuresOf(2026)).toEqual({ months: none, site: none, company: none, year: none });
  }, 120_000);
  /** A roll-up write: an add to a site's, portfolio's or company's months, or to a site's year. */
  const isRollupWrite = (c: unknown) =>
    (c instanceof UpdateCommand && String(c.input.Key?.pk).includes('#rollup#')) ||
    (c instanceof TransactWriteCommand &&
      (c.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).includes('#rollup#')));

  for (const { year, landed, what } of [
    { year: 2027, landed: 1, what: "the sites' roll-ups" },
    {
      year: 2028,
      landed: 3,
      what: "the site's, portfolio's and year's roll-ups, before the site's whole year",
    },
  ])
    it(`adds each roll-up once when the worker dies after adding ${what}`, async () => {
      const groupId = await created(w.api, owner, '/asset-groups', {
        name: `Crash ${year}`,
        assetIds: [siteId],
      });
      const levels = async () => {
        const from = `${year}-01`;
        const to = `${year}-12`;
        return {
          ...(await figuresOf(year)),
          portfolio: sum(await listPortfolioRollups(w.demoId, groupId, from, to)),
          wholeYear: sum(
            (await listWholeSiteYears(w.demoId, year, year)).filter(
              (y) => y.assetId === siteId && y.utilityType === 'electricity',
            ),
          ),
        };
      };
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
      let writes = 0;
      await dieOn(bodies[0] as string, (c) => isRollupWrite(c) && ++writes > landed);
      const partial = await levels();
      expect(partial.site).toEqual({ consumption: 900, cost: 90 });
      expect(partial.company).toEqual({ consumption: 0, cost: 0 });
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
      const whole = { consumption: 900, cost: 90 };
      expect(await levels()).toEqual({
        months: whole,
        site: whole,
        company: whole,
        year: whole,
        portfolio: whole,
        wholeYear: whole,
      });

      const undone = await w.run(owner, id, 'rollback');
      expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 3, restored: 0 } });
      const none = { consumption: 0, cost: 0 };
      expect(await levels()).toEqual({
        months: none,
        site: none,
        company: none,
        year: none,
        portfolio: none,
        wholeYear: none,
      });
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
    await dieOn(
      bodies[0] as string,
      (c) =>
        (c instanceof UpdateCommand && String(c.input.Key?.pk).includes('#rollup#')) ||
        (c instanceof TransactWriteCommand &&
          (c.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).includes('#rollup#'))),
    );
    expect((await figuresOf(2027)).months.consumption).toBeGreaterThanOrEqual(144);

    await w.workOn(JSON.parse(bodies[0] as string) as Record<string, unknown>);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'completed',
      results: { rows: 4, create: 4, update: 0, unchanged: 0, error: 0 },
    });
    const whole = { consumption: 192, cost: 0 };
    expect(await figuresOf(2027)).toEqual({ months: whole, site: whole, company: whole, year: whole });

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 4, restored: 0 } });
    const none = { consumption: 0, cost: 0 };
    expect(await figuresOf(2027)).toEqual({ months: none, site: none, company: none, year: none });
  }, 120_000);
});
