/**
 * The analytics bench's data, written as a user would write it: spreadsheets uploaded through the local
 * stack (an upload URL from the API, a signed PUT to its S3, the imports worker reading the file off the
 * queue, then the import started through the API and written by the worker), so every meter's months
 * and every roll-up the reads use are kept by the product's own write path. Also the figures those files
 * hold, worked out here, so the bench can check what the product answers against what was written.
 */

import { settlementPeriods } from '../../shared/analytics/half-hourly.ts';
import { mpanCheckDigit } from '../../shared/domain/mpan.ts';

export type Utility = 'electricity' | 'gas' | 'water';

export interface BenchMeter {
  id: string;
  assetId: string;
  type: Utility;
  meterPointNumber: string;
}

/** A month's consumption around these, varied by meter and month. */
const BASE: Record<Utility, number> = { electricity: 4_000, gas: 6_600, water: 30 };
const PRICE: Record<Utility, number> = { electricity: 0.28, gas: 0.07, water: 2.1 };

/** What the monthly file says of the i-th meter's k-th month: whole units and pence. */
export function monthFigures(meterIndex: number, monthIndex: number, type: Utility) {
  const spread = 0.7 + ((meterIndex * 7_919 + monthIndex * 104_729) % 601) / 1000;
  const consumption = Math.round(BASE[type] * spread);
  return { consumption, cost: Math.round(consumption * PRICE[type] * 100) / 100 };
}

/** The half-hourly meters' values: quarters of a kWh, so day and month sums are exact. */
export const periodValue = (meterIndex: number, dayIndex: number, period: number) =>
  ((meterIndex + period + dayIndex) % 17) / 4;

/** The i-th half-hourly meter's MPAN: a distributor and a number no large-company meter draws. */
export function halfHourlyMpan(i: number): string {
  const first12 = `99${String(i).padStart(10, '0')}`;
  return `${first12}${mpanCheckDigit(first12)}`;
}

/** Periods by date: working them out (clock changes) for every meter's every day takes seconds. */
const periodsOf = new Map<string, number>();

/** The i-th half-hourly meter's total for a day, as the file gives its periods. */
export function dayTotal(meterIndex: number, dayIndex: number, date: string): number {
  const periods = periodsOf.get(date) ?? settlementPeriods(date);
  periodsOf.set(date, periods);
  let sum = 0;
  for (let p = 0; p < periods; p++) sum += periodValue(meterIndex, dayIndex, p);
  return sum;
}

/** Monthly consumption files of whole meters, about `rows` rows each: MPAN or MPRN, month, kWh, cost. */
export function* monthlyFiles(meters: readonly BenchMeter[], months: readonly string[], rows: number) {
  const perFile = Math.max(1, Math.floor(rows / months.length));
  for (let from = 0; from < meters.length; from += perFile) {
    const lines = ['MPAN,Month,Consumption,Cost'];
    for (let m = from; m < Math.min(meters.length, from + perFile); m++) {
      const meter = meters[m] as BenchMeter;
      for (const [k, month] of months.entries()) {
        const { consumption, cost } = monthFigures(m, k, meter.type);
        lines.push(`${meter.meterPointNumber},${month},${consumption},${cost.toFixed(2)}`);
      }
    }
    yield { first: from, rows: lines.length - 1, text: `${lines.join('\r\n')}\r\n` };
  }
}

/** Wide half-hourly files (MPAN, date, HH1..HH50) of `perFile` meters each, a row per meter-day. */
export function* halfHourlyFiles(count: number, days: readonly string[], perFile: number) {
  const header = ['MPAN', 'Date', ...Array.from({ length: 50 }, (_, i) => `HH${i + 1}`)].join(',');
  for (let from = 0; from < count; from += perFile) {
    const lines = [header];
    for (let m = from; m < Math.min(count, from + perFile); m++) {
      const mpan = halfHourlyMpan(m);
      for (const [d, date] of days.entries()) {
        const values = Array.from({ length: settlementPeriods(date) }, (_, p) => periodValue(m, d, p));
        lines.push(
          `${mpan},${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)},${values.join(',')}`,
        );
      }
    }
    yield { first: from, rows: lines.length - 1, text: `${lines.join('\r\n')}\r\n` };
  }
}

interface ImportState {
  status?: string;
  fileRead?: boolean;
  error?: string;
  results?: { rows: number; create: number; update: number; unchanged: number; error: number };
}

/**
 * Imports one file through the stack as the import wizard does, and answers when the worker has written
 * it: the upload URL, the signed PUT, the worker's read of the file, then the import itself. A file with
 * any failed row, or an import that ends otherwise than completed, fails the bench.
 */
export async function importThroughStack(opts: {
  origin: string;
  token: () => Promise<string>;
  type: 'monthly-consumption' | 'half-hourly-wide';
  fileName: string;
  text: string;
}): Promise<{
  id: string;
  ms: number;
  /** From asking for the upload URL to the worker having read the file's head. */
  uploadMs: number;
  /** From starting the import to the worker having written it. */
  importMs: number;
  results: NonNullable<ImportState['results']>;
}> {
  const api = async (method: string, path: string) => {
    const res = await fetch(`${opts.origin}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${await opts.token()}` },
    });
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300)
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const waitFor = async (id: string, done: (s: ImportState) => boolean, what: string) => {
    for (let waited = 0; ; waited += 200) {
      const state = (await api('GET', `/imports/${id}`)) as ImportState;
      if (state.status === 'error') throw new Error(`import ${id} (${opts.fileName}): ${state.error}`);
      if (done(state)) return state;
      if (waited > 30 * 60_000) throw new Error(`import ${id} (${opts.fileName}): no ${what} in 30 minutes`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const started = performance.now();
  const bytes = Buffer.from(opts.text, 'utf8');
  const ticket = (await api(
    'GET',
    `/imports/upload-url?type=${opts.type}&fileName=${opts.fileName}&size=${bytes.length}`,
  )) as { id: string; url: string; headers: Record<string, string> };
  const put = await fetch(ticket.url, { method: 'PUT', headers: ticket.headers, body: bytes });
  if (put.status !== 200)
    throw new Error(`PUT of ${opts.fileName} answered ${put.status}: ${await put.text()}`);
  await waitFor(ticket.id, (s) => s.fileRead === true, 'read of the file');
  const read = performance.now();
  await api('POST', `/imports/${ticket.id}/import`);
  const done = await waitFor(ticket.id, (s) => s.status === 'completed', 'end of the import');
  const results = done.results;
  if (!results || results.error > 0) {
    const failed = await api('GET', `/imports/${ticket.id}/items?outcome=error`).catch((e) => String(e));
    throw new Error(
      `import of ${opts.fileName} failed rows: ${JSON.stringify(results)} ${JSON.stringify(failed).slice(0, 2000)}`,
    );
  }
  const ended = performance.now();
  return { id: ticket.id, ms: ended - started, uploadMs: read - started, importMs: ended - read, results };
}
