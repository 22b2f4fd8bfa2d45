import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentBlocks, layoutOf } from '../../../infra/local/textract/blocks.ts';
import { expenseDocuments } from '../../../infra/local/textract/expense.ts';
import { readDocument } from '../../../infra/local/textract/reader.ts';
import { captureStatus, extractInvoices } from '../../../shared/capture/extract.ts';
import type { CaptureResults, InvoiceKey } from '../../../shared/capture/model.ts';
import type { TextractOutput } from '../../../shared/capture/textract.ts';
import { type FixtureTruth, fixturePath, loadTruth } from '../../fixtures/invoices/truth.ts';
import { nonEmpty, present } from '../../support/present.ts';

/**
 * The invoice fixtures with a text layer, read by the local Textract stand-in's reader (its functions,
 * not its HTTP API) and extracted without templates, scored field by field against truth.json.
 */

const TEXT_LAYER = new Set(['digital', 'multi-meter', 'duplicate', 'multi-invoice', 'vat-error', 'two-page']);

const normalise = (v: unknown) =>
  typeof v === 'string'
    ? v
        .toLowerCase()
        .replace(/[\s,]+/g, ' ')
        .trim()
    : v;
const same = (got: unknown, want: unknown) =>
  typeof want === 'number'
    ? typeof got === 'number' && Math.abs(got - want) < 1e-6
    : normalise(got) === normalise(want);

async function analyse(file: string): Promise<TextractOutput> {
  const doc = await readDocument(new Uint8Array(readFileSync(fixturePath(file))), {
    maxPages: 3000,
    ocrDpi: 300,
  });
  const layouts = layoutOf(doc);
  const metadata = { Pages: doc.pages.length };
  return {
    document: { DocumentMetadata: metadata, Blocks: documentBlocks(layouts, { tables: true, forms: true }) },
    expense: { DocumentMetadata: metadata, ExpenseDocuments: expenseDocuments(layouts) },
  };
}

interface Score {
  right: number;
  total: number;
  misses: string[];
}

const score = (): Score => ({ right: 0, total: 0, misses: [] });
const mark = (s: Score, good: boolean, miss: string) => {
  s.total += 1;
  if (good) s.right += 1;
  else s.misses.push(miss);
};
const ratio = (s: Score) => s.right / Math.max(1, s.total);

describe('generic extraction of the invoice fixtures', () => {
  const results = new Map<string, { truth: FixtureTruth; results: CaptureResults; ms: number }>();
  const fields = score();
  const rates = score();
  const readings = score();
  const meters = score();

  beforeAll(async () => {
    for (const truth of loadTruth()) {
      if (!TEXT_LAYER.has(truth.kind) && truth.kind !== 'not-invoice') continue;
      const output = await analyse(truth.file);
      // Timed warm, as a long-running worker runs it.
      extractInvoices(output, []);
      const start = performance.now();
      const extracted = extractInvoices(output, []);
      results.set(truth.file, { truth, results: extracted, ms: performance.now() - start });
    }
    for (const { truth, results: extracted } of results.values()) {
      for (const invoice of truth.invoices) {
        const got = extracted.multiInvoice.invoices.find((i) => i.pages[0] === invoice.pages[0]);
        const where = `${truth.file}#${invoice.index}`;
        for (const [key, want] of Object.entries(invoice.values)) {
          const value = got?.values[key as InvoiceKey]?.value;
          mark(
            fields,
            same(value, want),
            `${where} ${key}: ${JSON.stringify(value)} for ${JSON.stringify(want)}`,
          );
        }
        const lines = got
          ? [
              ...got.rates,
              ...extracted.extractRates.filter((r) => r.invoiceIndex === got.index).flatMap((r) => r.rates),
            ]
          : [];
        for (const want of invoice.rates) {
          const found = lines.some(
            (l) =>
              l.kind === want.kind &&
              same(l.amount, want.amount) &&
              same(l.units, want.units) &&
              same(l.unitRate, want.unitRate),
          );
          mark(rates, found, `${where} rate ${want.description} ${want.amount}`);
        }
        const reads = got
          ? extracted.extractReadings.filter((r) => r.invoiceIndex === got.index).flatMap((r) => r.readings)
          : [];
        for (const want of invoice.readings) {
          const found = reads.some(
            (r) =>
              r.openingRead === want.openingRead &&
              r.closingRead === want.closingRead &&
              r.readType === want.readType,
          );
          mark(readings, found, `${where} reading ${want.register} ${want.openingRead}-${want.closingRead}`);
        }
        if (invoice.meters.length > 1) {
          invoice.meters.forEach((meter, m) => {
            const values = extracted.extractMeterValues.find(
              (e) => e.invoiceIndex === got?.index && e.meterIndex === m,
            )?.values;
            for (const [key, want] of Object.entries(meter.values)) {
              const value = values?.[key as InvoiceKey]?.value;
              mark(meters, same(value, want), `${where} meter ${m} ${key}: ${JSON.stringify(value)}`);
            }
          });
        }
      }
    }
    const pct = (s: Score) => `${(ratio(s) * 100).toFixed(1)}% (${s.right}/${s.total})`;
    console.info(
      `fixture accuracy: fields ${pct(fields)}, charge lines ${pct(rates)}, readings ${pct(readings)}, ` +
        `meter values ${pct(meters)}; slowest extraction ${Math.max(...[...results.values()].map((r) => r.ms)).toFixed(1)} ms`,
    );
    for (const miss of [...fields.misses, ...rates.misses, ...readings.misses, ...meters.misses]) {
      console.info(`  missed ${miss}`);
    }
  }, 120_000);

  it('reads at least 90% of the invoice fields right', () => {
    expect(fields.total).toBeGreaterThan(150);
    expect(ratio(fields)).toBeGreaterThanOrEqual(0.9);
  });

  it('reads at least 90% of the charge lines, register readings and meter values right', () => {
    expect(ratio(rates)).toBeGreaterThanOrEqual(0.9);
    expect(ratio(readings)).toBeGreaterThanOrEqual(0.9);
    expect(ratio(meters)).toBeGreaterThanOrEqual(0.9);
  });

  it('splits each document into the invoices it holds', () => {
    const withInvoices = [...results.values()].filter((r) => r.truth.invoices.length > 0);
    for (const { truth, results: extracted } of nonEmpty(withInvoices, 'fixture with invoices')) {
      expect(
        extracted.multiInvoice.invoices.map((i) => i.pages),
        truth.file,
      ).toEqual(truth.invoices.map((i) => i.pages));
    }
  });

  it('finds the meters of a multi-meter bill and no meter point for the bill as a whole', () => {
    const multi = present(
      [...results.values()].find((r) => r.truth.kind === 'multi-meter'),
      'The multi-meter fixture',
    );
    const invoice = present(multi.truth.invoices[0], `The truth of ${multi.truth.file}'s first invoice`);
    const read = present(
      multi.results.multiInvoice.invoices[0],
      `The first invoice read from ${multi.truth.file}`,
    );
    expect(invoice.account.meterPointNumbers.length).toBeGreaterThan(1);
    expect(read.multiMeter.meters.map((m) => m.meterPointNumber)).toEqual(invoice.account.meterPointNumbers);
    expect(read.values.meterPointNumber).toBeUndefined();
  });

  it('captures every invoice of the fixtures and leaves the letter for manual entry', () => {
    for (const { truth, results: extracted } of nonEmpty([...results.values()], 'extracted fixture')) {
      expect(captureStatus(extracted), truth.file).toBe(truth.kind === 'not-invoice' ? 'manual' : 'captured');
    }
  });
});
