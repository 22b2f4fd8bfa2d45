import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { isValidMpanCore } from '../../shared/domain/mpan.ts';
import { isValidMprn } from '../../shared/domain/mprn.ts';
import { type Item, lastCompleteMonth, type SeededStack, startSeededStack } from './seed-fixture.ts';

let stack: SeededStack;
let consumption: typeof import('../../functions/accounts/consumption-repository.ts');
let all: Item[];
let demoId: string;
let northwindId: string;
const inPartition = (pk: string) => stack.inPartition(pk);

beforeAll(async () => {
  stack = await startSeededStack();
  consumption = await import('../../functions/accounts/consumption-repository.ts');
  ({ all, demoId, northwindId } = stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('demo data seed', () => {
  it('seeds in a few seconds and reports what it wrote', () => {
    expect(stack.seedMs).toBeLessThan(20_000);
    expect(stack.result.password).toBe(DEMO_PASSWORD);
    expect(stack.result.counts.invoices).toBe(all.filter((i) => i.pk.endsWith('#invoices')).length);
    expect(stack.result.counts.accountMonths).toBe(all.filter((i) => i.pk.includes('#consumption#')).length);
  });

  it('creates Demo Estates as a demo company and Northwind as an ordinary one', () => {
    const companies = inPartition('G#companies');
    const demo = companies.find((c) => c._id === demoId);
    const northwind = companies.find((c) => c._id === northwindId);
    expect(demo).toMatchObject({
      name: 'Demo Estates Ltd',
      settings: {
        isDemo: true,
        calendarPeriod: 'Standard',
        invoiceCaptureEmail: 'invoices+demo@capture.voltfolio.test',
      },
    });
    const settings = (demo?.settings ?? {}) as {
      documentCategories?: string[];
      invoiceCategories?: string[];
    };
    expect(settings.documentCategories?.length).toBeGreaterThan(0);
    expect(settings.invoiceCategories?.length).toBeGreaterThan(0);
    expect(northwind).toMatchObject({ name: 'Northwind Property Co', settings: { isDemo: false } });
  });

  it('gives Demo Estates a group with three subsidiaries, each with a company number', () => {
    const entities = inPartition(`C#${demoId}#entities`);
    const roots = entities.filter((e) => e.parentEntityId === null || e.parentEntityId === undefined);
    expect(roots.map((e) => e.legalName)).toEqual(['Demo Estates Group plc']);
    const children = entities.filter((e) => e.parentEntityId === roots[0]?._id);
    expect(children.map((e) => e.legalName).sort()).toEqual([
      'Demo Estates Logistics Ltd',
      'Demo Estates Offices Ltd',
      'Demo Estates Retail Ltd',
    ]);
    for (const e of entities) expect(e.companyNumber).toMatch(/^\d{8}$/);
  });

  it('gives about twenty assets, each with a UK address, a floor area and a picture that loads', async () => {
    const assets = inPartition(`C#${demoId}#assets`);
    expect(assets.length).toBeGreaterThanOrEqual(18);
    expect(assets.length).toBeLessThanOrEqual(22);
    const subsidiaries = new Set(
      inPartition(`C#${demoId}#entities`)
        .filter((e) => e.parentEntityId)
        .map((e) => e._id),
    );
    for (const a of assets) {
      const address = a.address as Record<string, string>;
      expect(address.streetAddress).toBeTruthy();
      expect(address.locality).toBeTruthy();
      expect(address.region).toBeTruthy();
      expect(address.postCode).toMatch(/^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/);
      expect(a.floorArea).toBeGreaterThan(100);
      expect(subsidiaries.has(String(a.entityId))).toBe(true);
      expect(a.epcRating).toMatch(/^[A-G]$/);
      const images = a.images as { key: string; thumbKey: string; isPrimary: boolean }[];
      expect(images).toHaveLength(1);
      expect(images[0]?.isPrimary).toBe(true);
      expect(images[0]?.key).toMatch(new RegExp(`^assets/${a._id}/images/`));
      expect(images[0]?.thumbKey).toMatch(new RegExp(`^assets/${a._id}/images/`));
    }
    const sample = assets[0] as Item;
    const key = (sample.images as { key: string }[])[0]?.key as string;
    const res = await fetch(`${stack.awsEndpoint}/voltfolio-documents/${key}`);
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(svg).toContain('<svg');
    expect(svg).toContain(String(sample.siteName).replace('&', '&amp;'));
  });

  it('gives valid MPANs to electricity supplies and valid MPRNs to gas supplies', () => {
    const accounts = [...inPartition(`C#${demoId}#accounts`), ...inPartition(`C#${northwindId}#accounts`)];
    const electricity = accounts.filter((a) => a.type === 'electricity' && !a.parentAccountId);
    const gas = accounts.filter((a) => a.type === 'gas');
    expect(electricity.length).toBeGreaterThanOrEqual(20);
    expect(gas.length).toBeGreaterThanOrEqual(10);
    for (const a of electricity) expect(isValidMpanCore(String(a.meterPointNumber))).toBe(true);
    for (const a of gas) expect(isValidMprn(String(a.meterPointNumber))).toBe(true);
    const mpans = electricity.map((a) => a.meterPointNumber);
    expect(new Set(mpans).size).toBe(mpans.length);
  });

  it('gives about sixty Demo Estates accounts across all four utilities, with sub-meters and closed supplies', () => {
    const accounts = inPartition(`C#${demoId}#accounts`);
    expect(accounts.length).toBeGreaterThanOrEqual(50);
    expect(accounts.length).toBeLessThanOrEqual(70);
    expect(new Set(accounts.map((a) => a.type))).toEqual(new Set(['electricity', 'gas', 'water', 'waste']));
    const subMeters = accounts.filter((a) => a.parentAccountId);
    expect(subMeters.length).toBeGreaterThan(0);
    for (const s of subMeters) {
      const parent = accounts.find((a) => a._id === s.parentAccountId);
      expect(parent).toMatchObject({ type: 'electricity', assetId: s.assetId });
    }
    expect(accounts.filter((a) => a.status === 'inactive').length).toBeGreaterThanOrEqual(2);
    const suppliers = new Set(inPartition('G#suppliers').map((s) => s._id));
    for (const a of accounts.filter((x) => !x.parentAccountId))
      expect(suppliers.has(String(a.supplierId))).toBe(true);
  });

  it('records at least 24 consecutive months for every account, ending no later than last month', async () => {
    const to = lastCompleteMonth();
    for (const companyId of [demoId, northwindId]) {
      for (const account of inPartition(`C#${companyId}#accounts`)) {
        const months = await consumption.listAccountMonths(companyId, account._id as string, '2000-01', to);
        if ((account.tags as string[] | undefined)?.includes('half-hourly')) {
          // A smart meter's year of interval data, with no bills: its months hold the half hours' sums.
          expect(months.map((m) => m.source)).toEqual(Array.from({ length: 12 }, () => 'interval'));
          expect(months.at(-1)?.month).toBe(to);
          continue;
        }
        expect(months.length, String(account.name)).toBeGreaterThanOrEqual(24);
        const active = account.status === 'active';
        if (active) expect(months.at(-1)?.month).toBe(to);
        for (let i = 1; i < months.length; i++) {
          const [y, m] = String(months[i - 1]?.month)
            .split('-')
            .map(Number) as [number, number];
          const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
          expect(months[i]?.month).toBe(next);
        }
        for (const m of months) {
          expect(m.currency).toBe('GBP');
          expect(m.cost).toBeGreaterThan(0);
          expect(m.emissionsKg).toBeGreaterThan(0);
          expect(m.factorVersion).toMatch(/^desnz-\d{4}-v\d+/);
        }
      }
    }
  });

  it("reads one account's months for a range, both ends included", async () => {
    const account = inPartition(`C#${demoId}#accounts`).find((a) => a.status === 'active') as Item;
    const year = Number(lastCompleteMonth().slice(0, 4)) - 1;
    const months = await consumption.listAccountMonths(
      demoId,
      String(account._id),
      `${year}-01`,
      `${year}-12`,
    );
    expect(months.map((m) => m.month)).toEqual(
      Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`),
    );
    expect(months.every((m) => m.accountId === account._id && m.companyId === demoId)).toBe(true);
    await expect(
      consumption.listAccountMonths(demoId, String(account._id), '2025-1', '2025-12'),
    ).rejects.toThrow();
  });

  it('bills each supply monthly with invoices that add up and match the recorded months', async () => {
    const accounts = inPartition(`C#${demoId}#accounts`).filter((a) => !a.parentAccountId);
    const invoices = inPartition(`C#${demoId}#invoices`);
    for (const account of accounts) {
      const months = await consumption.listAccountMonths(demoId, account._id as string, '2000-01', '2999-12');
      const billed = months.filter((m) => m.source === 'invoice');
      const own = invoices.filter((i) => i.accountId === account._id);
      expect(own.length).toBe(billed.length);
      for (const m of billed) {
        const invoice = own.find((i) => i._id === m.invoiceId);
        // The latest bills are captured and await review; the older ones were confirmed long ago.
        expect(invoice).toMatchObject({ invoiceStartDate: `${m.month}-01` });
        expect(invoice?.status).toBe(m.month === lastCompleteMonth() ? 'captured' : 'completed');
        expect(invoice?.completed).toBe(invoice?.status === 'completed');
        const v = invoice?.values as {
          consumption: number;
          netTotal: number;
          vatTotal: number;
          grossTotal: number;
          vatRate: number;
        };
        expect(v.consumption).toBe(m.consumption);
        expect(v.netTotal).toBe(m.cost);
        expect(v.netTotal + v.vatTotal).toBeCloseTo(v.grossTotal, 2);
        // VAT is rounded to the penny: within half a penny of the exact figure.
        expect(Math.abs(v.vatTotal - (v.netTotal * v.vatRate) / 100)).toBeLessThanOrEqual(0.005 + 1e-9);
      }
    }
  });

  it("keeps each asset's roll-ups equal to the sum of its supplies' months, sub-meters aside", async () => {
    const accounts = inPartition(`C#${demoId}#accounts`);
    for (const asset of inPartition(`C#${demoId}#assets`)) {
      const rollups = await consumption.listAssetRollups(demoId, asset._id as string, '2000-01', '2999-12');
      expect(rollups.length).toBeGreaterThanOrEqual(24);
      const expected = new Map<string, { consumption: number; cost: number; emissionsKg: number }>();
      for (const account of accounts.filter((a) => a.assetId === asset._id && !a.parentAccountId)) {
        const months = await consumption.listAccountMonths(
          demoId,
          account._id as string,
          '2000-01',
          '2999-12',
        );
        for (const m of months) {
          const key = `${m.month}#${account.type}`;
          const sum = expected.get(key) ?? { consumption: 0, cost: 0, emissionsKg: 0 };
          sum.consumption += m.consumption;
          sum.cost += m.cost;
          sum.emissionsKg += m.emissionsKg;
          expected.set(key, sum);
        }
      }
      expect(rollups.length).toBe(expected.size);
      for (const r of rollups) {
        const want = expected.get(`${r.month}#${r.utilityType}`);
        expect(r.consumption).toBeCloseTo(want?.consumption ?? Number.NaN, 2);
        expect(r.cost).toBeCloseTo(want?.cost ?? Number.NaN, 2);
        expect(r.emissionsKg).toBeCloseTo(want?.emissionsKg ?? Number.NaN, 2);
      }
    }
  });

  it('gives three demo sites a smart meter whose half hours add up to its months', async () => {
    const { listIntervalDays } = await import(
      '../../functions/analytics/analytics-half-hourly-repository.ts'
    );
    const smart = inPartition(`C#${demoId}#accounts`).filter((a) =>
      (a.tags as string[] | undefined)?.includes('half-hourly'),
    );
    expect(smart).toHaveLength(3);
    const month = lastCompleteMonth();
    for (const meter of smart) {
      const days = await listIntervalDays(demoId, String(meter._id), `${month}-01`, `${month}-31`);
      expect(days.length).toBeGreaterThanOrEqual(28);
      for (const d of days) expect([46, 48, 50]).toContain(d.values.length);
      const [own] = await consumption.listAccountMonths(demoId, String(meter._id), month, month);
      expect(own?.consumption).toBeCloseTo(
        days.reduce((n, d) => n + d.total, 0),
        2,
      );
    }
  });

  it('stores contracts under their accounts and readings that the readings list finds by account', () => {
    const contracts = all.filter((i) => /^C#[0-9a-f]{24}#accounts#[0-9a-f]{24}#contracts$/.test(i.pk));
    expect(contracts.length).toBe(stack.result.counts.contracts);
    const demoSupplies = inPartition(`C#${demoId}#accounts`).filter(
      (a) => (a.type === 'electricity' || a.type === 'gas') && !a.parentAccountId,
    );
    const withContract = demoSupplies.filter((a) =>
      contracts.some((c) => c.pk === `C#${demoId}#accounts#${a._id}#contracts`),
    );
    expect(withContract.length / demoSupplies.length).toBeGreaterThan(0.7);
    for (const c of contracts) expect((c.rateTypes as unknown[]).length).toBeGreaterThanOrEqual(2);
    const readings = inPartition(`C#${demoId}#readings`);
    expect(readings.length + inPartition(`C#${northwindId}#readings`).length).toBe(
      stack.result.counts.readings,
    );
    expect(readings.length).toBeGreaterThan(0);
    // Indexed by account, as GET /readings?accountId= reads them.
    expect(readings.every((r) => r.gsi1pk === `C#${demoId}#readings#accountId#${r.accountId}`)).toBe(true);
  });

  it('loads reference data: suppliers with distributors, countries and LETI benchmarks', () => {
    const suppliers = inPartition('G#suppliers');
    expect(suppliers.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'British Gas Business',
        'Octopus Energy for Business',
        'Thames Water',
        'Biffa',
      ]),
    );
    expect(suppliers.filter((s) => s.type === 'distributor').map((s) => s.name)).toContain(
      'UK Power Networks',
    );
    const countries = inPartition('G#countries');
    expect(countries.length).toBeGreaterThan(190);
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length);
    expect(countries.find((c) => c.code === 'GB')).toMatchObject({
      name: 'United Kingdom',
      isJurisdiction: false,
    });
    expect(countries.find((c) => c.code === 'JE')).toMatchObject({ isJurisdiction: true });
    const leti = inPartition('G#benchmarks').filter((b) => b.kind === 'leti');
    expect(leti.map((b) => (b.values as Record<string, number>).energyUseIntensityKwhPerM2).sort()).toEqual([
      35, 55, 65,
    ]);
    // The demo's pathways are made up and say so: CRREM's own are licensed.
    expect(inPartition('G#crrem-pathway-sets')).toMatchObject([
      { name: 'Illustrative pathways (not CRREM)', illustrative: true, pathways: 9 },
    ]);
  });
});
