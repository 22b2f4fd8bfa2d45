import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addManyToRollups,
  applyInvoiceContribution,
  applyRestatementToSite,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  moveSiteInPortfolio,
  putAccountMonths,
  putRollups,
  rebuildSiteYears,
  restateAccountMonth,
  type SiteMonthDelta,
} from '../../functions/accounts/consumption-repository.ts';
import {
  addToSiteYear,
  fillWholeSiteYears,
  listSiteYears,
  listWholeSiteYears,
} from '../../functions/accounts/site-year-repository.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { config } from '../../functions/core/config.ts';
import { type AccountsWorld, startAccountsWorld } from './register-accounts-support.ts';

/**
 * Each site's years, kept beside its monthly roll-ups, must say what the roll-ups say: a bill counts once
 * however often its confirmation is retried, a withdrawn bill leaves its months, replaced roll-ups move the
 * years by the difference, and a rebuild puts stale years right. The sites' whole years (what portfolio
 * tables read, one item per site and year) must say the same after every one of those writes.
 */
let w: AccountsWorld;

beforeAll(async () => {
  w = await startAccountsWorld();
});
afterAll(async () => w?.stop());

async function yearOf(assetId: string, year: number, utilityType = 'electricity') {
  const find = <T extends { assetId: string; utilityType: string }>(rows: T[]) =>
    rows.find((r) => r.assetId === assetId && r.utilityType === utilityType);
  const [byUtility, whole] = await Promise.all([
    listSiteYears(w.companyId, year, year),
    listWholeSiteYears(w.companyId, year, year),
  ]);
  const found = find(byUtility);
  // The whole year keeps no month figures, only which months are held: the rest must agree.
  const { months: _months, ...totals } = found ?? { months: [] };
  expect(find(whole)).toEqual(found ? totals : undefined);
  return found;
}

const bill = (month: string, consumption: number) => ({
  month,
  utilityType: 'electricity' as const,
  consumption,
  unit: 'kWh',
  cost: consumption / 4,
  emissionsKg: consumption / 5,
  factorVersion: 'desnz-2025',
  vat: 10,
});

describe("a site's years", () => {
  it('count a bill once however often it is applied, and lose it when it is withdrawn', async () => {
    await applyInvoiceContribution(w.companyId, 'meter-1', w.assetA, 'bill-a', bill('2021-03', 1000), 1);
    await applyInvoiceContribution(w.companyId, 'meter-1', w.assetA, 'bill-a', bill('2021-04', 500), 1);
    await applyInvoiceContribution(w.companyId, 'meter-1', w.assetA, 'bill-a', bill('2021-03', 1000), 1);
    await applyInvoiceContribution(w.companyId, 'meter-1', w.assetA, 'bill-b', bill('2021-05', 200), 1);
    expect(await yearOf(w.assetA, 2021)).toMatchObject({
      consumption: 1700,
      cost: 425,
      emissionsKg: 340,
      vat: 30,
      monthsHeld: [3, 4, 5],
    });

    await applyInvoiceContribution(w.companyId, 'meter-1', w.assetA, 'bill-b', bill('2021-05', 200), -1);
    await applyInvoiceContribution(w.companyId, 'meter-1', w.assetA, 'bill-b', bill('2021-05', 200), -1);
    expect(await yearOf(w.assetA, 2021)).toMatchObject({ consumption: 1500, monthsHeld: [3, 4] });
  });

  it("follow an import's changes and a restatement of emissions", async () => {
    await addManyToRollups(w.companyId, [
      {
        assetId: w.assetB,
        month: '2022-01',
        utilityType: 'gas',
        unit: 'kWh',
        consumption: 900,
        cost: 90,
        emissionsKg: 160,
      },
      {
        assetId: w.assetB,
        month: '2022-02',
        utilityType: 'gas',
        unit: 'kWh',
        consumption: 800,
        cost: 80,
        emissionsKg: 150,
      },
    ]);
    await putAccountMonths(w.companyId, 'meter-b', [
      {
        month: '2022-01',
        consumption: 900,
        unit: 'kWh',
        cost: 90,
        currency: 'GBP',
        emissionsKg: 160,
        factorVersion: 'desnz-2024',
        source: 'import',
      },
    ]);
    const restated = await restateAccountMonth(w.companyId, 'meter-b', 'job-1', {
      month: '2022-01',
      utilityType: 'gas',
      unit: 'kWh',
      from: { emissionsKg: 160, factorVersion: 'desnz-2024' },
      to: { emissionsKg: 150, factorVersion: 'desnz-2025' },
    });
    expect(restated).toBe(true);
    const change = {
      month: '2022-01',
      utilityType: 'gas' as const,
      unit: 'kWh',
      emissionsKg: -10,
      factorVersion: 'desnz-2025',
    };
    // Applied twice (a job delivered again): the year takes the change once.
    await applyRestatementToSite(w.companyId, 'job-1', w.assetB, [change]);
    await applyRestatementToSite(w.companyId, 'job-1', w.assetB, [change]);
    const year = await yearOf(w.assetB, 2022, 'gas');
    expect(year).toMatchObject({ consumption: 1700, emissionsKg: 300, monthsHeld: [1, 2] });
    // Each month keeps its own figures, the restated January's emissions included.
    expect(year?.months.slice(0, 3)).toEqual([
      { consumption: 900, cost: 90, emissionsKg: 150 },
      { consumption: 800, cost: 80, emissionsKg: 150 },
      { consumption: 0, cost: 0, emissionsKg: 0 },
    ]);
  });

  it('move by the difference when roll-ups are replaced whole, and a rebuild mends stale years', async () => {
    const row = (month: string, consumption: number) => ({
      assetId: w.assetB,
      month,
      utilityType: 'electricity' as const,
      unit: 'kWh',
      consumption,
      cost: 10,
      emissionsKg: 2,
    });
    await putRollups(w.companyId, [row('2023-01', 100), row('2023-02', 100)]);
    await putRollups(w.companyId, [row('2023-02', 40), row('2023-03', 60)]);
    expect(await yearOf(w.assetB, 2023)).toMatchObject({
      consumption: 200,
      cost: 30,
      emissionsKg: 6,
      monthsHeld: [1, 2, 3],
    });

    // Figures the roll-ups never had (a crash between the two writes): the rebuild drops them.
    await addToSiteYear(w.companyId, w.assetB, '2023-07', 'electricity', {
      consumption: 999,
      cost: 0,
      emissionsKg: 0,
      unit: 'kWh',
    });
    expect((await yearOf(w.assetB, 2023))?.consumption).toBe(1199);
    await rebuildSiteYears(w.companyId, [w.assetB]);
    expect(await yearOf(w.assetB, 2023)).toMatchObject({ consumption: 200, monthsHeld: [1, 2, 3] });
  });

  it('refuse figures in another unit for the same year', async () => {
    await expect(
      addToSiteYear(w.companyId, w.assetB, '2023-08', 'electricity', {
        consumption: 1,
        cost: 0,
        emissionsKg: 0,
        unit: 'MWh',
      }),
    ).rejects.toThrow();
  });

  it('keep the whole year at the newest write when writes to one year land together', async () => {
    const one = (month: string) =>
      addToSiteYear(w.companyId, w.assetA, month, 'gas', {
        consumption: 10,
        cost: 1,
        emissionsKg: 2,
        unit: 'kWh',
      });
    await Promise.all(['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06'].map(one));
    expect(await yearOf(w.assetA, 2024, 'gas')).toMatchObject({
      consumption: 60,
      emissionsKg: 12,
      monthsHeld: [1, 2, 3, 4, 5, 6],
    });
  });

  it('are filled from the years by utility written before them, and later writes count on from there', async () => {
    // A year as the store kept it before whole years: no revision, no whole-year copy.
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: {
          pk: `C#${w.companyId}#rollup#site-years`,
          sk: `2019#${w.assetA}#water`,
          unit: 'm³',
          consumption: 5,
          cost: 1,
          emissionsKg: 0,
          m02: 5,
        },
      }),
    );
    expect(await listWholeSiteYears(w.companyId, 2019, 2019)).toEqual([]);
    await fillWholeSiteYears(w.companyId);
    expect(await yearOf(w.assetA, 2019, 'water')).toMatchObject({ consumption: 5, monthsHeld: [2] });
    await addToSiteYear(w.companyId, w.assetA, '2019-03', 'water', {
      consumption: 2,
      cost: 1,
      emissionsKg: 0,
      unit: 'm³',
    });
    // Filling again copies nothing older over the newer.
    await fillWholeSiteYears(w.companyId);
    expect(await yearOf(w.assetA, 2019, 'water')).toMatchObject({ consumption: 7, monthsHeld: [2, 3] });
  });
});

describe("an import's monthly roll-ups", () => {
  // Nine years of water months on two sites: more months than one request may carry.
  const months = Array.from(
    { length: 108 },
    (_, i) => `${2010 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
  );
  // Month by month, as a file sorted by date gives them.
  const file = (amount: number): SiteMonthDelta[] =>
    months.flatMap((month) =>
      [w.assetA, w.assetB].map((assetId) => ({
        assetId,
        month,
        utilityType: 'water' as const,
        unit: 'm3',
        consumption: amount,
        cost: amount * 2,
        emissionsKg: 0,
      })),
    );

  it('add up when two imports write the same months at once', async () => {
    // Both sites in one portfolio: each month of the file reaches the portfolio's month twice.
    await moveSiteInPortfolio(w.companyId, 'water-portfolio', w.assetA, 1);
    await moveSiteInPortfolio(w.companyId, 'water-portfolio', w.assetB, 1);
    await Promise.all([addManyToRollups(w.companyId, file(3)), addManyToRollups(w.companyId, file(4))]);
    for (const assetId of [w.assetA, w.assetB]) {
      const site = await listAssetRollups(w.companyId, assetId, '2010-01', '2018-12', 'water');
      expect(site).toHaveLength(108);
      expect(site.every((r) => r.consumption === 7 && r.cost === 14)).toBe(true);
    }
    const company = await listCompanyRollups(w.companyId, '2010-01', '2018-12', 'water');
    expect(company).toHaveLength(108);
    expect(company.every((r) => r.consumption === 14 && r.cost === 28)).toBe(true);
    const portfolio = await listPortfolioRollups(
      w.companyId,
      'water-portfolio',
      '2010-01',
      '2018-12',
      'water',
    );
    expect(portfolio).toHaveLength(108);
    expect(portfolio.every((r) => r.consumption === 14 && r.cost === 28)).toBe(true);
    expect((await yearOf(w.assetA, 2013, 'water'))?.consumption).toBe(84);
  });

  it("write many sites' years in a few requests, each year and whole year as the months say", async () => {
    // 150 sites' two years: more site years than one request may carry.
    const sites = Array.from({ length: 150 }, (_, i) => `bulk-site-${i}`);
    // Heating and cooling share each site's whole year.
    const deltas: SiteMonthDelta[] = sites.flatMap((assetId, i) =>
      ['2016-11', '2016-12', '2017-01'].flatMap((month) =>
        (['heating', 'cooling'] as const).map((utilityType) => ({
          assetId,
          month,
          utilityType,
          unit: 'kWh',
          consumption: 100 + i,
          cost: 10.25,
          emissionsKg: 3.5,
        })),
      ),
    );
    const client = documentClient();
    const send = client.send.bind(client);
    const yearWrites: unknown[] = [];
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      const named = JSON.stringify(
        command instanceof UpdateCommand || command instanceof TransactWriteCommand ? command.input : '',
      );
      if (named.includes('#rollup#site-years')) yearWrites.push(command);
      return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof client.send);
    try {
      // A bill lands on one of the years while the import writes them: both count.
      await Promise.all([
        addManyToRollups(w.companyId, deltas),
        addToSiteYear(w.companyId, 'bulk-site-7', '2017-02', 'heating', {
          consumption: 1,
          cost: 1,
          emissionsKg: 1,
          unit: 'kWh',
        }),
      ]);
    } finally {
      spy.mockRestore();
    }
    // 600 site years: a transaction of adds and two of whole-year copies per hundred, not two writes each.
    expect(yearWrites.length).toBeLessThanOrEqual(30);
    expect(await yearOf('bulk-site-7', 2016, 'heating')).toMatchObject({
      consumption: 214,
      cost: 20.5,
      emissionsKg: 7,
      monthsHeld: [11, 12],
    });
    expect(await yearOf('bulk-site-7', 2017, 'heating')).toMatchObject({
      consumption: 108,
      cost: 11.25,
      emissionsKg: 4.5,
      monthsHeld: [1, 2],
    });
    expect(await yearOf('bulk-site-149', 2017, 'heating')).toMatchObject({
      consumption: 249,
      monthsHeld: [1],
    });
    expect(await yearOf('bulk-site-7', 2017, 'cooling')).toMatchObject({ consumption: 107, monthsHeld: [1] });
    const whole = await listWholeSiteYears(w.companyId, 2016, 2017);
    expect(whole.filter((y) => y.utilityType === 'heating')).toHaveLength(300);
    expect(whole.filter((y) => y.utilityType === 'cooling')).toHaveLength(300);
  });

  it('refuse a month held in another unit as a single write would, and still write the others', async () => {
    const [first, ...others] = file(1).filter((r) => r.assetId === w.assetA);
    const rows = [...others.slice(0, 59), { ...first, unit: 'litres' } as SiteMonthDelta];
    await expect(addManyToRollups(w.companyId, rows)).rejects.toThrow(/conditional/i);
    const site = await listAssetRollups(w.companyId, w.assetA, '2010-01', '2018-12', 'water');
    expect(site.find((r) => r.month === '2010-01')).toMatchObject({ unit: 'm3', consumption: 7 });
    expect(site.find((r) => r.month === '2010-02')).toMatchObject({ unit: 'm3', consumption: 8 });
  });
  it('count each month once when a marked write dies midway and is sent again whole', async () => {
    // Nine later years on both sites, in a portfolio of their own: three transactions of site months.
    const later = file(5).map((r) => ({
      ...r,
      month: `${Number(r.month.slice(0, 4)) + 30}${r.month.slice(4)}`,
    }));
    await moveSiteInPortfolio(w.companyId, 'marked-portfolio', w.assetA, 1);
    await moveSiteInPortfolio(w.companyId, 'marked-portfolio', w.assetB, 1);
    const client = documentClient();
    const send = client.send.bind(client);
    let transactions = 0;
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      // The second transaction of site months, and everything sent after it, never lands.
      if (command instanceof TransactWriteCommand && ++transactions >= 2)
        return Promise.reject(new Error('worker died'));
      return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof client.send);
    try {
      await expect(addManyToRollups(w.companyId, later, 8, 'import#marked')).rejects.toThrow('worker died');
    } finally {
      spy.mockRestore();
    }
    // The first transaction, in flight as the run died, lands: 99 of the 216 site months.
    const landed = async () =>
      (
        await Promise.all(
          [w.assetA, w.assetB].map((assetId) =>
            listAssetRollups(w.companyId, assetId, '2040-01', '2048-12', 'water'),
          ),
        )
      ).flat().length;
    await vi.waitFor(async () => expect(await landed()).toBe(99));

    for (let delivery = 1; delivery <= 2; delivery++) {
      await addManyToRollups(w.companyId, later, 8, 'import#marked');
      for (const assetId of [w.assetA, w.assetB]) {
        const rows = await listAssetRollups(w.companyId, assetId, '2040-01', '2048-12', 'water');
        expect(rows.map((r) => [r.consumption, r.cost])).toEqual(months.map(() => [5, 10]));
        expect(await yearOf(assetId, 2043, 'water')).toMatchObject({ consumption: 60, cost: 120 });
      }
      const company = await listCompanyRollups(w.companyId, '2040-01', '2048-12', 'water');
      expect(company.map((r) => [r.consumption, r.cost])).toEqual(months.map(() => [10, 20]));
      const portfolio = await listPortfolioRollups(
        w.companyId,
        'marked-portfolio',
        '2040-01',
        '2048-12',
        'water',
      );
      expect(portfolio.map((r) => [r.consumption, r.cost])).toEqual(months.map(() => [10, 20]));
    }
  });

  it('refuse a marked month held in another unit, and count its siblings once when sent again', async () => {
    const rows = file(1)
      .filter((r) => r.assetId === w.assetB)
      .slice(0, 40)
      .map((r) => ({ ...r, month: `${Number(r.month.slice(0, 4)) + 40}${r.month.slice(4)}` }));
    await addManyToRollups(w.companyId, [{ ...(rows[0] as SiteMonthDelta), unit: 'litres' }]);
    for (let delivery = 1; delivery <= 2; delivery++) {
      await expect(addManyToRollups(w.companyId, rows, 8, 'import#refused')).rejects.toThrow(/conditional/i);
      const site = await listAssetRollups(w.companyId, w.assetB, '2050-01', '2053-12', 'water');
      expect(site.map((r) => [r.month, r.unit, r.consumption])).toEqual(
        rows.map((r, i) => [r.month, i === 0 ? 'litres' : 'm3', 1]),
      );
    }
  });
});
