/**
 * `npm run bench:capture-accuracy` (or `node_modules/.bin/node tests/bench/capture-accuracy.ts`):
 * how many of the invoice fixtures' true values capture reads right, with the seeded supplier templates
 * and with the generic extractor alone, and how long the local Textract reader takes per page. Every
 * fixture with invoices is read (OCR for the scans and the photo: allow a minute or two). Targets, on
 * the PDFs (text layer and scanned): ≥ 98% of fields right with templates, ≥ 90% without.
 * CAPTURE_FIXTURES=file1,file2 measures only those; CAPTURE_VERBOSE=1 lists every wrong value.
 */
import {
  type FixtureResult,
  type Method,
  measureCaptureAccuracy,
  misses,
  percent,
  readableFixtures,
  type Score,
  seededTemplates,
  TARGET_KINDS,
  totalsOf,
} from './capture-accuracy-lib.ts';

const TEMPLATE_TARGET = 98;
const GENERIC_TARGET = 90;

const only = process.env.CAPTURE_FIXTURES?.split(',').map((f) => f.trim());
const verbose = process.env.CAPTURE_VERBOSE === '1';
const fixtures = readableFixtures().filter((f) => !only || only.includes(f.file));

const fraction = (s: Score) => `${s.right}/${s.total} ${percent(s).toFixed(1).padStart(5)}%`;
const pad = (text: string | number, width: number) => String(text).padEnd(width);
const padLeft = (text: string | number, width: number) => String(text).padStart(width);

const header = `${pad('fixture', 34)}${pad('kind', 14)}${padLeft('pages', 5)}  ${pad('read', 5)}${padLeft('ms/page', 8)}  ${pad('with templates', 18)}${pad('generic', 18)}`;
console.log(`Measuring ${fixtures.length} fixtures with ${seededTemplates().length} templates\n`);
console.log(header);
console.log('-'.repeat(header.length));

const row = (r: FixtureResult) => {
  const tpl = `${fraction(r.template.score)}${r.template.byTemplate < r.invoices ? ' *' : ''}`;
  console.log(
    `${pad(r.file, 34)}${pad(r.kind, 14)}${padLeft(r.pages, 5)}  ${pad(r.ocr ? 'OCR' : 'text', 5)}${padLeft(Math.round(r.readMs / r.pages), 8)}  ${pad(tpl, 18)}${pad(fraction(r.generic.score), 18)}`,
  );
};

const report = await measureCaptureAccuracy(seededTemplates(), fixtures, row);
const targeted = totalsOf(report.fixtures.filter((r) => TARGET_KINDS.includes(r.kind)));

console.log('-'.repeat(header.length));
if (report.fixtures.some((r) => r.template.byTemplate < r.invoices)) {
  console.log('* not every invoice of the fixture was read by a template\n');
}
console.log(
  `All fixtures:     with templates ${fraction(report.template)}   generic ${fraction(report.generic)}`,
);
console.log(
  `PDFs (targets):   with templates ${fraction(targeted.template)}   generic ${fraction(targeted.generic)}`,
);
console.log(
  `Templates alone (before the generic extractor fills in): all ${fraction(report.templateAlone)}   PDFs ${fraction(targeted.templateAlone)}`,
);
console.log(
  `Names, addresses, unit rates (no target): with templates ${fraction(report.templateExtra)}   generic ${fraction(report.genericExtra)}`,
);
const ms = (v: number | undefined) => (v === undefined ? 'n/a' : `${Math.round(v)} ms`);
console.log(
  `Read time per page: text layer ${ms(report.msPerPage.digital)}, OCR ${ms(report.msPerPage.ocr)}`,
);

for (const method of ['template', 'generic'] as Method[]) {
  const wrong = report.fixtures.flatMap((r) => misses(r, method).map((m) => `  ${r.file} ${m}`));
  if (wrong.length === 0) continue;
  console.log(
    `\nWrong or missing (${method === 'template' ? 'with templates' : 'generic'}): ${wrong.length}`,
  );
  for (const line of verbose ? wrong : wrong.slice(0, 15)) console.log(line);
  if (!verbose && wrong.length > 15)
    console.log(`  … ${wrong.length - 15} more (CAPTURE_VERBOSE=1 lists all)`);
}

const results = [
  { what: 'fields right with templates', value: percent(targeted.template), target: TEMPLATE_TARGET },
  { what: 'fields right without templates', value: percent(targeted.generic), target: GENERIC_TARGET },
];
console.log('');
for (const r of results) {
  const ok = r.value >= r.target;
  console.log(`${ok ? 'ok  ' : 'MISS'} ${r.what}: ${r.value.toFixed(1)}% (target ≥ ${r.target}%)`);
  if (!ok) process.exitCode = 1;
}
