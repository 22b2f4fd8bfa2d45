import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumptionKeys } from '../../functions/accounts/consumption-repository.ts';
import {
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  listSiteYears,
  listWholeSiteYears,
} from '../../functions/accounts/index.ts';
import { dieOn } from './crash-support.ts';
import { type ImportWorld, startImportWorldWithMeter } from './imports-support.ts';
import { created } from './register-support.ts';

/**
 * A rollback whose worker dies midway (partway through its months, between its months and its roll-ups,
 * or partway through its roll-ups), and whose message SQS then delivers again: the rollback finishes,
 * every month is as it was before the import, and so is every level of roll-up.
 */
let w: ImportWorld;
let owner: string;
let siteId: string;
let meterId: string;
let groupId: string;

const MPAN = '1312345678907';
const utf8 = (text: string) => new TextEncoder().encode(text);
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const sum = (rows: readonly { consumption: number; cost: number }[]) => ({
  consumption: round3(rows.reduce((n, r) => n + Number(r.consumption), 0)),
  cost: Math.round(rows.reduce((n, r) => n + Number(r.cost), 0) * 100) / 100,
});
const monthsOf = (from: number, years: number) =>
  Array.from(
    { length: years * 12 },
    (_, i) => `${from + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
  );

/** Every level a month reaches, over the years `from` to `to`. */
async function levels(from: number, to: number) {
  const electricity = (r: { utilityType: string }) => r.utilityType === 'electricity';
  const ofSite = (y: { assetId: string; utilityType: string }) => y.assetId === siteId && electricity(y);
  return {
    months: (await listAccountMonths(w.demoId, meterId, `${from}-01`, `${to}-12`)).map(
      (m) => [m.month, m.consumption, m.cost] as const,
    ),
    site: sum(await listAssetRollups(w.demoId, siteId, `${from}-01`, `${to}-12`)),
    portfolio: sum(await listPortfolioRollups(w.demoId, groupId, `${from}-01`, `${to}-12`)),
    company: sum((await listCompanyRollups(w.demoId, `${from}-01`, `${to}-12`)).filter(electricity)),
    siteYear: sum((await listSiteYears(w.demoId, from, to)).filter(ofSite)),
    wholeYear: sum((await listWholeSiteYears(w.demoId, from, to)).filter(ofSite)),
  };
}

/** A write of a meter's months: a rollback's go a hundred to a transaction. */
const isMonthWrite = (c: unknown) =>
  c instanceof TransactWriteCommand &&
  (c.input.TransactItems ?? []).some(
    (t) => String((t.Put?.Item ?? t.Delete?.Key)?.pk) === consumptionKeys.accountMonths(w.demoId, meterId),
  );
/** A roll-up write: an add to a site's, portfolio's or company's months, or to a site's year. */
const isRollupWrite = (c: unknown) =>
  (c instanceof UpdateCommand && String(c.input.Key?.pk).includes('#rollup#')) ||
  (c instanceof TransactWriteCommand &&
    (c.input.TransactItems ?? []).some((t) => String(t.Update?.Key?.pk).includes('#rollup#')));

beforeAll(async () => {
  ({ w, owner, siteId, meterId } = await startImportWorldWithMeter({
    type: 'electricity',
    meterPointNumber: MPAN,
  }));
  groupId = await created(w.api, owner, '/asset-groups', { name: 'Rollback crash', assetIds: [siteId] });
}, 120_000);
afterAll(() => w?.stop());

describe('a rollback whose worker dies midway', () => {
  for (const { from, what, dies } of [
    {
      from: 2030,
      what: 'after the first hundred of its months, before the rest',
      dies: () => {
        let writes = 0;
        return (c: unknown) => isMonthWrite(c) && ++writes > 1;
      },
    },
    {
      from: 2040,
      what: 'after all its months, on its first roll-up write',
      dies: () => isRollupWrite,
    },
    {
      from: 2050,
      what: "after some of its roll-ups (the site's months) landed",
      dies: () => {
        let writes = 0;
        return (c: unknown) => isRollupWrite(c) && ++writes > 2;
      },
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
      const before = await levels(from, to);
      expect(before.site).toEqual({ consumption: 6000, cost: 600 });
      expect(before.wholeYear).toEqual({ consumption: 6000, cost: 600 });

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
      const imported = { consumption: 60_000, cost: 6000 };
      expect((await levels(from, to)).company).toEqual(imported);

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
      expect(await levels(from, to)).toEqual(before);
    }, 180_000);

  it("finishes after redelivery when it dies after emptying a half-hourly import's days, before their roll-ups", async () => {
    // An emptied day leaves its meter's month at nought rather than gone: compared by their totals.
    const totals = async () => {
      const { months, ...rest } = await levels(2061, 2061);
      return { ...rest, months: sum(months.map(([, consumption, cost]) => ({ consumption, cost }))) };
    };
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
    expect((await levels(2061, 2061)).company).toEqual({ consumption: 192, cost: 0 });

    expect((await w.post(owner, `/imports/${id}/rollback`)).status).toBe(202);
    const bodies = await w.drain('imports');
    const message = JSON.parse(bodies[0] as string) as Record<string, unknown>;
    // The days (and their meter's months) are emptied; the worker dies on adding their roll-ups.
    await dieOn(() => w.workOn(message), isRollupWrite);
    expect((await totals()).months).toEqual(before.months);

    await w.workOn(message);
    expect((await w.get(owner, `/imports/${id}`)).body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 4, restored: 0, kept: 0 },
    });
    expect(await totals()).toEqual(before);
  }, 180_000);
});
