import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractInvoices } from '../../../shared/capture/extract.ts';
import {
  type AccuracyReport,
  analyseBytes,
  type FieldCheck,
  measureCaptureAccuracy,
  misses,
  percent,
  readableFixtures,
  seededTemplates,
  TARGET_KINDS,
} from '../../bench/capture-accuracy-lib.ts';
import { fixturePath, fixtureTruth } from '../../fixtures/invoices/truth.ts';
import { nonEmpty } from '../../support/present.ts';

/**
 * Capture accuracy on the invoice fixtures with a text layer and the scanned ones (the phone photo is
 * left to `npm run bench:capture-accuracy`): each is read by the local Textract reader, as a stack would
 * read an upload, and extracted with the seeded supplier templates and without.
 */

let report: AccuracyReport;
const fixtures = nonEmpty(readableFixtures(TARGET_KINDS), 'fixture of the target kinds');

beforeAll(async () => {
  report = await measureCaptureAccuracy(seededTemplates(), fixtures);
}, 120_000);

afterAll(() => {
  // What was wrong, for whoever is tuning a template or the generic extractor.
  for (const r of report?.fixtures ?? []) {
    const lines = [...misses(r, 'template'), ...misses(r, 'generic').map((m) => `generic ${m}`)];
    for (const line of lines.filter((l) => !l.includes('(extra)'))) console.log(`${r.file} ${line}`);
  }
});

describe('capture accuracy on the invoice fixtures', () => {
  it('reads the PDFs and the scans, OCR only for the scans', () => {
    expect(report.fixtures.map((r) => r.file).sort()).toEqual(fixtures.map((f) => f.file).sort());
    for (const r of report.fixtures) expect(r.ocr, r.file).toBe(r.kind === 'scan');
  });

  it('reads at least 98% of the fields right with the supplier templates', () => {
    expect(report.template.total).toBeGreaterThan(200);
    expect(percent(report.template)).toBeGreaterThanOrEqual(98);
  });

  it('reads at least 90% of the fields right without templates', () => {
    expect(percent(report.generic)).toBeGreaterThanOrEqual(90);
  });

  it('reads every invoice with its supplier template, split as the truth has it', () => {
    for (const r of report.fixtures) {
      expect(r.template.invoicesFound, r.file).toBe(r.invoices);
      expect(r.template.byTemplate, r.file).toBe(r.invoices);
    }
  });

  it("gets each invoice's number, period and total right with templates", () => {
    const key = (c: FieldCheck) =>
      c.meterIndex === undefined && ['invoiceNumber', 'startDate', 'endDate', 'grossTotal'].includes(c.key);
    for (const r of report.fixtures) {
      const checks = r.template.checks.filter(key);
      expect(checks, r.file).toHaveLength(4 * r.invoices);
      const wrong = checks
        .filter((c) => !c.right)
        .map((c) => `#${c.invoiceIndex} ${c.key}: ${String(c.actual)}`);
      expect(wrong, r.file).toEqual([]);
    }
  });

  it("leaves a supplier's letter that is not an invoice to the generic extractor", async () => {
    const letter = fixtureTruth('edf-letter-not-invoice.pdf');
    const { output } = await analyseBytes(new Uint8Array(readFileSync(fixturePath(letter.file))));
    const invoices = extractInvoices(output, seededTemplates()).multiInvoice.invoices;
    expect(invoices.map((i) => i.method)).toEqual(['generic']);
  });

  it('reads the meters of a multi-meter bill into their own values', () => {
    const multi = report.fixtures.find((r) => r.kind === 'multi-meter');
    const meterChecks = multi?.template.checks.filter((c) => c.meterIndex !== undefined) ?? [];
    expect(new Set(meterChecks.map((c) => c.meterIndex))).toEqual(new Set([0, 1, 2]));
    expect(meterChecks.filter((c) => !c.right)).toEqual([]);
  });
});
