import { readFileSync } from 'node:fs';
import { newId } from '../../functions/core/lib/ids.ts';
import { invoiceTemplates } from '../../infra/local/seed/invoice-templates.ts';
import { documentBlocks, layoutOf } from '../../infra/local/textract/blocks.ts';
import { expenseDocuments } from '../../infra/local/textract/expense.ts';
import { stopOcr } from '../../infra/local/textract/ocr.ts';
import type { DocumentText } from '../../infra/local/textract/page-text.ts';
import { MAX_PAGES, readDocument } from '../../infra/local/textract/reader.ts';
import { DEFAULT_OCR_DPI } from '../../infra/local/textract/server.ts';
import { extractInvoices, previewTemplate } from '../../shared/capture/extract.ts';
import type { CaptureResults, ExtractedValues, InvoiceKey, Template } from '../../shared/capture/model.ts';
import type { TextractOutput } from '../../shared/capture/textract.ts';
import { type FixtureKind, type FixtureTruth, fixturePath, loadTruth } from '../fixtures/invoices/truth.ts';

/**
 * How much of the invoice fixtures capture reads right: each fixture is read by the local Textract
 * stand-in's reader (text layer, or OCR for scans and photos), extracted with the supplier templates and
 * without any, and every value the truth holds is compared with what was read.
 */

/** The values capture and validation rely on: the headline accuracy counts these. */
export const MEASURED_KEYS = [
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'startDate',
  'endDate',
  'accountNumber',
  'meterPointNumber',
  'meterSerialNumber',
  'openingRead',
  'closingRead',
  'isEstimate',
  'consumption',
  'consumptionUnit',
  'standingCharge',
  'climateChangeLevy',
  'netTotal',
  'vatRate',
  'vatTotal',
  'grossTotal',
] as const satisfies readonly InvoiceKey[];

/** Values the truth also holds, reported on their own: names, addresses and a single unit rate. */
export const EXTRA_KEYS = ['recipient', 'siteAddress', 'unitRate'] as const satisfies readonly InvoiceKey[];

/** Fixtures with no invoice to compare: files that cannot be opened, and a letter. */
const UNREADABLE: readonly FixtureKind[] = ['corrupt', 'encrypted', 'not-invoice'];

export type Method = 'template' | 'generic';

export interface FieldCheck {
  invoiceIndex: number;
  /** Set for a value of one meter of a multi-meter invoice. */
  meterIndex?: number;
  key: InvoiceKey;
  expected: string | number | boolean;
  actual: string | number | boolean | null | undefined;
  right: boolean;
  /** One of MEASURED_KEYS (else an extra). */
  measured: boolean;
}

export interface Score {
  right: number;
  total: number;
}

export interface MethodResult {
  /** Measured keys. */
  score: Score;
  extra: Score;
  checks: FieldCheck[];
  /** Invoices found in the document (the truth's count is `FixtureResult.invoices`). */
  invoicesFound: number;
  /** Invoices read by a template (always 0 for the generic run). */
  byTemplate: number;
  extractMs: number;
}

export interface FixtureResult {
  file: string;
  kind: FixtureKind;
  pages: number;
  invoices: number;
  ocr: boolean;
  readMs: number;
  template: MethodResult;
  generic: MethodResult;
  /**
   * What the matching template reads by itself, before the generic extractor fills the keys it left
   * empty (sums the bill does not print, such as a multi-meter bill's standing charges).
   */
  templateAlone: Score;
}

export interface Totals {
  template: Score;
  templateAlone: Score;
  generic: Score;
  templateExtra: Score;
  genericExtra: Score;
}

export interface AccuracyReport extends Totals {
  fixtures: FixtureResult[];
  /** Reading time per page of text-layer PDFs and of OCR'd scans and photos. */
  msPerPage: { digital?: number; ocr?: number };
}

/**
 * The fixtures the accuracy targets are set on: the PDFs, with a text layer or scanned. A phone photo
 * is measured too, but held to no target.
 */
export const TARGET_KINDS: readonly FixtureKind[] = [
  'digital',
  'scan',
  'multi-meter',
  'multi-invoice',
  'vat-error',
  'duplicate',
  'two-page',
];

export const percent = (s: Score) => (s.total === 0 ? 100 : (100 * s.right) / s.total);

/** Textract's two analyses of a document, as the stand-in answers them (tables and forms asked for). */
export function textractOutputOf(doc: DocumentText): TextractOutput {
  const layouts = layoutOf(doc);
  const metadata = { Pages: doc.pages.length };
  return {
    document: { DocumentMetadata: metadata, Blocks: documentBlocks(layouts, { tables: true, forms: true }) },
    expense: { DocumentMetadata: metadata, ExpenseDocuments: expenseDocuments(layouts) },
    ocr: doc.pages.some((p) => p.ocr),
  };
}

/** The templates the demo stack seeds, each supplier given an id of its own. */
export function seededTemplates(): Template[] {
  const ids = new Map<string, string>();
  return invoiceTemplates((name) => {
    const id = ids.get(name) ?? newId();
    ids.set(name, id);
    return id;
  });
}

/** Reads a document's bytes as the stand-in does, in this thread, with the time it took. */
export async function analyseBytes(bytes: Uint8Array): Promise<{ output: TextractOutput; ms: number }> {
  const started = performance.now();
  const doc = await readDocument(bytes, { maxPages: MAX_PAGES, ocrDpi: DEFAULT_OCR_DPI });
  const ms = performance.now() - started;
  return { output: textractOutputOf(doc), ms };
}

/** The fixtures with invoices to read, optionally only those of some kinds. */
export function readableFixtures(kinds?: readonly FixtureKind[]): FixtureTruth[] {
  return loadTruth().filter(
    (f) => f.invoices.length > 0 && !UNREADABLE.includes(f.kind) && (!kinds || kinds.includes(f.kind)),
  );
}

const normaliseSpace = (s: string) => s.trim().replace(/\s+/g, ' ');
/** An address printed over several lines is the same address with or without its commas. */
const normaliseAddress = (s: string) => normaliseSpace(s.replace(/,/g, ' '));
const meterPointOf = (s: string) => s.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/** Whether a value read is the true one: numbers within half a penny, text and dates as printed. */
export function valueMatches(
  key: InvoiceKey,
  expected: string | number | boolean,
  actual: string | number | boolean | null | undefined,
): boolean {
  if (actual === undefined || actual === null) return false;
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) < 0.005;
  if (typeof expected === 'boolean') return actual === expected;
  if (typeof actual !== 'string') return false;
  if (key === 'meterPointNumber') return meterPointOf(actual) === meterPointOf(expected);
  if (key === 'siteAddress') return normaliseAddress(actual) === normaliseAddress(expected);
  return normaliseSpace(actual) === normaliseSpace(expected);
}

type TruthValues = Partial<Record<InvoiceKey, string | number | boolean>>;

function check(
  truth: TruthValues,
  read: ExtractedValues,
  where: { invoiceIndex: number; meterIndex?: number },
): FieldCheck[] {
  const checks: FieldCheck[] = [];
  for (const key of [...MEASURED_KEYS, ...EXTRA_KEYS]) {
    const expected = truth[key];
    if (expected === undefined) continue;
    const actual = read[key]?.value;
    checks.push({
      ...where,
      key,
      expected,
      actual,
      right: valueMatches(key, expected, actual),
      measured: (MEASURED_KEYS as readonly string[]).includes(key),
    });
  }
  return checks;
}

/**
 * Every truth value of a fixture against the capture results: invoice by invoice in document order,
 * and for a multi-meter invoice each meter's values against that meter's extracted values.
 */
export function checkResults(fixture: FixtureTruth, results: CaptureResults): FieldCheck[] {
  const checks: FieldCheck[] = [];
  fixture.invoices.forEach((invoice, invoiceIndex) => {
    const read = results.multiInvoice.invoices[invoiceIndex];
    checks.push(...check(invoice.values, read?.values ?? {}, { invoiceIndex }));
    if (invoice.meters.length < 2) return;
    for (const meter of invoice.meters) {
      const values = results.extractMeterValues.find(
        (m) => m.invoiceIndex === invoiceIndex && m.meterIndex === meter.index,
      )?.values;
      checks.push(...check(meter.values, values ?? {}, { invoiceIndex, meterIndex: meter.index }));
    }
  });
  return checks;
}

function scoreOf(checks: readonly FieldCheck[], measured: boolean): Score {
  const own = checks.filter((c) => c.measured === measured);
  return { right: own.filter((c) => c.right).length, total: own.length };
}

function runMethod(
  fixture: FixtureTruth,
  output: TextractOutput,
  templates: readonly Template[],
): MethodResult {
  const started = performance.now();
  const results = extractInvoices(output, templates);
  const extractMs = performance.now() - started;
  const checks = checkResults(fixture, results);
  const invoices = results.multiInvoice.invoices;
  return {
    score: scoreOf(checks, true),
    extra: scoreOf(checks, false),
    checks,
    invoicesFound: invoices.length,
    byTemplate: invoices.filter((i) => i.method === 'template').length,
    extractMs,
  };
}

/** The template that read the document, on its own, as the template editor previews it. */
function templateAloneScore(
  fixture: FixtureTruth,
  output: TextractOutput,
  templates: readonly Template[],
): Score {
  const results = extractInvoices(output, templates);
  const template = templates.find((t) => t._id === results.multiInvoice.invoices[0]?.templateId);
  const preview = template ? previewTemplate(output, template) : undefined;
  const alone: CaptureResults = {
    pageCount: results.pageCount,
    ocr: results.ocr,
    multiInvoice: {
      invoices: (preview?.invoices ?? []).map((i) => ({
        index: i.index,
        pages: i.pages,
        method: 'template',
        values: i.values,
        rates: i.rates,
        multiMeter: { meters: [] },
      })),
    },
    extractMeterValues: (preview?.invoices ?? []).flatMap((i) =>
      i.meters.map((m) => ({
        invoiceIndex: i.index,
        utilityType: m.utilityType,
        meterIndex: m.meterIndex,
        values: m.values,
      })),
    ),
    extractRates: [],
    extractReadings: [],
  };
  return scoreOf(checkResults(fixture, alone), true);
}

/** One fixture read once and extracted both ways. */
export async function measureFixture(
  fixture: FixtureTruth,
  templates: readonly Template[],
): Promise<FixtureResult> {
  const bytes = new Uint8Array(readFileSync(fixturePath(fixture.file)));
  const { output, ms } = await analyseBytes(bytes);
  return {
    file: fixture.file,
    kind: fixture.kind,
    pages: output.document.DocumentMetadata.Pages,
    invoices: fixture.invoices.length,
    ocr: output.ocr ?? false,
    readMs: ms,
    template: runMethod(fixture, output, templates),
    generic: runMethod(fixture, output, []),
    templateAlone: templateAloneScore(fixture, output, templates),
  };
}

const add = (scores: readonly Score[]): Score => ({
  right: scores.reduce((s, x) => s + x.right, 0),
  total: scores.reduce((s, x) => s + x.total, 0),
});

/** Fields right over fields in the truth, summed over fixtures. */
export function totalsOf(results: readonly FixtureResult[]): Totals {
  return {
    template: add(results.map((r) => r.template.score)),
    templateAlone: add(results.map((r) => r.templateAlone)),
    generic: add(results.map((r) => r.generic.score)),
    templateExtra: add(results.map((r) => r.template.extra)),
    genericExtra: add(results.map((r) => r.generic.extra)),
  };
}

function perPage(results: readonly FixtureResult[]): number | undefined {
  const pages = results.reduce((s, r) => s + r.pages, 0);
  return pages === 0 ? undefined : results.reduce((s, r) => s + r.readMs, 0) / pages;
}

/**
 * Measures the given fixtures (by default every readable one) one after another, so reading times are
 * not inflated by each other. Stops the OCR engine when done; its start-up counts in the first scan.
 */
export async function measureCaptureAccuracy(
  templates: readonly Template[],
  fixtures: readonly FixtureTruth[] = readableFixtures(),
  onFixture?: (result: FixtureResult) => void,
): Promise<AccuracyReport> {
  const results: FixtureResult[] = [];
  try {
    // pdf.js is loaded with the first PDF: that one-off cost is no page's reading time.
    const first = fixtures.find((f) => f.file.endsWith('.pdf'));
    if (first) await analyseBytes(new Uint8Array(readFileSync(fixturePath(first.file))));
    for (const fixture of fixtures) {
      const result = await measureFixture(fixture, templates);
      results.push(result);
      onFixture?.(result);
    }
  } finally {
    await stopOcr();
  }
  const digital = perPage(results.filter((r) => !r.ocr));
  const ocr = perPage(results.filter((r) => r.ocr));
  return {
    fixtures: results,
    ...totalsOf(results),
    msPerPage: {
      ...(digital !== undefined ? { digital } : {}),
      ...(ocr !== undefined ? { ocr } : {}),
    },
  };
}

/** The wrong values of a method, one line each, for a report. */
export function misses(result: FixtureResult, method: Method): string[] {
  return result[method].checks
    .filter((c) => !c.right)
    .map((c) => {
      const where = `#${c.invoiceIndex}${c.meterIndex !== undefined ? ` meter ${c.meterIndex}` : ''}`;
      const actual = c.actual === undefined ? '(none)' : JSON.stringify(c.actual);
      return `${where} ${c.key}${c.measured ? '' : ' (extra)'}: expected ${JSON.stringify(c.expected)}, read ${actual}`;
    });
}
