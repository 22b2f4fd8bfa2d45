/**
 * `npm run bench:analytics`: Insights on a large company through the local stack (gateway, insights and
 * assets functions, DynamoDB emulator on its own thread). Starts `npm start` on a fresh state directory,
 * adds 10,000 sites and 30,000 meters to the demo company, three years of monthly roll-ups (the company's,
 * and the sites' that the timed calls read: BENCH_ROLLUP_SITES, by default the portfolio's 500 and the
 * single site; Queries read one partition each, so other sites' roll-ups change nothing but the table's
 * size), a 500-site portfolio, and a year of half-hourly data for 500 electricity meters. Then times, one
 * call after another as the company owner:
 *   company-wide 12 months, monthly, by utility with cost and emissions   p95 ≤ 150 ms, ≤ 50 RCU
 *   the same for the 500-site portfolio                                    p95 ≤ 100 ms
 *   the same for one site                                                  p95 ≤ 30 ms
 *   the 500 half-hourly meters' year, daily                                p95 ≤ 500 ms
 * Each call reports the DynamoDB read capacity it consumed (VOLTFOLIO_CONSUMED_CAPACITY=1).
 * Then confirms BENCH_CONFIRMS bills with a page's WebSocket open, timing from the confirm request to the
 * roll-ups holding the bill (the confirm answered), to the 'analytics.changed' message reaching the page,
 * and to the page's analytics answer showing the bill: target ≤ 1 s.
 * BENCH_ASSETS, BENCH_ACCOUNTS_PER_ASSET, BENCH_PORTFOLIO, BENCH_HH_METERS, BENCH_ROLLUP_SITES,
 * BENCH_CALLS, BENCH_WARM_UP and BENCH_CONFIRMS change the size; BENCH_CPU_PROF_DIR profiles the stack.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LOCAL_REGION, LOCAL_TABLE_NAME } from '../../infra/local/environment.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { halfHourlyProfile } from '../../infra/local/seed/demo-half-hourly.ts';
import { createPrng } from '../../infra/local/seed/prng.ts';
import { addDays, daysInMonth, eachDay } from '../../shared/analytics/index.ts';
import { seedLargeCompany } from './large-company.ts';
import { freePorts, startStack } from './local-stack.ts';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 10_000);
const ACCOUNTS_PER_ASSET = Number(process.env.BENCH_ACCOUNTS_PER_ASSET ?? 3);
const PORTFOLIO = Number(process.env.BENCH_PORTFOLIO ?? 500);
const HH_METERS = Number(process.env.BENCH_HH_METERS ?? 500);
const ROLLUP_SITES = Number(process.env.BENCH_ROLLUP_SITES ?? PORTFOLIO + 1);
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5);
const CONFIRMS = Number(process.env.BENCH_CONFIRMS ?? 10);
/** A directory for the stack's CPU profiles (every thread's, the emulator's among them). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
const MONTHS = 36;
const PASSWORD = 'Voltfolio-demo-2026!';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

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

async function main() {
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  const stateDir = mkdtempSync(join(tmpdir(), 'voltfolio-bench-analytics-'));
  const ports = await freePorts();
  const { stack } = await startStack(stateDir, ports, {
    env: { VOLTFOLIO_CONSUMED_CAPACITY: '1' },
    nodeOptions: CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(CPU_PROF_DIR)}`] : [],
  });
  try {
    // This process writes to the stack's table directly, as the seed does; set before the repositories load.
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
    const { putRollups, rebuildPortfolioRollups } = await import(
      '../../functions/accounts/consumption-repository.ts'
    );
    const { putNewItems } = await import('../../functions/core/imports/import-batch-repository.ts');
    const { resourceRef } = await import('../../functions/core/resources/resource-refs.ts');
    const { newId } = await import('../../functions/core/lib/ids.ts');
    const { inPool } = await import('../../functions/core/lib/in-pool.ts');
    const hh = await import('../../functions/analytics/analytics-half-hourly-repository.ts');

    const owner = await signInForToken({
      baseUrl: stack.origin,
      email: 'owner@demo.test',
      password: PASSWORD,
    });
    const companyId = (await getProfile(subOf(owner.accessToken)))?.currentCompanyId;
    if (!companyId) throw new Error('owner@demo.test has no current company');

    const rng = createPrng('analytics-bench');
    const { assets, accounts, seconds } = await seedLargeCompany({
      companyId,
      assets: ASSETS,
      accountsPerAsset: ACCOUNTS_PER_ASSET,
      rng,
    });
    console.log(`seeded ${assets.length} sites and ${accounts.length} meters in ${seconds.toFixed(1)} s`);

    // Three years of monthly roll-ups: the company's, and each read site's, per utility.
    let started = performance.now();
    const months = lastMonths(MONTHS);
    const utilities = [
      { utilityType: 'electricity' as const, unit: 'kWh', kwh: 12_000, price: 0.28, factor: 0.177 },
      { utilityType: 'gas' as const, unit: 'kWh', kwh: 20_000, price: 0.07, factor: 0.1823 },
      { utilityType: 'water' as const, unit: 'm³', kwh: 90, price: 2.1, factor: 0.19 },
    ];
    const rollupSites = assets.slice(0, ROLLUP_SITES);
    const siteRows = rollupSites.flatMap((asset) =>
      months.flatMap((month) =>
        utilities.map((u) => {
          const consumption = Math.round(u.kwh * rng.between(0.7, 1.3));
          return {
            assetId: asset._id,
            month,
            utilityType: u.utilityType,
            unit: u.unit,
            consumption,
            cost: Math.round(consumption * u.price * 100) / 100,
            emissionsKg: Math.round(consumption * u.factor * 1000) / 1000,
          };
        }),
      ),
    );
    const companyRows = months.flatMap((month) =>
      utilities.map((u) => {
        const consumption = u.kwh * ASSETS;
        return {
          month,
          utilityType: u.utilityType,
          unit: u.unit,
          consumption,
          cost: Math.round(consumption * u.price * 100) / 100,
          emissionsKg: Math.round(consumption * u.factor * 1000) / 1000,
        };
      }),
    );
    const chunks: (typeof siteRows)[] = [];
    for (let i = 0; i < siteRows.length; i += 500) chunks.push(siteRows.slice(i, i + 500));
    await putRollups(companyId, companyRows);
    await inPool(chunks, 4, (rows) => putRollups(companyId, rows));
    console.log(
      `wrote ${companyRows.length} company and ${siteRows.length} site roll-ups (${rollupSites.length} sites × ${MONTHS} months × 3 utilities) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const portfolioId = newId();
    await putNewItems([
      {
        ref: resourceRef(companyId, 'asset-groups'),
        item: {
          _id: portfolioId,
          companyId,
          name: `Bench portfolio of ${PORTFOLIO}`,
          assetIds: assets.slice(0, PORTFOLIO).map((a) => a._id),
          createdAt: new Date().toISOString(),
          createdBy: 'bench',
        },
      },
    ]);
    // Written around the API like the site roll-ups, so the portfolio's own roll-up is built from them.
    started = performance.now();
    const rebuilt = await rebuildPortfolioRollups(
      companyId,
      portfolioId,
      assets.slice(0, PORTFOLIO).map((a) => a._id),
    );
    console.log(
      `built the portfolio's roll-up from ${rebuilt.sites} sites (${rebuilt.changed} rows) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    // A year of half-hourly data for the first electricity meters, as the store keeps it.
    started = performance.now();
    const firstOfMonth = `${new Date().toISOString().slice(0, 7)}-01`;
    const end = addDays(firstOfMonth, -1);
    const start = addDays(end, -364);
    const days = eachDay(start, end);
    const profiles = new Map(days.map((date) => [date, halfHourlyProfile(date, 8)]));
    const hhMeters = accounts.filter((a) => a.type === 'electricity').slice(0, HH_METERS);
    await inPool(hhMeters, 4, async (meter) => {
      const stored = days.map((date) => {
        const values = profiles.get(date) ?? [];
        return {
          accountId: meter._id,
          date,
          values,
          total: Math.round(values.reduce((n, v) => n + v, 0) * 1000) / 1000,
          missing: 0,
          unit: 'kWh',
        };
      });
      await hh.putIntervalDays(companyId, stored);
      for (const year of new Set(days.map((d) => d.slice(0, 4)))) {
        const ofYear = stored.filter((d) => d.date.startsWith(year));
        await hh.setDayTotals(companyId, meter._id, year, new Map(ofYear.map((d) => [d.date, d.total])));
      }
      await hh.recordIntervalMeter(companyId, {
        accountId: meter._id,
        assetId: String(meter.assetId),
        utilityType: 'electricity',
        unit: 'kWh',
      });
    });
    console.log(
      `wrote ${hhMeters.length * days.length} meter-days of half-hourly data (${hhMeters.length} meters × ${days.length} days) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const call = async (path: string) => {
      const t = performance.now();
      const res = await fetch(`${stack.origin}/api${path}`, {
        headers: { authorization: `Bearer ${owner.accessToken}` },
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
        path: `/analytics/v2/consumption?${twelve}&assetId=${assets[0]?._id}`,
        p95: 30,
      },
      {
        what: `${hhMeters.length} half-hourly meters' year, daily`,
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
    const meter = accounts.find((a) => a.type === 'electricity' && a.assetId === assets[0]?._id);
    if (!meter) throw new Error('The first site has no electricity meter');
    const billMonth = months[MONTHS - 1] ?? '';
    const billEnd = `${billMonth}-${daysInMonth(Number(billMonth.slice(0, 4)), Number(billMonth.slice(5, 7)))}`;
    const socket = new WebSocket(
      `${stack.origin.replace('http', 'ws')}/ws?token=${encodeURIComponent(owner.accessToken)}`,
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
        headers: { authorization: `Bearer ${owner.accessToken}` },
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
          accountId: meter._id,
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
        headers: { authorization: `Bearer ${owner.accessToken}` },
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
    rmSync(stateDir, { recursive: true, force: true });
  }
}

await main();
