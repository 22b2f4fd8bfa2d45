/**
 * `npm run bench`: the figures the product is held to, measured on this machine.
 * - each HTTP function bundle ≤ 300 KB minified and imported cold in ≤ 60 ms;
 * - `npm start` to healthy, first start (with seeding) and restart;
 * - `GET /api/assets` through the local stack at 200 requests/s for 30 s: p99 ≤ 50 ms, no errors.
 * Set BENCH_DURATION (seconds), BENCH_WARM_UP (seconds, not counted) and BENCH_RATE to change the load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { bundleFunctions, HTTP_BUNDLE_LIMIT_BYTES, REPO_ROOT } from '../../infra/build/bundle-functions.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 30);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5);
const COLD_IMPORT_LIMIT_MS = 60;
const P99_LIMIT_MS = 50;
const results: { what: string; value: string; target: string; ok: boolean }[] = [];

function record(what: string, value: string, target: string, ok: boolean) {
  results.push({ what, value, target, ok });
  console.log(`${ok ? 'ok  ' : 'MISS'} ${what}: ${value} (target ${target})`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Runs `code` (an ES module that prints milliseconds) in a fresh process, so nothing is cached by a previous run. */
function freshProcessMs(code: string, what: string): number {
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: REPO_ROOT,
    env: { ...process.env, AWS_REGION: 'eu-west-2' },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`${what} failed: ${out.stderr}`);
  return Number(out.stdout);
}

/** The time to import a bundle, cold, as Lambda's runtime does when a new instance starts. */
function coldImportMs(file: string): number {
  const url = JSON.stringify(pathToFileURL(file).href);
  return freshProcessMs(
    `const t = performance.now(); await import(${url}); process.stdout.write(String(performance.now() - t));`,
    `import of ${file}`,
  );
}

/**
 * The floor under every figure: loading the DynamoDB client and document client alone, which each function
 * does at start, the way the bundles load them (with `require`, see infra/build/bundle-functions.ts).
 */
function sdkFloorMs(): number {
  const from = JSON.stringify(join(REPO_ROOT, 'package.json'));
  return freshProcessMs(
    `import { createRequire } from 'node:module'; const require = createRequire(${from});
const t = performance.now(); require('@aws-sdk/client-dynamodb'); require('@aws-sdk/lib-dynamodb');
process.stdout.write(String(performance.now() - t));`,
    'loading the DynamoDB SDK',
  );
}

function benchBundles() {
  console.log('\n# Function bundles');
  // Floor samples are taken between the bundle's, so both see the same load on the machine.
  const floors: number[] = [];
  for (const bundle of bundleFunctions()) {
    const kb = bundle.bytes / 1024;
    const samples: number[] = [];
    const floorSamples: number[] = [];
    for (let i = 0; i < 5; i++) {
      samples.push(coldImportMs(bundle.outfile));
      floorSamples.push(sdkFloorMs());
    }
    floors.push(...floorSamples);
    const ms = median(samples);
    const floor = `SDK floor alongside ${median(floorSamples).toFixed(1)} ms`;
    if (bundle.kind === 'http') {
      record(
        `${bundle.name} bundle`,
        `${kb.toFixed(1)} KB`,
        `≤ ${HTTP_BUNDLE_LIMIT_BYTES / 1024} KB`,
        bundle.bytes <= HTTP_BUNDLE_LIMIT_BYTES,
      );
      record(
        `${bundle.name} cold import`,
        `${ms.toFixed(1)} ms (${floor})`,
        `≤ ${COLD_IMPORT_LIMIT_MS} ms`,
        ms <= COLD_IMPORT_LIMIT_MS,
      );
    } else {
      console.log(
        `     ${bundle.name} (${bundle.kind}): ${kb.toFixed(1)} KB, cold import ${ms.toFixed(1)} ms (${floor})`,
      );
    }
  }
  console.log(
    `     floor: the DynamoDB SDK alone (client-dynamodb + lib-dynamodb), which every function loads at start, loads cold in ${median(floors).toFixed(1)} ms (median of ${floors.length})`,
  );
}

interface RunningStack {
  origin: string;
  stop(): Promise<void>;
}

interface Ports {
  port: number;
  smtpPort: number;
  dynamoPort: number;
  awsPort: number;
}

async function startStack(stateDir: string, ports: Ports): Promise<{ stack: RunningStack; seconds: number }> {
  const { port } = ports;
  const started = performance.now();
  const child = spawn(process.execPath, ['infra/local/start.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      SMTP_PORT: String(ports.smtpPort),
      DYNAMODB_PORT: String(ports.dynamoPort),
      AWS_EMULATOR_PORT: String(ports.awsPort),
      VOLTFOLIO_STATE_DIR: stateDir,
      WEB_BUILD: 'once',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://localhost:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000)
      throw new Error('the local stack did not become healthy in 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    stack: {
      origin,
      stop: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    },
  };
}

async function benchStack() {
  console.log('\n# Local stack');
  const stateDir = mkdtempSync(join(tmpdir(), 'voltfolio-bench-'));
  const ports: Ports = {
    port: await freePort(),
    smtpPort: await freePort(),
    dynamoPort: await freePort(),
    awsPort: await freePort(),
  };
  try {
    const first = await startStack(stateDir, ports);
    record(
      'npm start to healthy, first run (seeds demo data)',
      `${first.seconds.toFixed(1)} s`,
      '< 15 s',
      first.seconds < 15,
    );
    await first.stack.stop();
    const again = await startStack(stateDir, ports);
    record('npm start to healthy, restart', `${again.seconds.toFixed(1)} s`, '< 15 s', again.seconds < 15);

    const { accessToken } = await signInForToken({
      baseUrl: again.stack.origin,
      email: 'owner@demo.test',
      password: 'Voltfolio-demo-2026!',
    });
    const load = (duration: number) =>
      autocannon({
        url: `${again.stack.origin}/api/assets`,
        headers: { authorization: `Bearer ${accessToken}` },
        connections: 20,
        overallRate: RATE,
        duration,
      });
    // The first requests load the function's code and compile it, as a cold Lambda does (measured
    // above as the cold import); the figure is of the warm function, so they are not counted.
    console.log(`\n# GET /api/assets at ${RATE} requests/s for ${DURATION} s, after ${WARM_UP} s of warm-up`);
    await load(WARM_UP);
    const result = await load(DURATION);
    const errors = result.errors + result.timeouts + result.non2xx;
    record(
      'GET /api/assets p99',
      `${result.latency.p99} ms`,
      `≤ ${P99_LIMIT_MS} ms`,
      result.latency.p99 <= P99_LIMIT_MS,
    );
    record('GET /api/assets errors', `${errors} of ${result.requests.total}`, '0', errors === 0);
    console.log(
      `     p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, max ${result.latency.max} ms, ${result.requests.average} req/s average`,
    );
    await again.stack.stop();
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

console.log(`node ${process.version}, ${new Date().toISOString()}`);
benchBundles();
await benchStack();
const missed = results.filter((r) => !r.ok);
console.log(`\n${results.length - missed.length} of ${results.length} figures within target`);
process.exitCode = missed.length > 0 ? 1 : 0;
