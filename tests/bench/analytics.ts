/**
 * `npm run bench:analytics`: Insights on a large company through the local stack (gateway, insights,
 * assets and imports functions, DynamoDB emulator on its own thread). Starts `npm start`, adds 10,000
 * sites and 30,000 meters to the demo company and a 500-site portfolio (through the API, before any data,
 * so the portfolio's roll-up is kept by the writes as a user's would be), then writes three years of
 * monthly consumption for every meter and a year of half-hourly data for 500 more electricity meters the
 * way a user would: spreadsheets of about 100,000 rows (BENCH_FILE_ROWS) and of 100 half-hourly meters
 * (BENCH_HH_FILE_METERS), each uploaded through the stack's S3 and written by the imports worker off its
 * queue. Every meter's months and every roll-up the reads use are thus kept by the product's write path.
 * Then checks that a sample of sites, the portfolio and the company answer the sums of what the files
 * held (it fails at once when they do not), and times, one call after another as the company owner:
 *   company-wide 12 months, monthly, by utility with cost and emissions   p95 ≤ 150 ms, ≤ 50 RCU
 *   the same for the 500-site portfolio                                    p95 ≤ 100 ms
 *   the same for one site                                                  p95 ≤ 30 ms
 *   the 500 half-hourly meters' year, daily                                p95 ≤ 500 ms
 * Each call reports the DynamoDB read capacity it consumed (VOLTFOLIO_CONSUMED_CAPACITY=1).
 * Then confirms BENCH_CONFIRMS bills with a page's WebSocket open, timing from the confirm request to the
 * roll-ups holding the bill (the confirm answered), to the 'analytics.changed' message reaching the page,
 * and to the page's analytics answer showing the bill: target ≤ 1 s.
 *
 * Seeding takes many minutes. BENCH_STATE_DIR=<dir> keeps the stack's state there instead of a temporary
 * directory: the first run seeds it and records what it wrote in `bench-analytics.json` (after each file,
 * so a run cut short goes on from the next file), later runs with the same directory and sizes skip
 * straight to the check and the calls. The directory is never removed; delete it to seed afresh.
 * BENCH_ASSETS, BENCH_ACCOUNTS_PER_ASSET, BENCH_PORTFOLIO, BENCH_HH_METERS, BENCH_CALLS, BENCH_WARM_UP,
 * BENCH_CONFIRMS, BENCH_FILE_ROWS and BENCH_HH_FILE_METERS change the size; BENCH_CPU_PROF_DIR profiles
 * the stack.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { LOCAL_REGION, LOCAL_TABLE_NAME } from '../../infra/local/environment.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { createPrng } from '../../infra/local/seed/prng.ts';
import { addDays, daysInMonth, eachDay } from '../../shared/analytics/index.ts';
import {
  type BenchMeter,
  dayTotal,
  halfHourlyFiles,
  halfHourlyMpan,
  importThroughStack,
  monthFigures,
  monthlyFiles,
  type Utility,
} from './analytics-seed.ts';
import { seedLargeCompany } from './large-company.ts';
import { freePorts, startStack, threadsCpuSeconds } from './local-stack.ts';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 10_000);
const ACCOUNTS_PER_ASSET = Number(process.env.BENCH_ACCOUNTS_PER_ASSET ?? 3);
const PORTFOLIO = Number(process.env.BENCH_PORTFOLIO ?? 500);
const HH_METERS = Number(process.env.BENCH_HH_METERS ?? 500);
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5);
const CONFIRMS = Number(process.env.BENCH_CONFIRMS ?? 10);
const FILE_ROWS = Number(process.env.BENCH_FILE_ROWS ?? 100_000);
const HH_FILE_METERS = Number(process.env.BENCH_HH_FILE_METERS ?? 100);
/** A directory for the stack's CPU profiles (every thread's, the emulator's among them). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
const KEPT_STATE_DIR = process.env.BENCH_STATE_DIR;
const SEEDED_MARKER = 'bench-analytics.json';
const MONTHS = 36;
const HH_MONTHS = 12;
/** Sites whose every month and utility is checked against the files, besides the portfolio and company. */
const CHECKED_SITES = 20;
const PASSWORD = 'Voltfolio-demo-2026!';
const run = promisify(execFile);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

function subOf(accessToken: string): string {
  const payload = accessToken.split('.')[1] ?? '';
  const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string };
  if (!sub) throw new Error('The access token names no subject');
  return sub;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The `count` months up to last month, oldest first (YYYY-MM). */
function lastMonths(count: number): string[] {
  const now = new Date();
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - count + i, 1));
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
  });
}

const lastDayOf = (month: string) =>
  `${month}-${pad(daysInMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7))))}`;

/** Figures by `month|utility`. */
type Figures = Map<string, { consumption: number; cost: number }>;

/** What the seed wrote, kept in the state directory so a later run reads and checks the same data. */
interface Seeded {
  sizes: string;
  months: string[];
  siteIds: string[];
  meters: BenchMeter[];
  hhMeters: BenchMeter[];
  portfolioId: string;
  /** The company's figures before the bench wrote anything (the demo's own bills). */
  before: [string, { consumption: number; cost: number }][];
  monthlyFilesDone: number;
  hhFilesDone: number;
  seeding: { what: string; rows: number; seconds: number }[];
  /** kWh of bills the confirm timings added to the first site's last month, over every run. */
  confirmedKwh: number;
}

const sizesOf = () =>
  JSON.stringify({ ASSETS, ACCOUNTS_PER_ASSET, PORTFOLIO, HH_METERS, FILE_ROWS, HH_FILE_METERS });

async function main() {
  console.log(`node ${process.version}, ${new Date().toISOString()}, ${load()}`);
  const stateDir = KEPT_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'voltfolio-bench-analytics-'));
  if (KEPT_STATE_DIR) mkdirSync(KEPT_STATE_DIR, { recursive: true });
  const marker = join(stateDir, SEEDED_MARKER);
  let seeded = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as Seeded) : undefined;
  if (seeded && seeded.sizes !== sizesOf())
    throw new Error(`${stateDir} holds a bench seeded with ${seeded.sizes}, not ${sizesOf()}: use another`);
  const keep = (s: Seeded) => writeFileSync(marker, JSON.stringify(s));
  const ports = await freePorts();
  const { stack } = await startStack(stateDir, ports, {
    env: { VOLTFOLIO_CONSUMED_CAPACITY: '1' },
    nodeOptions: CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(CPU_PROF_DIR)}`] : [],
  });
  try {
    // This process writes sites and meters to the stack's table directly, as the seed does; set before
    // the repositories load.
    Object.assign(process.env, {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${ports.dynamoPort}`,
      TABLE_NAME: LOCAL_TABLE_NAME,
      AUTH_PROVIDER: 'oidc',
      AUTH_CLIENT_ID: 'bench',
      AUTH_ISSUER: `${stack.origin}/oidc`,
      AUTH_JWKS_URI: `${stack.origin}/oidc/jwks`,
      AUTH_AUDIENCE: 'bench',
    });
    const { getProfile } = await import('../../functions/core/access/user-repository.ts');
    const { newId } = await import('../../functions/core/lib/ids.ts');

    const signIn = () =>
      signInForToken({ baseUrl: stack.origin, email: 'owner@demo.test', password: PASSWORD });
    let owner = await signIn();
    let signedInAt = performance.now();
    // Seeding outlasts an access token: a fresh one every ten minutes.
    const token = async () => {
      if (performance.now() - signedInAt > 10 * 60_000) {
        owner = await signIn();
        signedInAt = performance.now();
      }
      return owner.accessToken;
    };
    const companyId = (await getProfile(subOf(owner.accessToken)))?.currentCompanyId;
    if (!companyId) throw new Error('owner@demo.test has no current company');

    const api = async (method: string, path: string, body?: unknown) => {
      const send = async () =>
        fetch(`${stack.origin}/api${path}`, {
          method,
          headers: {
            authorization: `Bearer ${await token()}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      // After this process has been busy for seconds (summing a million months), a socket the stack closed
      // for idleness may still look open here: a read is sent again once on a fresh one.
      const res = await send().catch((err: unknown) => {
        if (method !== 'GET') throw err;
        return send();
      });
      const answer = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300)
        throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer)}`);
      return answer;
    };
    /** The monthly figures of a window by month and utility, as a page reads them. */
    const figuresOf = async (months: string[], scope: string): Promise<Figures> => {
      const first = months[0] ?? '';
      const last = months[months.length - 1] ?? '';
      const body = (await api(
        'GET',
        `/analytics/v2/consumption?startDate=${first}-01&endDate=${lastDayOf(last)}&granularity=monthly&includeCosts=true${scope}`,
      )) as {
        buckets?: { key: string; utilities: Record<string, { consumption: number; cost?: number }> }[];
      };
      const out: Figures = new Map();
      for (const b of body.buckets ?? [])
        for (const [utility, f] of Object.entries(b.utilities))
          out.set(`${b.key}|${utility}`, { consumption: f.consumption, cost: f.cost ?? 0 });
      return out;
    };

    if (!seeded) {
      const rng = createPrng('analytics-bench');
      const months = lastMonths(MONTHS);
      const before = await figuresOf(months, '');
      const { assets, accounts, seconds } = await seedLargeCompany({
        companyId,
        assets: ASSETS,
        accountsPerAsset: ACCOUNTS_PER_ASSET,
        rng,
      });
      console.log(`seeded ${assets.length} sites and ${accounts.length} meters in ${seconds.toFixed(1)} s`);
      // The half-hourly meters: one more electricity meter on each of the last sites.
      const hhMeters: BenchMeter[] = Array.from({ length: HH_METERS }, (_, i) => ({
        id: newId(),
        assetId: String(assets[Math.max(0, ASSETS - HH_METERS) + (i % ASSETS)]?._id),
        type: 'electricity',
        meterPointNumber: halfHourlyMpan(i),
      }));
      const { putNewItems } = await import('../../functions/core/imports/import-batch-repository.ts');
      const { resourceRef } = await import('../../functions/core/resources/resource-refs.ts');
      const stamp = { companyId, createdAt: new Date().toISOString(), createdBy: 'bench' };
      await putNewItems(
        hhMeters.map((m, i) => ({
          ref: resourceRef(companyId, 'accounts'),
          item: {
            _id: m.id,
            ...stamp,
            name: `Half-hourly meter ${i + 1}`,
            type: 'electricity',
            meterPointNumber: m.meterPointNumber,
            assetId: m.assetId,
            status: 'active',
            tags: [],
          },
        })),
      );
      // Made through the API before any data, so the imports keep its roll-up as they keep the sites'.
      const portfolio = await api('POST', '/asset-groups', {
        name: `Bench portfolio of ${PORTFOLIO}`,
        assetIds: assets.slice(0, PORTFOLIO).map((a) => a._id),
      });
      seeded = {
        sizes: sizesOf(),
        months,
        siteIds: assets.map((a) => a._id),
        meters: accounts.map((a) => ({
          id: a._id,
          assetId: String(a.assetId),
          type: a.type as Utility,
          meterPointNumber: String(a.meterPointNumber),
        })),
        hhMeters,
        portfolioId: String(portfolio._id),
        before: [...before],
        monthlyFilesDone: 0,
        hhFilesDone: 0,
        seeding: [
          { what: 'sites and meters, written directly', rows: assets.length + accounts.length, seconds },
        ],
        confirmedKwh: 0,
      };
      keep(seeded);
    }
    const s = seeded;
    const months = s.months;
    const hhDays = eachDay(`${months[MONTHS - HH_MONTHS]}-01`, lastDayOf(months[MONTHS - 1] ?? ''));

    // Every meter's three years of months, then the half-hourly year, file by file through the worker.
    const seedFiles = async (
      what: string,
      type: 'monthly-consumption' | 'half-hourly-wide',
      files: Iterable<{ first: number; rows: number; text: string }>,
      done: () => number,
      markDone: () => void,
    ) => {
      let index = 0;
      let rows = 0;
      let ms = 0;
      // The stack's CPU by thread: the gateway and functions on the main thread, the table on its own.
      const cpuNow = () =>
        new Map(threadsCpuSeconds(stack.pid).map((t) => [`${t.tid} ${t.name}`, t.seconds]));
      const cpuSince = (before: Map<string, number>) =>
        [...cpuNow()]
          .map(([thread, seconds]) => ({
            name: thread.split(' ')[1],
            seconds: seconds - (before.get(thread) ?? 0),
          }))
          .filter((t) => t.seconds >= 0.5)
          .sort((a, b) => b.seconds - a.seconds)
          .map((t) => `${t.name} ${t.seconds.toFixed(1)} s`)
          .join(', ');
      const cpuBefore = cpuNow();
      for (const file of files) {
        if (index++ < done()) continue;
        const fileCpu = cpuNow();
        const out = await importThroughStack({
          origin: stack.origin,
          token,
          type,
          fileName: `${type}-${index}.csv`,
          text: file.text,
        });
        rows += file.rows;
        ms += out.ms;
        markDone();
        s.seeding.push({ what: `${what} file ${index}`, rows: file.rows, seconds: out.ms / 1000 });
        keep(s);
        console.log(
          `  ${what} file ${index}: ${file.rows} rows (${(file.text.length / 1e6).toFixed(1)} MB) in ${(out.ms / 1000).toFixed(1)} s (upload and read ${(out.uploadMs / 1000).toFixed(1)} s, import ${(out.importMs / 1000).toFixed(1)} s), ` +
            `${Math.round(file.rows / (out.ms / 1000))} rows/s, ${JSON.stringify(out.results)}; stack CPU ${cpuSince(fileCpu)}; ${load()}`,
        );
      }
      if (rows > 0)
        console.log(
          `${what}: ${rows} rows in ${(ms / 1000).toFixed(1)} s, ${Math.round(rows / (ms / 1000))} rows/s; stack CPU ${cpuSince(cpuBefore)}`,
        );
    };
    await seedFiles(
      'monthly',
      'monthly-consumption',
      monthlyFiles(s.meters, months, FILE_ROWS),
      () => s.monthlyFilesDone,
      () => s.monthlyFilesDone++,
    );
    await seedFiles(
      'half-hourly',
      'half-hourly-wide',
      halfHourlyFiles(s.hhMeters.length, hhDays, HH_FILE_METERS),
      () => s.hhFilesDone,
      () => s.hhFilesDone++,
    );
    const storeMb = Number((await run('du', ['-sm', stateDir])).stdout.split('\t')[0]);
    const written = s.seeding.slice(1);
    const seedRows = written.reduce((n, f) => n + f.rows, 0);
    const seedSeconds = written.reduce((n, f) => n + f.seconds, 0);
    console.log(
      `seeded through the imports: ${seedRows} rows in ${seedSeconds.toFixed(0)} s (${Math.round(seedRows / seedSeconds)} rows/s over every run); store ${storeMb} MB`,
    );

    // What the files hold, for the sampled sites, the portfolio and the company. Kept quick: a pause of
    // seconds here would outlast the stack's keep-alive and close the sockets the next calls go out on.
    const summing = performance.now();
    const firstSite = s.siteIds[0] ?? '';
    const step = Math.max(1, Math.floor(s.siteIds.length / CHECKED_SITES));
    const sample = new Set<string>([firstSite, ...s.hhMeters.slice(0, 3).map((m) => m.assetId)]);
    for (let i = step - 1; i < s.siteIds.length && sample.size < CHECKED_SITES + 4; i += step)
      sample.add(s.siteIds[i] ?? '');
    const expected = new Map<string, Figures>();
    const add = (scope: string, key: string, consumption: number, cost: number) => {
      const figures = expected.get(scope) ?? new Map<string, { consumption: number; cost: number }>();
      expected.set(scope, figures);
      const f = figures.get(key);
      if (f) {
        f.consumption += consumption;
        f.cost += cost;
      } else figures.set(key, { consumption, cost });
    };
    const portfolioSites = new Set(s.siteIds.slice(0, PORTFOLIO));
    const addEverywhere = (assetId: string, key: string, consumption: number, cost: number) => {
      if (sample.has(assetId)) add(assetId, key, consumption, cost);
      if (portfolioSites.has(assetId)) add('portfolio', key, consumption, cost);
      add('company', key, consumption, cost);
    };
    for (const [key, f] of s.before) add('company', key, f.consumption, f.cost);
    const keysOf = (type: Utility) => months.map((month) => `${month}|${type}`);
    const monthKeys = { electricity: keysOf('electricity'), gas: keysOf('gas'), water: keysOf('water') };
    for (const [i, meter] of s.meters.entries())
      for (let k = 0; k < MONTHS; k++) {
        const { consumption, cost } = monthFigures(i, k, meter.type);
        addEverywhere(meter.assetId, monthKeys[meter.type][k] ?? '', consumption, cost);
      }
    for (const [i, meter] of s.hhMeters.entries()) {
      const byMonth = new Map<string, number>();
      for (const [d, date] of hhDays.entries())
        byMonth.set(date.slice(0, 7), (byMonth.get(date.slice(0, 7)) ?? 0) + dayTotal(i, d, date));
      for (const [month, kwh] of byMonth) addEverywhere(meter.assetId, `${month}|electricity`, kwh, 0);
    }
    if (s.confirmedKwh > 0)
      addEverywhere(firstSite, `${months[MONTHS - 1]}|electricity`, s.confirmedKwh, 0.28 * s.confirmedKwh);
    const summedMs = performance.now() - summing;
    const checked: string[] = [];
    const mismatches: string[] = [];
    const compare = (what: string, got: Figures, want: Figures | undefined) => {
      checked.push(what);
      for (const [key, w] of want ?? ([] as const)) {
        const g = got.get(key);
        const near = (a: number | undefined, b: number) =>
          a !== undefined && Math.abs(a - b) <= 0.01 + 1e-9 * Math.abs(b);
        if (!near(g?.consumption, w.consumption) || !near(g?.cost, w.cost))
          mismatches.push(
            `${what} ${key}: answered ${JSON.stringify(g)}, the files hold ${JSON.stringify(w)}`,
          );
      }
      for (const key of got.keys())
        if (!want?.has(key))
          mismatches.push(`${what} ${key}: answered ${JSON.stringify(got.get(key))}, the files hold nothing`);
    };
    const started = performance.now();
    for (const assetId of sample)
      compare(`site ${assetId}`, await figuresOf(months, `&assetId=${assetId}`), expected.get(assetId));
    compare(
      'portfolio',
      await figuresOf(months, `&assetGroupId=${s.portfolioId}`),
      expected.get('portfolio'),
    );
    compare('company', await figuresOf(months, ''), expected.get('company'));
    if (mismatches.length > 0) {
      console.error(`The answers are not the sums of what was written (${mismatches.length}):`);
      for (const m of mismatches.slice(0, 40)) console.error(`  ${m}`);
      throw new Error("analytics figures differ from the meters' months as written");
    }
    console.log(
      `checked ${checked.length} scopes (${sample.size} sites, the portfolio, the company) × ${MONTHS} months × utilities against the files: every figure equal (summed in ${(summedMs / 1000).toFixed(1)} s, read in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );

    const end = lastDayOf(months[MONTHS - 1] ?? '');
    const start = hhDays[0] ?? addDays(end, -364);
    const portfolioId = s.portfolioId;
    const call = async (path: string) => {
      const t = performance.now();
      const res = await fetch(`${stack.origin}/api${path}`, {
        headers: { authorization: `Bearer ${await token()}` },
      });
      const body = (await res.json()) as { buckets?: unknown[]; intervalMeters?: number };
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(body)}`);
      return {
        ms,
        rcu: Number(res.headers.get('x-consumed-rcu') ?? Number.NaN),
        buckets: body.buckets?.length ?? 0,
      };
    };
    const twelve = `startDate=${months[MONTHS - 12]}-01&endDate=${end}&granularity=monthly&includeCosts=true`;
    const cases = [
      { what: 'company-wide, 12 months', path: `/analytics/v2/consumption?${twelve}`, p95: 150, rcu: 50 },
      {
        what: 'company-wide, 12 months, bills only',
        path: `/analytics/v2/consumption?${twelve}&source=invoices`,
        p95: 150,
        rcu: 50,
      },
      {
        what: 'company-wide, 12 months, by meter user',
        path: `/analytics/v2/consumption?${twelve}&meterUserBreakdown=true`,
        p95: 150,
        rcu: 50,
      },
      {
        what: `portfolio of ${PORTFOLIO} sites, 12 months`,
        path: `/analytics/v2/consumption?${twelve}&assetGroupId=${portfolioId}`,
        p95: 100,
      },
      {
        what: 'one site, 12 months',
        path: `/analytics/v2/consumption?${twelve}&assetId=${firstSite}`,
        p95: 30,
      },
      {
        what: `${s.hhMeters.length} half-hourly meters' year, daily`,
        path: `/analytics/v2/consumption?startDate=${start}&endDate=${end}&granularity=daily&accountType=electricity`,
        p95: 500,
      },
    ];
    console.log(`\n${CALLS} calls each after ${WARM_UP} of warm-up; RCU is the most of any call`);
    let missed = 0;
    for (const c of cases) {
      for (let i = 0; i < WARM_UP; i++) await call(c.path);
      const times: number[] = [];
      const rcus: number[] = [];
      let buckets = 0;
      for (let i = 0; i < CALLS; i++) {
        const r = await call(c.path);
        times.push(r.ms);
        rcus.push(r.rcu);
        buckets = r.buckets;
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      const rcu = Math.max(...rcus);
      const ok = p95 <= c.p95 && (c.rcu === undefined || rcu <= c.rcu);
      if (!ok) missed++;
      console.log(
        `${ok ? 'ok  ' : 'MISS'} ${c.what.padEnd(40)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms (target ${c.p95})  ${rcu.toFixed(1).padStart(7)} RCU${c.rcu ? ` (target ${c.rcu})` : ''}  ${buckets} buckets`,
      );
    }

    // A bill confirmed while a page listens: how soon the roll-ups, the page's socket and its figures know.
    const { putItem } = await import('../../functions/core/data/item-repository.ts');
    const { keys } = await import('../../functions/core/data/keys.ts');
    const meter = s.meters.find((a) => a.type === 'electricity' && a.assetId === firstSite);
    if (!meter) throw new Error('The first site has no electricity meter');
    const billMonth = months[MONTHS - 1] ?? '';
    const billEnd = `${billMonth}-${daysInMonth(Number(billMonth.slice(0, 4)), Number(billMonth.slice(5, 7)))}`;
    const socket = new WebSocket(
      `${stack.origin.replace('http', 'ws')}/ws?token=${encodeURIComponent(await token())}`,
    );
    const changed: ((at: number) => void)[] = [];
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { type?: string };
      if (message.type === 'analytics.changed') changed.shift()?.(performance.now());
    });
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve);
      socket.addEventListener('error', reject);
    });
    const monthPath = `/analytics/v2/consumption?startDate=${billMonth}-01&endDate=${billEnd}&dateBreakdown=false&accountType=electricity`;
    const electricityOf = async () => {
      const res = await fetch(`${stack.origin}/api${monthPath}`, {
        headers: { authorization: `Bearer ${await token()}` },
      });
      const body = (await res.json()) as { totals: { utilities: { electricity?: { consumption: number } } } };
      return body.totals.utilities.electricity?.consumption ?? 0;
    };
    const confirmed: { answered: number; told: number; refetched: number }[] = [];
    for (let i = 0; i < CONFIRMS; i++) {
      const id = newId();
      const now = new Date().toISOString();
      const values = { startDate: `${billMonth}-01`, endDate: billEnd, consumption: 1000, netTotal: 280 };
      const common = { createdAt: now, updatedAt: now, companyId, _id: id };
      await putItem(
        {
          pk: keys.collection({ companyId }, 'invoices'),
          indexes: ['accountId', 'batchId'],
          searchFields: [],
        },
        {
          ...common,
          accountId: meter.id,
          batchId: id,
          status: 'captured',
          values,
          rates: [],
          completed: false,
        },
      );
      await putItem(
        { pk: keys.collection({ companyId }, 'invoice-validation'), indexes: ['status'], searchFields: [] },
        { ...common, invoiceId: id, status: 'pending', completed: false, hold: false, tags: [] },
      );
      const before = await electricityOf();
      const told = new Promise<number>((resolve) => changed.push(resolve));
      const t0 = performance.now();
      const res = await fetch(`${stack.origin}/api/invoices/${id}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token()}` },
      });
      const answered = performance.now() - t0;
      if (res.status !== 200) throw new Error(`confirm answered ${res.status}: ${await res.text()}`);
      const toldAt =
        (await Promise.race([told, new Promise<number>((r) => setTimeout(() => r(NaN), 5000))])) - t0;
      const after = await electricityOf();
      const refetched = performance.now() - t0;
      if (Math.round(after - before) !== 1000)
        throw new Error(`the bill's 1000 kWh did not arrive (${before} → ${after})`);
      confirmed.push({ answered, told: toldAt, refetched });
      // The next run's check counts this bill in the site's, portfolio's and company's figures.
      s.confirmedKwh += 1000;
      keep(s);
    }
    socket.close();
    const summary = (pick: (c: (typeof confirmed)[number]) => number) => {
      const sorted = confirmed.map(pick).sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 50).toFixed(0).padStart(5)} ms  max ${(sorted[sorted.length - 1] ?? Number.NaN).toFixed(0).padStart(5)} ms`;
    };
    const worst = Math.max(...confirmed.map((c) => c.refetched));
    const liveOk = confirmed.length > 0 && worst <= 1000 && confirmed.every((c) => Number.isFinite(c.told));
    if (!liveOk) missed++;
    console.log(
      `\n${confirmed.length} bills confirmed with a page listening (target ≤ 1000 ms to current figures)`,
    );
    console.log(`     confirm answered, roll-ups current       ${summary((c) => c.answered)}`);
    console.log(`     'analytics.changed' at the page          ${summary((c) => c.told)}`);
    console.log(
      `${liveOk ? 'ok  ' : 'MISS'} the page's figures fetched again, bill in  ${summary((c) => c.refetched)}`,
    );
    process.exitCode = missed > 0 ? 1 : 0;
  } finally {
    await stack.stop();
    if (!KEPT_STATE_DIR) rmSync(stateDir, { recursive: true, force: true });
  }
}

await main();
