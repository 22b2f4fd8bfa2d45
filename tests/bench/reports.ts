/**
 * `npm run bench:reports` (Node 24): a portfolio energy and carbon summary of 500 sites, built and drawn
 * as a PDF (cover, contents, chart, the utility and month tables, top movers and every site across pages)
 * by the same code the report worker runs, from figures shaped as the analytics answer them. Reads the
 * PDF back to count its pages. The target: ≤ 10 s. BENCH_SITES and BENCH_RUNS change the size.
 */
import { createPrng } from '../../infra/local/seed/prng.ts';
import { type PeriodFigures, type SiteFigures, summaryReport } from '../../shared/reports/report-builders.ts';
import { reportXlsx } from '../../shared/reports/report-files.ts';
import { reportPdf } from '../../shared/reports/report-pdf.ts';
import { pdfPages } from '../support/report-files.ts';

const SITES = Number(process.env.BENCH_SITES ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LIMIT_MS = 10_000;

const rng = createPrng('reports-bench');

const period = (year: number, scale: number): PeriodFigures => ({
  start: `${year}-01-01`,
  end: `${year}-12-31`,
  utilities: {
    electricity: { consumption: 9e6 * scale, unit: 'kWh', emissionsKg: 1.86e6 * scale, cost: 2.4e6 * scale },
    gas: { consumption: 6e6 * scale, unit: 'kWh', emissionsKg: 1.1e6 * scale, cost: 4.5e5 * scale },
    water: { consumption: 4e4 * scale, unit: 'm³', emissionsKg: 6.8e3 * scale, cost: 8e4 * scale },
  },
  cost: 2.93e6 * scale,
  emissionsKg: 2.97e6 * scale,
  scope1Kg: 1.1e6 * scale,
  scope2LocationKg: 1.86e6 * scale,
  scope2MarketKg: 9e5 * scale,
  scope3Kg: 6.8e3 * scale,
});

function input() {
  const sites: SiteFigures[] = Array.from({ length: SITES }, (_, i) => {
    const kwh = 5e3 + rng.next() * 6e4;
    const before = kwh * (0.7 + rng.next() * 0.6);
    return {
      id: String(i).padStart(24, '0'),
      name: `Site ${i + 1} ${['House', 'Court', 'Point', 'Gate', 'Works'][i % 5]}`,
      current: { energyKwh: kwh, emissionsKg: kwh * 0.2, cost: kwh * 0.25 },
      previous: { energyKwh: before, emissionsKg: before * 0.21, cost: before * 0.22 },
    };
  });
  return {
    companyName: 'Large Estates plc',
    scopeName: `Portfolio of ${SITES} sites`,
    dataDate: new Date('2025-12-31T00:00:00Z'),
    factorSets: ['DESNZ 2024', 'DESNZ 2025'],
    current: period(2025, 1),
    previous: period(2024, 1.08),
    sites,
    months: Array.from({ length: 12 }, (_, m) => ({
      month: `2025-${String(m + 1).padStart(2, '0')}`,
      label: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m] ?? '',
      utilities: {
        electricity: { consumption: 7.5e5 + rng.next() * 1e5, unit: 'kWh', emissionsKg: 1.5e5, cost: 2e5 },
        gas: { consumption: 5e5 * (m < 3 || m > 9 ? 2 : 0.5), unit: 'kWh', emissionsKg: 9e4, cost: 4e4 },
      },
      emissionsKg: 2.4e5,
      cost: 2.4e5,
    })),
    costsIncluded: true,
  };
}

async function main() {
  const data = input();
  const times: number[] = [];
  let pages = 0;
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const pdf = await reportPdf(summaryReport(data, 'portfolio'));
    times.push(performance.now() - started);
    pages = pdf.pages;
    bytes = pdf.bytes.length;
    if (run === 0) {
      const read = await pdfPages(pdf.bytes);
      if (read.length !== pages)
        throw new Error(`The PDF reads back with ${read.length} pages, not ${pages}`);
    }
  }
  const xlsxStarted = performance.now();
  const xlsx = reportXlsx(summaryReport(data, 'portfolio'));
  const xlsxMs = performance.now() - xlsxStarted;
  const worst = Math.max(...times);
  console.log(
    `reports: portfolio PDF of ${SITES} sites, ${pages} pages, ${(bytes / 1024).toFixed(0)} KiB: ` +
      `${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} (worst ${(worst / 1000).toFixed(2)} s, limit ${LIMIT_MS / 1000} s); ` +
      `XLSX ${(xlsx.length / 1024).toFixed(0)} KiB in ${xlsxMs.toFixed(0)} ms`,
  );
  if (worst > LIMIT_MS) {
    console.error(`reports: over the limit of ${LIMIT_MS / 1000} s`);
    process.exitCode = 1;
  }
}

await main();
