import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { getDocument, PasswordResponses } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { monthSlots } from '../../../infra/local/seed/consumption-model.ts';
import { DEMO_ESTATES } from '../../../infra/local/seed/demo-estates.ts';
import { planCompany } from '../../../infra/local/seed/plan-company.ts';
import { HISTORY_MONTHS } from '../../../infra/local/seed/seed.ts';
import { SUPPLIERS } from '../../../infra/local/seed/suppliers.ts';
import { cclRate } from '../../../shared/domain/ccl.ts';
import { isValidMpanCore } from '../../../shared/domain/mpan.ts';
import { isValidMprn } from '../../../shared/domain/mprn.ts';
import {
  type FixtureTruth,
  fixturePath,
  type InvoiceTruth,
  loadTruth,
  type TruthRate,
} from '../../fixtures/invoices/truth.ts';
import { nonEmpty } from '../../support/present.ts';

// The truth of the invoice fixtures must hold together on its own, or an accuracy figure measured
// against it means nothing: these checks redo the bills' arithmetic independently of the generator.

const fixtures = loadTruth();
const bytesOf = (f: FixtureTruth) => new Uint8Array(readFileSync(fixturePath(f.file)));
const pence = (v: number) => Math.round(Number((v * 100).toFixed(6))) / 100;
const sumOf = (rates: readonly TruthRate[]) => pence(rates.reduce((s, r) => s + r.amount, 0));
const invoices = fixtures.flatMap((f) => f.invoices.map((inv) => ({ fixture: f, inv })));
const correct = invoices.filter(({ fixture }) => fixture.problem?.type !== 'vat');

async function openPdf(data: Uint8Array, password?: string) {
  return getDocument({ data, verbosity: 0, isEvalSupported: false, ...(password ? { password } : {}) })
    .promise;
}

async function pageTexts(data: Uint8Array, password?: string): Promise<string[]> {
  const doc = await openPdf(data, password);
  try {
    const out: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      out.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

describe('invoice fixture files', () => {
  it('covers every kind the capture tests and benchmark need', () => {
    const kinds = new Set(fixtures.map((f) => f.kind));
    for (const kind of [
      'digital',
      'scan',
      'photo',
      'multi-meter',
      'multi-invoice',
      'vat-error',
      'duplicate',
      'two-page',
      'not-invoice',
      'corrupt',
      'encrypted',
    ] as const) {
      expect(kinds, kind).toContain(kind);
    }
    const digitalSuppliers = new Set(fixtures.filter((f) => f.kind === 'digital').map((f) => f.supplier));
    expect(digitalSuppliers.size).toBeGreaterThanOrEqual(3);
    expect(fixtures.filter((f) => f.kind === 'scan').length).toBeGreaterThanOrEqual(2);
  });

  it.each(fixtures.map((f) => [f.file, f] as const))(
    '%s exists as listed, with the bytes its kind says',
    (_, f) => {
      expect(existsSync(fixturePath(f.file))).toBe(true);
      const bytes = bytesOf(f);
      expect(bytes.length).toBe(f.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      const head = Buffer.from(bytes.subarray(0, 8));
      if (f.kind === 'photo') {
        expect(head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
      } else {
        expect(head.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      }
    },
  );

  it('keeps the committed fixtures small', () => {
    const total = fixtures.reduce((s, f) => s + f.bytes, 0);
    expect(total).toBeLessThan(6 * 1024 * 1024);
  });
});

describe('invoice fixture truth', () => {
  it.each(correct.map(({ fixture, inv }) => [`${fixture.file}#${inv.index}`, inv] as const))(
    '%s: units x rate = line, lines = net, net + VAT = total',
    (_, inv) => {
      for (const r of inv.rates) expect(pence(r.units * r.unitRate), r.description).toBe(r.amount);
      for (const m of inv.meters) expect(sumOf(m.rates)).toBe(m.values.netTotal);
      expect(sumOf(inv.rates)).toBe(inv.values.netTotal);
      expect(pence(inv.meters.reduce((s, m) => s + m.values.netTotal, 0))).toBe(inv.values.netTotal);
      expect(pence((inv.values.netTotal * inv.values.vatRate) / 100)).toBe(inv.values.vatTotal);
      expect(pence(inv.values.netTotal + inv.values.vatTotal)).toBe(inv.values.grossTotal);
    },
  );

  it.each(invoices.map(({ fixture, inv }) => [`${fixture.file}#${inv.index}`, inv] as const))(
    '%s: reads, consumption, standing charge and levy agree',
    (_, inv) => {
      const v = inv.values;
      for (const m of inv.meters) {
        for (const r of m.readings) expect(r.closingRead - r.openingRead).toBe(r.consumption);
        const gas = m.gasConversion;
        if (gas) {
          expect(m.readings.reduce((s, r) => s + r.consumption, 0)).toBe(gas.volumeM3);
          expect(Math.round((gas.volumeM3 * gas.volumeCorrection * gas.calorificValue) / 3.6)).toBe(gas.kwh);
          expect(m.values.consumption).toBe(gas.kwh);
        } else {
          expect(m.readings.reduce((s, r) => s + r.consumption, 0)).toBe(m.values.consumption);
        }
        expect(m.values.isEstimate).toBe(m.readings.some((r) => r.readType === 'estimated'));
      }
      expect(inv.meters.reduce((s, m) => s + m.values.consumption, 0)).toBe(v.consumption);
      expect(sumOf(inv.rates.filter((r) => r.kind === 'standing'))).toBe(v.standingCharge);
      const levy = inv.rates.filter((r) => r.kind === 'ccl');
      if (inv.account.utility === 'water') {
        expect(levy).toEqual([]);
        expect(v.vatRate).toBe(0);
        return;
      }
      const utility = inv.account.utility === 'gas' ? 'gas' : 'electricity';
      if (v.vatRate === 5) {
        // De minimis supplies are treated as domestic use: no levy.
        expect(levy).toEqual([]);
        expect(v.climateChangeLevy).toBeUndefined();
      } else {
        expect(v.vatRate).toBe(20);
        expect(levy.length).toBe(inv.meters.length);
        for (const r of levy) expect(r.unitRate).toBe(cclRate(utility, v.startDate));
        expect(sumOf(levy)).toBe(v.climateChangeLevy);
        expect(levy.reduce((s, r) => s + r.units, 0)).toBe(v.consumption);
      }
    },
  );

  it('has exactly one VAT error, wrong by the amount it states', () => {
    const wrong = fixtures.filter((f) => f.problem?.type === 'vat');
    expect(wrong.map((f) => f.kind)).toEqual(['vat-error']);
    const [fixture] = wrong;
    const problem = fixture?.problem;
    if (problem?.type !== 'vat') throw new Error('no VAT problem');
    const inv = fixture?.invoices[problem.invoiceIndex];
    if (!inv) throw new Error('no invoice');
    const v = inv.values;
    const expected = pence((v.netTotal * v.vatRate) / 100);
    expect(problem.expected).toBe(expected);
    expect(problem.stated).toBe(v.vatTotal);
    expect(v.vatTotal).not.toBe(expected);
    expect(pence(v.vatTotal - expected)).toBe(problem.difference);
    expect(Math.abs(problem.difference)).toBeGreaterThanOrEqual(1);
    // Only the VAT line is wrong: the lines still make the net, and the total adds the stated VAT.
    expect(sumOf(inv.rates)).toBe(v.netTotal);
    expect(pence(v.netTotal + v.vatTotal)).toBe(v.grossTotal);
  });

  it('marks the duplicate as a copy of another fixture with the same number and amounts', () => {
    for (const f of nonEmpty(
      fixtures.filter((x) => x.kind === 'duplicate'),
      'duplicate fixture',
    )) {
      const problem = f.problem;
      if (problem?.type !== 'duplicate-of') throw new Error(`${f.file} names no original`);
      const original = fixtures.find((x) => x.file === problem.file);
      expect(original?.sha256).toBeDefined();
      expect(original?.sha256).not.toBe(f.sha256);
      const [a, b] = [original?.invoices[0]?.values, f.invoices[0]?.values];
      expect(b?.invoiceNumber).toBe(problem.invoiceNumber);
      expect(b).toEqual(a);
    }
  });

  it('uses valid meter point numbers, and a one-meter bill repeats its meter values', () => {
    for (const { fixture, inv } of nonEmpty(invoices, 'fixture invoice')) {
      for (const m of inv.meters) {
        const point = m.values.meterPointNumber ?? '';
        if (inv.account.utility === 'electricity') {
          expect(isValidMpanCore(point), `${fixture.file} ${point}`).toBe(true);
          expect(m.mpanTopLine).toMatch(/^\d{2} \d{3} [0-9A-Z]{3}$/);
        }
        if (inv.account.utility === 'gas') expect(isValidMprn(point), `${fixture.file} ${point}`).toBe(true);
        if (inv.account.utility === 'water') expect(m.spid?.water).toMatch(/^\d{10}W\d{2}$/);
      }
      expect(inv.account.meterPointNumbers).toEqual(inv.meters.map((m) => m.values.meterPointNumber));
      const [only] = inv.meters;
      if (inv.meters.length === 1 && only) {
        // A one-meter bill's values are its meter's.
        for (const [key, value] of Object.entries(only.values)) {
          expect(inv.values[key as keyof typeof only.values], `${fixture.file} ${key}`).toBe(value);
        }
      }
    }
  });

  it("names the local seed's Demo Estates accounts by their meter points", () => {
    const now = new Date('2026-11-01T00:00:00Z');
    const suppliers = SUPPLIERS.map((s, i) => ({ id: (i + 1).toString(16).padStart(24, '0'), ...s }));
    const plan = planCompany(DEMO_ESTATES, suppliers, monthSlots(now, HISTORY_MONTHS), 'fixtures-test', now);
    let seeded = 0;
    for (const { inv } of invoices) {
      inv.meters.forEach((m) => {
        if (m.demoAccount === null) return;
        const account = plan.accounts.find((a) => a.item.name === m.demoAccount);
        expect(account?.item.meterPointNumber, m.demoAccount).toBe(m.values.meterPointNumber);
        expect(account?.type).toBe(inv.account.utility);
        expect(suppliers.find((s) => s.id === account?.item.supplierId)?.name).toBe(inv.account.supplier);
        seeded++;
      });
    }
    expect(seeded).toBeGreaterThanOrEqual(10);
    // An upload of a fixture must not look like a duplicate of a bill the demo already holds.
    const seedNumbers = new Set(plan.accounts.flatMap((a) => a.invoices.map((i) => i.invoiceNumber)));
    expect(seedNumbers.size).toBeGreaterThan(100);
    for (const { inv } of invoices) expect(seedNumbers.has(inv.values.invoiceNumber)).toBe(false);
  });

  it('gives each invoice of a document its own pages, in order', () => {
    const paged = fixtures.filter((x) => x.invoices.length > 0 && x.pageCount !== null);
    for (const f of nonEmpty(paged, 'fixture with invoices and a page count')) {
      const pages = f.invoices.flatMap((i: InvoiceTruth) => i.pages);
      expect(pages).toEqual(Array.from({ length: f.pageCount ?? 0 }, (_, i) => i + 1));
    }
    const multi = fixtures.find((f) => f.kind === 'multi-invoice');
    expect(new Set(multi?.invoices.map((i) => i.account.accountNumber)).size).toBe(3);
  });
});

describe('invoice fixture PDFs', () => {
  const textLayer = fixtures.filter((f) => !['scan', 'photo', 'corrupt'].includes(f.kind));

  it.each(textLayer.map((f) => [f.file, f] as const))(
    '%s has a text layer holding each invoice number on its pages',
    async (_, f) => {
      const password = f.problem?.type === 'encrypted' ? f.problem.userPassword : undefined;
      const texts = await pageTexts(bytesOf(f), password);
      expect(texts.length).toBe(f.pageCount);
      for (const inv of f.invoices) {
        const first = texts[(inv.pages[0] ?? 0) - 1] ?? '';
        expect(first).toContain(inv.values.invoiceNumber);
        expect(first).toContain(inv.values.accountNumber);
        // MPANs are printed in digit groups, so compare without spaces.
        const compact = inv.pages
          .map((p) => texts[p - 1] ?? '')
          .join('')
          .replace(/\s+/g, '');
        for (const point of inv.account.meterPointNumbers) expect(compact).toContain(point);
      }
      if (f.kind === 'not-invoice') expect(texts.join(' ')).not.toMatch(/invoice number/i);
    },
  );

  it.each(fixtures.filter((f) => f.kind === 'scan').map((f) => [f.file, f] as const))(
    '%s holds page images only, no text',
    async (_, f) => {
      const texts = await pageTexts(bytesOf(f));
      expect(texts.length).toBe(f.pageCount);
      expect(texts.join('').trim()).toBe('');
    },
  );

  it('the corrupt fixture cannot be opened', async () => {
    const f = fixtures.find((x) => x.kind === 'corrupt');
    if (!f) throw new Error('no corrupt fixture');
    await expect(openPdf(bytesOf(f))).rejects.toThrow(/Invalid PDF/);
  });

  it('the encrypted fixture needs its password', async () => {
    const f = fixtures.find((x) => x.kind === 'encrypted');
    if (f?.problem?.type !== 'encrypted') throw new Error('no encrypted fixture');
    await expect(openPdf(bytesOf(f))).rejects.toMatchObject({
      name: 'PasswordException',
      code: PasswordResponses.NEED_PASSWORD,
    });
    await expect(openPdf(bytesOf(f), 'wrong')).rejects.toMatchObject({
      code: PasswordResponses.INCORRECT_PASSWORD,
    });
  });
});
