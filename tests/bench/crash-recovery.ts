/**
 * Kills the whole local stack (`npm start`, SIGKILL to its process group) while a spreadsheet import is
 * writing, starts it again on the same state, and checks the import finishes with nothing lost and
 * nothing written twice: the import's own totals, then a dry run of the same file, which must find every
 * row already there unchanged (a lost row would be new, a doubled one changed). Then the import is rolled
 * back, and a last dry run must find every row gone, those the killed run wrote included.
 *
 *   node tests/bench/crash-recovery.ts [years]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { REPO_ROOT } from '../../infra/local/options.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';

const YEARS = Number(process.argv[2] ?? 10);
const stateDir = mkdtempSync(join(tmpdir(), 'voltfolio-crash-'));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
const ports = {
  PORT: await freePort(),
  SMTP_PORT: await freePort(),
  DYNAMODB_PORT: await freePort(),
  AWS_EMULATOR_PORT: await freePort(),
  TEXTRACT_PORT: await freePort(),
};
const origin = `http://localhost:${ports.PORT}`;
const apiUrl = `${origin}/api`;

/** `npm start` in a process group of its own, so one signal reaches every process it started. */
function launch(): ChildProcess {
  return spawn(process.execPath, ['infra/local/start.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      VOLTFOLIO_STATE_DIR: stateDir,
      WEB_BUILD: 'off',
      LOG_LEVEL: 'error',
    },
    detached: true,
    stdio: 'ignore',
  });
}

async function healthy(timeoutMs = 180_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const ok = await fetch(`${apiUrl}/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the stack did not become healthy');
}

const kill = (child: ChildProcess) => {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let token = '';
async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 600_000): Promise<T> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let stack = launch();
try {
  const firstStart = await healthy();
  token = (await signInForToken({ baseUrl: origin, email: 'owner@demo.test', password: DEMO_PASSWORD }))
    .accessToken;
  const meters = ((await call('GET', '/accounts?limit=1000')).body.data as Record<string, unknown>[])
    .filter((a) => a.type === 'electricity' && typeof a.meterPointNumber === 'string')
    .map((a) => String(a.meterPointNumber));
  const lines = ['MPAN,Month,Consumption kWh,Cost'];
  for (const [m, mpan] of meters.entries())
    for (let k = 0; k < YEARS * 12; k++) {
      const month = `${2000 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
      lines.push(`${mpan},${month},${1000 + ((m * 7 + k) % 500)},${(200 + (k % 50)).toFixed(2)}`);
    }
  const rows = lines.length - 1;
  const fileCost =
    Math.round(lines.slice(1).reduce((n, line) => n + Number(line.split(',')[3]) * 100, 0)) / 100;
  // The company's roll-ups over the file's years, which nothing else in the demo reaches.
  const rolledUpCost = async () => {
    const answer = await call(
      'GET',
      `/analytics/v2/consumption?startDate=2000-01-01&endDate=${2000 + YEARS - 1}-12-31&dataType=cost&dateBreakdown=false`,
    );
    const totals = answer.body.totals as { cost?: number } | undefined;
    return Math.round((totals?.cost ?? 0) * 100) / 100;
  };
  const bytes = Buffer.from(`${lines.join('\r\n')}\r\n`);

  const upload = async () => {
    const ticket = await call(
      'GET',
      `/imports/upload-url?type=monthly-consumption&fileName=crash.csv&size=${bytes.length}`,
    );
    if (ticket.status !== 201) throw new Error(`upload-url ${ticket.status} ${JSON.stringify(ticket.body)}`);
    const put = await fetch(String(ticket.body.url), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    if (!put.ok) throw new Error(`upload ${put.status}`);
    const id = String(ticket.body.id);
    await until('the file to be read', async () =>
      (await call('GET', `/imports/${id}`)).body.fileRead === true ? true : undefined,
    );
    return id;
  };
  const previewOf = async (id: string) => {
    const preview = await call('POST', `/imports/${id}/preview`);
    if (preview.status !== 200) throw new Error(`preview ${preview.status} ${JSON.stringify(preview.body)}`);
    return preview.body.totals as Record<string, number>;
  };

  const id = await upload();
  const before = await previewOf(id);
  const started = await call('POST', `/imports/${id}/import`);
  if (started.status !== 202) throw new Error(`import ${started.status} ${JSON.stringify(started.body)}`);
  const atKill = await until('the import to be part way', async () => {
    const record = (await call('GET', `/imports/${id}`)).body;
    const progress = Number(record.progress ?? 0);
    return record.status === 'processing' && progress >= 20 ? progress : undefined;
  });
  kill(stack);
  const killedAt = performance.now();
  await new Promise((r) => setTimeout(r, 500));

  stack = launch();
  const restart = await healthy();
  const done = await until('the import to finish after the restart', async () => {
    const record = (await call('GET', `/imports/${id}`)).body;
    return record.status === 'completed' || record.status === 'error' ? record : undefined;
  });
  const finishedAfter = (performance.now() - killedAt) / 1000;

  const again = await upload();
  const after = await previewOf(again);
  const results = done.results as Record<string, number> | undefined;
  console.log(
    `first start ${firstStart.toFixed(1)} s; ${meters.length} meters × ${YEARS * 12} months = ${rows} rows`,
  );
  console.log(`dry run before: ${JSON.stringify(before)}`);
  console.log(
    `killed with SIGKILL at ${atKill}% imported; healthy again ${restart.toFixed(1)} s after the restart`,
  );
  console.log(
    `import ${String(done.status)} ${finishedAfter.toFixed(1)} s after the kill: ${JSON.stringify(results)}`,
  );
  console.log(`dry run of the same file afterwards: ${JSON.stringify(after)}`);
  const costAfter = await rolledUpCost();
  console.log(`company roll-ups after the import: £${costAfter} (the file's months: £${fileCost})`);
  // The import is rolled back as a whole, the rows the killed run wrote with the rest.
  const rollback = await call('POST', `/imports/${id}/rollback`);
  if (rollback.status !== 202)
    throw new Error(`rollback ${rollback.status} ${JSON.stringify(rollback.body)}`);
  const undone = await until('the rollback to finish', async () => {
    const record = (await call('GET', `/imports/${id}`)).body;
    return record.status === 'rolled-back' || record.status === 'error' ? record : undefined;
  });
  const third = await upload();
  const afterRollback = await previewOf(third);
  console.log(
    `rollback ${String(undone.status)}: ${JSON.stringify(undone.rollback)}; dry run then: ${JSON.stringify(afterRollback)}`,
  );
  const costLeft = await rolledUpCost();
  console.log(`company roll-ups after the rollback: £${costLeft} (should be £0)`);
  console.log(
    costAfter === fileCost && costLeft === 0
      ? 'The roll-ups counted the file once and lost it whole in the rollback.'
      : `ROLL-UPS WRONG: £${costAfter} after the import for £${fileCost} of months, £${costLeft} after the rollback`,
  );
  const lost = after.create ?? 0;
  const changed = after.update ?? 0;
  const held = done.status === 'completed' && lost === 0 && changed === 0 && after.unchanged === rows;
  const undoneAll = afterRollback.create === rows;
  console.log(
    undoneAll
      ? `The rollback removed all ${rows} rows.`
      : `ROLLBACK INCOMPLETE: ${rows - (afterRollback.create ?? 0)} of ${rows} rows are still there`,
  );
  console.log(
    held
      ? `Nothing lost, nothing doubled: all ${rows} rows are there once, as written.`
      : `NOT HELD: ${lost} rows missing, ${changed} rows differ, import ${String(done.status)}`,
  );
} finally {
  kill(stack);
  rmSync(stateDir, { recursive: true, force: true });
}
