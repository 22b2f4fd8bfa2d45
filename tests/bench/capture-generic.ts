/**
 * `npm run bench:capture-generic`: how many fields capture reads right, without any template, on real
 * bills and invoices from outside suppliers (tests/fixtures/public-bills, sources in its README). The
 * tuning part is what the generic reader was shaped on; the held-out parts hold layouts it never saw
 * (held-out-2 was added later, so that one held-out figure has never been watched while tuning;
 * held-out-3 is a random draw from a later batch of e-invoices whose truth comes from their XML;
 * tuning-2 and held-out-4 are a third batch split by a hash of each file name before any was read;
 * tuning-3 and held-out-5, North American utility bills, a fourth split the same way; tuning-4 and
 * held-out-6, more bills in the layout of held-out, a fifth split the same way).
 * Documents whose licence does not let them be kept here are fetched from a local mirror of their
 * repository (public-bills-fetch.ts) and skipped, with a note, when it is absent.
 * A value the truth marks null is printed nowhere on the document: reading anything for it is wrong
 * (an invented meter point or an invoice number taken from a fax number).
 * CAPTURE_VERBOSE=1 lists every wrong value; CAPTURE_MISSES=tuning,tuning-2 lists only those parts', so
 * that the held-out part stays unseen while the reader is worked on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopOcr } from '../../infra/local/textract/ocr.ts';
import { extractInvoices } from '../../shared/capture/extract.ts';
import type { ExtractedValues } from '../../shared/capture/model.ts';
import { analyseBytes } from './capture-accuracy-lib.ts';
import { publicBillPath } from './public-bills-fetch.ts';

type Expected = string | number | null | string[];
const PARTS = [
  'tuning',
  'held-out',
  'held-out-2',
  'held-out-3',
  'tuning-2',
  'held-out-4',
  'tuning-3',
  'held-out-5',
  'tuning-4',
  'held-out-6',
] as const;
type Truth = Record<(typeof PARTS)[number], Record<string, Record<string, Expected>>>;

const FIELDS = [
  'grossTotal',
  'invoiceDate',
  'invoiceNumber',
  'accountNumber',
  'supplier',
  'currency',
  'meterPointNumber',
] as const;
type Field = (typeof FIELDS)[number];

const DIR = join(import.meta.dirname, '../fixtures/public-bills');
const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as Truth;
const verbose = process.env.CAPTURE_VERBOSE === '1';
const missesOf = process.env.CAPTURE_MISSES?.split(',');

const compact = (s: string) => s.replace(/[\s-]+/g, '').toUpperCase();

function actualOf(values: ExtractedValues, field: Field): unknown {
  if (field === 'supplier') return values.supplierName?.value;
  return values[field]?.value;
}

function right(field: Field, expected: Expected, actual: unknown): boolean {
  if (expected === null) return actual === undefined || actual === null;
  if (actual === undefined || actual === null) return false;
  if (Array.isArray(expected))
    return typeof actual === 'string' && expected.some((w) => actual.toLowerCase().includes(w));
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(actual - expected) < 0.005;
  if (field === 'invoiceNumber' || field === 'accountNumber')
    return typeof actual === 'string' && compact(actual) === compact(expected);
  return actual === expected;
}

const pad = (t: string | number, w: number) => String(t).padEnd(w);
const misses: string[] = [];
const summary: string[] = [];

for (const part of PARTS) {
  const score = new Map<Field, { right: number; total: number }>(
    FIELDS.map((f) => [f, { right: 0, total: 0 }]),
  );
  // Invoices whose totals could be checked against each other, and those where they did not add up.
  let checked = 0;
  let flagged = 0;
  const skipped: string[] = [];
  for (const [file, expected] of Object.entries(truth[part])) {
    const path = publicBillPath(part, file);
    if (!path) {
      skipped.push(file);
      continue;
    }
    const { output } = await analyseBytes(new Uint8Array(readFileSync(path)));
    const invoice = extractInvoices(output, []).multiInvoice.invoices[0];
    const values = invoice?.values ?? {};
    const check = invoice?.totalsCheck;
    if (check) {
      checked += 1;
      if (check.problems.length > 0) {
        flagged += 1;
        if (!missesOf || missesOf.includes(part))
          misses.push(`  ${part} ${file} totals: ${check.problems.join('; ')}`);
      }
    }
    for (const field of FIELDS) {
      const want = expected[field];
      if (want === undefined) continue;
      const s = score.get(field);
      if (!s) continue;
      const got = actualOf(values, field);
      s.total += 1;
      if (right(field, want, got)) s.right += 1;
      else if (!missesOf || missesOf.includes(part))
        misses.push(
          `  ${part} ${file} ${field}: expected ${JSON.stringify(want)}, read ${JSON.stringify(got)}`,
        );
    }
  }
  let all = { right: 0, total: 0 };
  const cells = FIELDS.map((f) => {
    const s = score.get(f) ?? { right: 0, total: 0 };
    all = { right: all.right + s.right, total: all.total + s.total };
    return `${pad(f, 18)}${pad(`${s.right}/${s.total}`, 7)}${s.total ? ((100 * s.right) / s.total).toFixed(0) : '-'}%`;
  });
  const read = Object.keys(truth[part]).length - skipped.length;
  summary.push(
    `${part} (${read} documents${skipped.length ? `; ${skipped.length} skipped, not fetched: ${skipped.join(', ')}` : ''})`,
    ...cells.map((c) => `  ${c}`),
  );
  summary.push(
    `  ${pad('all fields', 18)}${pad(`${all.right}/${all.total}`, 7)}${((100 * all.right) / all.total).toFixed(1)}%`,
    `  totals checked ${checked}, flagged as not adding up ${flagged}`,
    '',
  );
}
await stopOcr();

console.log(summary.join('\n'));
console.log(`Wrong or missing: ${misses.length}`);
for (const m of verbose ? misses : misses.slice(0, 25)) console.log(m);
