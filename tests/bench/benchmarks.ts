/**
 * `npm run bench:benchmarks`: the CRREM table of a 10,000-site company through the local stack (gateway,
 * insights function, DynamoDB emulator on its own thread). Starts `npm start` on a fresh state directory
 * (whose seed loads the illustrative pathway set), adds 10,000 offices, shops, warehouses and flats to the
 * demo company with two whole years of monthly electricity and gas roll-ups each, then times
 * GET /api/benchmarks/crrem/sites as the company owner, one call after another:
 *   the CRREM table of every site                                   p95 ≤ 2,000 ms
 * and, first, the table's maths alone for as many sites (no reads). The table reads every site's years from
 * the company's one partition of site years (a few pages), so its time grows with the sites' items read.
 * BENCH_ASSETS, BENCH_MATHS_SITES, BENCH_CALLS and BENCH_WARM_UP change the size.
 *
 * Writing the 10,000 sites and their roll-ups takes many minutes. BENCH_STATE_DIR=<dir> keeps the stack's
 * state there instead of a temporary directory: the first run seeds it and records what it wrote in
 * `bench-benchmarks.json`, later runs with the same directory and BENCH_ASSETS skip straight to the calls.
 * The directory is never removed; delete it to seed afresh. BENCH_CPU_PROF=<dir> writes the stack's CPU
 * profiles (main thread and the table emulator's) there when it stops. BENCH_ANSWER_FILE=<file> writes
 * the last answer there, to compare two versions' answers on the same state byte for byte.
 * BENCH_AFTER_WRITE writes before each call, so each call is the first after a write: `1` or `bill` adds a
 * month's electricity to one site's last whole year (as a bill does), `import` adds a month to 200 sites'
 * last whole year in one go (as an import does; BENCH_IMPORT_SITES changes how many), `site` changes one
 * site's floor area, `hour` makes every kept part look an hour old (each call is the first past the
 * hourly remaking of the copy, which a worker now does); `mark` moves the
 * last whole year's change mark with no write (that year's kept part is made afresh), `all` the mark of
 * all years (every year's part is made afresh) and `fresh` every mark (the whole copy is made afresh: with
 * BENCH_ANSWER_FILE, the answer to compare with one from a patched copy).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_REGION, LOCAL_TABLE_NAME } from '../../infra/local/environment.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { createPrng } from '../../infra/local/seed/prng.ts';
import { seedLargeCompany } from './large-company.ts';
import { freePorts, startStack } from './local-stack.ts';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 10_000);
const MATHS_SITES = Number(process.env.BENCH_MATHS_SITES ?? 10_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2);
const KEPT_STATE_DIR = process.env.BENCH_STATE_DIR;
const SEEDED_MARKER = 'bench-benchmarks.json';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const ANSWER_FILE = process.env.BENCH_ANSWER_FILE;
const AFTER_WRITE = process.env.BENCH_AFTER_WRITE;
const IMPORT_SITES = Number(process.env.BENCH_IMPORT_SITES ?? 200);
const TARGET_MS = 2_000;
const PASSWORD = 'Voltfolio-demo-2026!';
const TYPES = ['Office', 'Retail', 'Warehouse', 'Residential block', 'Industrial'] as const;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/** The table's maths alone for as many synthetic sites, without a read: how much of the call is its own work. */
async function timeMaths(): Promise<boolean> {
  const { assessSite, siteFacts } = await import('../../functions/benchmarks/benchmarks-service.ts');
  const { parsePathwayCsv, pathwayKey } = await import('../../shared/benchmarks/pathways.ts');
  const { illustrativePathwayCsv } = await import('../../infra/local/seed/benchmark-sets.ts');
  const parsed = parsePathwayCsv(illustrativePathwayCsv());
  const tables = {
    pathways: new Map(parsed.pathways.map((p) => [pathwayKey(p.country, p.propertyType), p])),
    gridFactors: new Map([['united kingdom', new Map(parsed.gridFactors.map((g) => [g.year, g.kgPerKwh]))]]),
  };
  const lastYear = new Date().getUTCFullYear() - 1;
  const years = [lastYear - 1, lastYear].map((year) => ({
    year,
    energyKwh: 240_000,
    emissionsKg: 40_000,
    electricityKwh: 96_000,
    electricityKg: 17_000,
    months: 12,
  }));
  const sites = Array.from({ length: MATHS_SITES }, (_, i) => ({
    _id: String(i).padStart(24, '0'),
    siteName: `Site ${i}`,
    assetType: TYPES[i % TYPES.length],
    address: { postCode: 'EC1A 1AA' },
    floorArea: 1000 + i,
  }));
  const started = performance.now();
  let benchmarked = 0;
  for (const site of sites) {
    if (assessSite(siteFacts(site), years, tables, lastYear).row.benchmarked) benchmarked++;
  }
  const ms = performance.now() - started;
  const ok = ms <= TARGET_MS;
  console.log(
    `${ok ? 'ok  ' : 'MISS'} the table's maths alone for ${MATHS_SITES} sites (${benchmarked} benchmarked): ${ms.toFixed(0)} ms (target ${TARGET_MS})`,
  );
  return ok;
}

async function main() {
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  const mathsOk = await timeMaths();
  const stateDir = KEPT_STATE_DIR ?? mkdtempSync(join(tmpdir(), 'voltfolio-bench-benchmarks-'));
  if (KEPT_STATE_DIR) mkdirSync(KEPT_STATE_DIR, { recursive: true });
  const removeState = () => {
    if (!KEPT_STATE_DIR) rmSync(stateDir, { recursive: true, force: true });
  };
  const marker = join(stateDir, SEEDED_MARKER);
  const seeded = existsSync(marker)
    ? (JSON.parse(readFileSync(marker, 'utf8')) as { assets: number; seededAt: string })
    : undefined;
  if (seeded && seeded.assets !== ASSETS)
    throw new Error(
      `${stateDir} holds ${seeded.assets} bench sites, not BENCH_ASSETS=${ASSETS}: use another directory`,
    );
  const ports = await freePorts();
  // The first start builds the web app and seeds the demo: slow on a loaded machine.
  const { stack } = await startStack(stateDir, ports, {
    healthyWithinMs: 600_000,
    ...(CPU_PROF_DIR ? { nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] } : {}),
  }).catch((err: unknown) => {
    removeState();
    throw err;
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
    const { putRollups } = await import('../../functions/accounts/consumption-repository.ts');
    const { inPool } = await import('../../functions/core/lib/in-pool.ts');
    const { moveChangeMark, moveChangeMarks, yearMark } = await import(
      '../../functions/core/data/change-marks.ts'
    );
    const { addManyToSiteYears, addToSiteYear } = await import(
      '../../functions/accounts/site-year-repository.ts'
    );
    const { projectAll } = await import('../../functions/core/data/batch-reads.ts');
    const { updateRaw } = await import('../../functions/core/data/item-repository.ts');
    const { keys } = await import('../../functions/core/data/keys.ts');
    const { documentClient } = await import('../../functions/core/adapters/dynamo.ts');
    const { GetCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');

    const owner = await signInForToken({
      baseUrl: stack.origin,
      email: 'owner@demo.test',
      password: PASSWORD,
    });
    const sub = JSON.parse(
      Buffer.from(owner.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8'),
    ).sub;
    const companyId = (await getProfile(String(sub)))?.currentCompanyId;
    if (!companyId) throw new Error('owner@demo.test has no current company');

    if (seeded) console.log(`reusing ${seeded.assets} sites seeded at ${seeded.seededAt} in ${stateDir}`);
    else {
      const rng = createPrng('benchmarks-bench');
      const { assets, seconds } = await seedLargeCompany({
        companyId,
        assets: ASSETS,
        accountsPerAsset: 1,
        rng,
        siteFields: (i) => ({ assetType: TYPES[i % TYPES.length] }),
      });
      console.log(`seeded ${assets.length} sites in ${seconds.toFixed(1)} s`);

      // Two whole years of electricity and gas by month for every site, as the roll-ups keep them.
      const started = performance.now();
      const lastYear = new Date().getUTCFullYear() - 1;
      const months = [lastYear - 1, lastYear].flatMap((y) =>
        Array.from({ length: 12 }, (_, m) => `${y}-${String(m + 1).padStart(2, '0')}`),
      );
      const rowsOf = (asset: { _id: string }) => {
        const scale = rng.between(0.5, 2);
        return months.flatMap((month) => [
          {
            assetId: asset._id,
            month,
            utilityType: 'electricity' as const,
            unit: 'kWh',
            consumption: Math.round(8_000 * scale),
            cost: 2_000,
            emissionsKg: Math.round(8_000 * scale * 0.177),
          },
          {
            assetId: asset._id,
            month,
            utilityType: 'gas' as const,
            unit: 'kWh',
            consumption: Math.round(12_000 * scale),
            cost: 800,
            emissionsKg: Math.round(12_000 * scale * 0.1823),
          },
        ]);
      };
      const chunks: (typeof assets)[] = [];
      for (let i = 0; i < assets.length; i += 10) chunks.push(assets.slice(i, i + 10));
      await inPool(chunks, 4, (sites) => putRollups(companyId, sites.flatMap(rowsOf)));
      console.log(
        `wrote ${assets.length * months.length * 2} site roll-ups (${assets.length} sites × ${months.length} months × 2 utilities) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );

      writeFileSync(marker, `${JSON.stringify({ assets: ASSETS, seededAt: new Date().toISOString() })}\n`);
    }

    // Writing the roll-ups can outlast the first token on a loaded machine: the calls sign in afresh.
    const caller = await signInForToken({
      baseUrl: stack.origin,
      email: 'owner@demo.test',
      password: PASSWORD,
    });
    const sitesPk = keys.collection({ companyId }, 'assets');
    const siteIds = AFTER_WRITE ? (await projectAll(sitesPk, [])).map((s) => s._id) : [];
    const writeYear = String(new Date().getUTCFullYear() - 1);
    let writes = 0;
    const siteAt = (n: number) => siteIds[(n * 7919) % siteIds.length] as string;
    const oneMonth = { unit: 'kWh', consumption: 100, cost: 10, emissionsKg: 18 };
    // The kept copy's parts: the sites' fields and each year's figures from 2020.
    const parts = ['sites', ...Array.from({ length: Number(writeYear) - 2018 }, (_, i) => String(2020 + i))];
    const write = async () => {
      writes++;
      if (AFTER_WRITE === 'all') await moveChangeMark(companyId, 'siteYears');
      else if (AFTER_WRITE === 'fresh') await moveChangeMarks(companyId, ['sites', 'siteYears']);
      else if (AFTER_WRITE === 'mark') await moveChangeMark(companyId, yearMark(writeYear));
      else if (AFTER_WRITE === 'site')
        await updateRaw(sitesPk, siteAt(writes), { floorArea: 1000 + (Date.now() % 9000) });
      else if (AFTER_WRITE === 'hour') {
        for (const part of parts)
          await documentClient()
            .send(
              new UpdateCommand({
                TableName: LOCAL_TABLE_NAME,
                Key: { pk: `C#${companyId}#kept-site-years#${part}#0`, sk: 'part' },
                UpdateExpression: 'SET builtAt = builtAt - :hour REMOVE askedAt',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':hour': 3_600_000 },
              }),
            )
            .catch(() => undefined);
      } else if (AFTER_WRITE === 'import')
        await addManyToSiteYears(
          companyId,
          Array.from({ length: IMPORT_SITES }, (_, i) => ({
            assetId: siteAt(writes * IMPORT_SITES + i),
            year: writeYear,
            utilityType: 'electricity' as const,
            delta: oneMonth,
            months: new Map([[`${writeYear}-06`, oneMonth]]),
          })),
        );
      else if (AFTER_WRITE)
        await addToSiteYear(companyId, siteAt(writes), `${writeYear}-06`, 'electricity', oneMonth);
    };
    // The local stack runs the analytics worker on the calls' own thread (in AWS it is a function of its
    // own). A process asks it to make the copy afresh at most once in ten minutes, so only the first call
    // asks: the second waits until the worker has made every part afresh (or three minutes), so that no
    // timed call shares the thread with it.
    const settle = async () => {
      for (let waited = 0; waited < 180_000; waited += 500) {
        const heads = await Promise.all(
          parts.map((part) =>
            documentClient().send(
              new GetCommand({
                TableName: LOCAL_TABLE_NAME,
                Key: { pk: `C#${companyId}#kept-site-years#${part}#0`, sk: 'part' },
                ConsistentRead: true,
              }),
            ),
          ),
        );
        if (heads.every((h) => !h.Item || Date.now() - Number(h.Item.builtAt) < 3_600_000)) return;
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    let calls = 0;
    const call = async () => {
      // The first call is on the copy as the stack found it (past its hour when the last run was long ago).
      if (calls++ === 1) await settle();
      await write();
      const started = performance.now();
      const res = await fetch(`${stack.origin}/api/benchmarks/crrem/sites`, {
        headers: { authorization: `Bearer ${caller.accessToken}` },
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200)
        throw new Error(`GET /benchmarks/crrem/sites answered ${res.status}: ${text.slice(0, 300)}`);
      const body = JSON.parse(text) as { sites: { benchmarked: boolean }[] };
      if (ANSWER_FILE) writeFileSync(ANSWER_FILE, text);
      return {
        ms,
        sites: body.sites.length,
        benchmarked: body.sites.filter((s) => s.benchmarked).length,
        bytes: text.length,
      };
    };
    // The first call of the stack's fresh process, on the copy kept by earlier runs (when there are any).
    const first = await call();
    console.log(`first call after the stack started: ${first.ms.toFixed(0)} ms`);
    for (let i = 1; i < WARM_UP; i++) await call();
    const times: number[] = [];
    let last = { sites: 0, benchmarked: 0, bytes: 0 };
    for (let i = 0; i < CALLS; i++) {
      const r = await call();
      times.push(r.ms);
      last = r;
    }
    console.log(`each call in turn: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    const ok = p95 <= TARGET_MS;
    console.log(
      `\n${ok ? 'ok  ' : 'MISS'} CRREM table of ${last.sites} sites (${last.benchmarked} benchmarked, ${(last.bytes / 1e6).toFixed(1)} MB): p50 ${percentile(times, 50).toFixed(0)} ms  p95 ${p95.toFixed(0)} ms (target ${TARGET_MS}), ${CALLS} calls after ${WARM_UP} of warm-up${AFTER_WRITE ? `, each after a write (${AFTER_WRITE})` : ''}`,
    );
    process.exitCode = ok && mathsOk ? 0 : 1;
  } finally {
    await stack.stop();
    removeState();
  }
}

await main();
