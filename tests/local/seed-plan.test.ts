import { describe, expect, it } from 'vitest';
import { monthSlots } from '../../infra/local/seed/consumption-model.ts';
import { DEMO_ESTATES } from '../../infra/local/seed/demo-estates.ts';
import { NORTHWIND } from '../../infra/local/seed/northwind.ts';
import type { SeededMonth } from '../../infra/local/seed/plan-accounts.ts';
import { type PlannedCompany, planCompany, type SupplierRef } from '../../infra/local/seed/plan-company.ts';
import { SUPPLIERS } from '../../infra/local/seed/suppliers.ts';
import type { ExtractedRate } from '../../shared/capture/model.ts';
import { cclRate } from '../../shared/domain/ccl.ts';
import { findEmissionFactor } from '../../shared/domain/emission-factors.ts';
import { present } from '../support/present.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const slots = monthSlots(NOW, 36);
const suppliers: SupplierRef[] = SUPPLIERS.map((s, i) => ({
  ...s,
  id: `5f00000000000000000000${String(i).padStart(2, '0')}`,
}));
const plan = (p = DEMO_ESTATES) => planCompany(p, suppliers, slots, 'owner-sub', NOW);

/** The plan as text with every generated id replaced by its order of first appearance. */
function withoutIds(company: PlannedCompany): string {
  const seen = new Map<string, string>();
  const json = JSON.stringify({ ...company, ids: undefined }, (_key, value) =>
    value instanceof Map ? Object.fromEntries(value) : value,
  );
  return json.replace(/\b[0-9a-f]{24}\b/g, (id) => {
    if (id.startsWith('5f0000')) return id;
    if (!seen.has(id)) seen.set(id, `id${seen.size}`);
    return seen.get(id) as string;
  });
}

interface BillValues {
  consumption: number;
  unitRate: number;
  standingCharge: number;
  climateChangeLevy?: number;
  netTotal: number;
  vatRate: number;
  vatTotal: number;
  grossTotal: number;
}
const values = (invoice: Record<string, unknown>) => invoice.values as BillValues;
const lines = (invoice: Record<string, unknown>) => invoice.rates as ExtractedRate[];
const lineOf = (invoice: Record<string, unknown>, kind: ExtractedRate['kind']) =>
  lines(invoice).find((r) => r.kind === kind);
/** The de minimis is measured on an average month. */
const perMonth = (invoice: Record<string, unknown>) => {
  const days = Number(lineOf(invoice, 'standing')?.units);
  return (values(invoice).consumption / days) * (365.25 / 12);
};

describe('demo data plan', () => {
  it('covers the 36 months up to the last complete month', () => {
    expect(slots[0]?.month).toBe('2023-11');
    expect(slots.at(-1)).toMatchObject({
      month: '2026-10',
      start: '2026-10-01',
      end: '2026-10-31',
      days: 31,
    });
    expect(slots.find((s) => s.month === '2024-02')?.days).toBe(29);
  });

  it('is the same on every seed apart from ids', () => {
    expect(withoutIds(plan())).toBe(withoutIds(plan()));
    expect(withoutIds(plan(NORTHWIND))).not.toBe(withoutIds(plan()));
  });

  it('burns more gas in January than in July at every site', () => {
    let compared = 0;
    for (const account of plan().accounts.filter((a) => a.type === 'gas')) {
      const byMonth = new Map(account.months.map((m) => [m.month, m.consumption]));
      for (const year of [2024, 2025, 2026]) {
        const july = byMonth.get(`${year}-07`);
        const january = byMonth.get(`${year}-01`);
        if (july === undefined || january === undefined) continue;
        expect(january, `${String(account.item.name)} ${year}`).toBeGreaterThan(july * 2);
        compared++;
      }
    }
    // Two years of history hold at least one January and July for every gas meter.
    expect(compared).toBeGreaterThan(0);
  });

  it('uses electricity in line with floor area and building type', () => {
    const company = plan();
    for (const { item, plan: asset } of company.assets) {
      const supply = company.accounts.find(
        (a) => a.assetId === item._id && a.type === 'electricity' && !a.isSubMeter,
      );
      const lastYear = (supply?.months ?? []).slice(-12).reduce((sum, m) => sum + m.consumption, 0);
      const intensity = lastYear / asset.floorArea;
      const [low, high] =
        asset.assetType === 'Warehouse'
          ? [25, 80]
          : asset.assetType === 'Residential block'
            ? [15, 50]
            : [60, 260];
      expect(intensity, asset.siteName).toBeGreaterThan(low);
      expect(intensity, asset.siteName).toBeLessThan(high);
    }
  });

  it('writes invoices whose lines, levy and VAT add up', () => {
    const company = plan();
    const residential = new Set(
      company.assets.filter((a) => a.plan.assetType === 'Residential block').map((a) => a.item._id),
    );
    for (const account of company.accounts) {
      for (const invoice of account.invoices) {
        const v = values(invoice);
        const charged = lines(invoice).filter((r) => r.kind !== 'vat');
        const ccl = lineOf(invoice, 'ccl')?.amount ?? 0;
        expect(v.netTotal).toBeCloseTo(
          charged.reduce((sum, r) => sum + (r.amount ?? 0), 0),
          2,
        );
        for (const r of charged) expect(r.amount).toBeCloseTo((r.units ?? 0) * (r.unitRate ?? 0), 1);
        expect(v.grossTotal).toBeCloseTo(v.netTotal + v.vatTotal, 2);
        expect(lineOf(invoice, 'standing')?.amount).toBe(v.standingCharge);
        const start = String(invoice.invoiceStartDate);
        if (residential.has(account.assetId)) {
          expect(ccl).toBe(0);
          if (account.type !== 'water') expect(v.vatRate).toBe(account.type === 'waste' ? 20 : 5);
        } else if (account.type === 'electricity' || account.type === 'gas') {
          const limit = account.type === 'electricity' ? 1000 : 4397;
          expect(v.vatRate).toBe(perMonth(invoice) > limit ? 20 : 5);
          // Under the de minimis the levy treats the supply as domestic: none is due.
          const rate = v.vatRate === 5 ? 0 : (cclRate(account.type, start) ?? Number.NaN);
          expect(ccl).toBeCloseTo(v.consumption * rate, 1);
          expect(v.climateChangeLevy).toBe(ccl);
        }
        if (account.type === 'water') expect(v.vatRate).toBe(0);
        if (account.type === 'waste') expect(v.vatRate).toBe(20);
      }
    }
  });

  it("takes each month's emissions from the factor of its year", () => {
    for (const account of plan().accounts.filter((a) => a.type === 'electricity' || a.type === 'gas')) {
      for (const m of account.months) {
        const year = Number(m.month.slice(0, 4));
        const factor = findEmissionFactor(
          account.type === 'gas' ? 'gas' : 'electricity',
          account.type === 'gas' ? 'combustion' : 'generation',
          year,
        );
        expect(m.emissionsKg).toBeCloseTo(m.consumption * (factor?.factor ?? Number.NaN), 0);
        expect(m.factorVersion).toBe(factor?.version);
      }
    }
  });

  it('numbers each electricity supply in its own distribution area', () => {
    const company = plan();
    for (const account of company.accounts.filter((a) => a.type === 'electricity' && !a.isSubMeter)) {
      const asset = company.assets.find((a) => a.item._id === account.assetId);
      expect(String(account.item.meterPointNumber).slice(0, 2)).toBe(asset?.plan.distributor);
    }
  });

  it('stops the months and bills of a closed supply when it closed', () => {
    const company = plan();
    const closed = company.accounts.filter((a) => a.item.status === 'inactive');
    expect(closed.map((a) => a.item.name).sort()).toEqual([
      '128 High Street Guildford Gas',
      '210 Oxford Street Dry mixed recycling',
      'Wakefield 41 Unit 3 Water',
    ]);
    const guildford = closed.find((a) => a.item.name === '128 High Street Guildford Gas');
    expect(guildford?.months.at(-1)?.month).toBe('2026-03');
    expect(guildford?.invoices).toHaveLength(guildford?.months.length ?? -1);
    const history = company.statusHistory.find((h) => h.accountId === guildford?.item._id);
    expect(history?.item).toMatchObject({ status: 'inactive', date: '2026-04-01' });
  });

  it('gives most electricity and gas supplies a contract with the rates their bills charge', () => {
    const company = plan();
    const supplies = company.accounts.filter(
      (a) => (a.type === 'electricity' || a.type === 'gas') && !a.isSubMeter,
    );
    expect(company.contracts.length).toBeGreaterThanOrEqual(Math.ceil(supplies.length * 0.7));
    expect(company.contracts.length).toBeLessThan(supplies.length);
    const overcharged: Record<string, unknown>[] = [];
    for (const { accountId, item } of company.contracts) {
      const account = supplies.find((a) => a.item._id === accountId);
      expect(account, 'a contract belongs to a supply').toBeDefined();
      const rates = item.rateTypes as { name: string; kind: string; rate: number; unit: string }[];
      expect(rates.length).toBeGreaterThanOrEqual(2);
      expect(rates.length).toBeLessThanOrEqual(3);
      const inForce = (account?.invoices ?? []).filter(
        (i) =>
          String(i.invoiceStartDate) >= String(item.startDate) &&
          String(i.invoiceEndDate) <= String(item.endDate),
      );
      expect(inForce.length, String(item.name)).toBeGreaterThan(0);
      for (const invoice of inForce) {
        const unitRate = rates.find((r) => r.kind === 'unit')?.rate;
        if (lineOf(invoice, 'unit')?.unitRate !== unitRate) overcharged.push(invoice);
        const standing = present(
          lineOf(invoice, 'standing'),
          `The standing charge of ${String(invoice.invoiceNumber)}`,
        );
        expect(rates.find((r) => r.kind === 'standing')?.rate).toBe(standing.unitRate);
      }
      expect(item.status).toBe(account?.item.status === 'inactive' ? 'inactive' : 'active');
    }
    // All but the three latest EDF bills the demo overcharges, for bill validation to find.
    const edf = suppliers.find((s) => s.name === 'EDF Energy')?.id;
    expect(overcharged.map((i) => [i.supplierId, i.invoiceStartDate, i.status])).toEqual(
      Array.from({ length: 3 }, () => [edf, slots.at(-1)?.start, 'captured']),
    );
    const guildford = present(
      company.contracts.find(
        (c) => c.accountId === company.ids.accounts.get('128 High Street Guildford Gas'),
      ),
      'The contract of 128 High Street Guildford Gas',
    );
    expect(guildford.item).toMatchObject({ startDate: '2025-04-01', endDate: '2026-03-31' });
  });

  it('keeps in the roll-ups the VAT, levy and standing charges of the bills, and the REGO-backed supply', () => {
    const company = plan();
    const month = slots.at(-2)?.month;
    const billed = company.accounts.filter((a) => !a.isSubMeter);
    const sum = (pick: (m: SeededMonth) => number | undefined) =>
      billed
        .flatMap((a) => a.months.filter((m) => m.month === month))
        .reduce((n, m) => n + (Number(pick(m)) || 0), 0);
    const rows = company.rollups.filter((r) => r.month === month && r.assetId === undefined);
    const total = (key: 'vat' | 'ccl' | 'standingCharge' | 'regoKwh') =>
      rows.reduce((n, r) => n + (r[key] ?? 0), 0);
    expect(total('vat')).toBeGreaterThan(0);
    expect(total('vat')).toBeCloseTo(
      sum((m) => m.vat),
      1,
    );
    expect(total('ccl')).toBeCloseTo(
      sum((m) => m.ccl),
      1,
    );
    expect(total('standingCharge')).toBeCloseTo(
      sum((m) => m.standingCharge),
      1,
    );
    // Renewable contracts run April to March, so the month before last falls in one where it has any.
    const rego = company.contracts.filter((c) => c.item.isRenewable === true && c.item.status === 'active');
    expect(rego.length).toBeGreaterThan(0);
    expect(rego.every((c) => c.item.regoBacked === true)).toBe(true);
    expect(total('regoKwh')).toBeGreaterThan(0);
    const electricity = rows.find((r) => r.utilityType === 'electricity');
    expect(total('regoKwh')).toBeLessThan(electricity?.consumption ?? 0);
  });

  it('gives every meter with a register readings that climb by the use recorded between them', () => {
    const company = plan();
    for (const account of company.accounts) {
      const readings = company.readings.filter((r) => r.accountId === account.item._id);
      if (account.type === 'waste') {
        expect(readings).toEqual([]);
        continue;
      }
      expect(readings.length, String(account.item.name)).toBe(4);
      const last = account.months.at(-1)?.month as string;
      expect(String(readings.at(-1)?.date).slice(0, 7)).toBe(last);
      for (let i = 1; i < readings.length; i++) {
        const month = String(readings[i]?.date).slice(0, 7);
        const used = account.months.find((m) => m.month === month)?.consumption ?? Number.NaN;
        expect(Number(readings[i]?.value) - Number(readings[i - 1]?.value)).toBeCloseTo(used, 1);
      }
      expect(String(readings.at(-1)?.date) < NOW.toISOString().slice(0, 10)).toBe(true);
    }
  });
});
