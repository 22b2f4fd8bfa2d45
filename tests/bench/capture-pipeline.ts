/**
 * `npm run bench:capture` (Node 24): the invoice pipeline on the local stack, as a user sees it. Starts the
 * stack with the demo data, signs in, and uploads fixture bills through the API's presigned URLs, timing
 * each from the upload call until its validation is no longer pending (upload, S3 event, SQS, capture
 * with the Textract stand-in, SQS, validation). Each copy gets a unique trailer, so none is refused as
 * the same file uploaded twice.
 *
 * Targets: a digital PDF from upload to validated, p95 ≤ 5 s; ≥ 60 digital invoices a minute; a scanned
 * page p95 ≤ 15 s. BENCH_DIGITAL (default 60) and BENCH_SCANS (default 6) change the counts.
 */
import { readFileSync } from 'node:fs';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { fixturePath } from '../fixtures/invoices/truth.ts';
import { startLocalStack } from '../support/local-stack.ts';

const DIGITAL = Number(process.env.BENCH_DIGITAL ?? 60);
const SCANS = Number(process.env.BENCH_SCANS ?? 6);
const DIGITAL_FILES = ['bgb-electricity-digital.pdf', 'edf-gas-digital.pdf', 'thames-water-digital.pdf'];
const SCAN_FILES = ['bgb-electricity-scan.pdf', 'edf-gas-scan.pdf'];

const local = await startLocalStack({ seed: true });
const { accessToken: token } = await signInForToken({
  baseUrl: local.origin,
  email: 'owner@demo.test',
  password: DEMO_PASSWORD,
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

let nonce = 0;
/** The file with a comment after its end marker: the same bill, other bytes. */
function unique(file: string): Uint8Array<ArrayBuffer> {
  const bytes = readFileSync(fixturePath(file));
  return new Uint8Array(
    Buffer.concat([bytes, Buffer.from(`\n%bench ${process.pid}-${++nonce}-${Date.now()}\n`)]),
  );
}

const DONE = new Set(['passed', 'warning', 'failed', 'error']);

/** Upload to validated, in milliseconds, polling as the browser would but every 100 ms. */
async function timeOne(file: string): Promise<number> {
  const started = performance.now();
  const bytes = unique(file);
  const up = await call('POST', '/invoices/captur-upload', {
    fileName: file,
    contentType: 'application/pdf',
    size: bytes.length,
  });
  const put = await fetch(String(up.uploadUrl), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/pdf' },
    body: bytes,
  });
  if (!put.ok) throw new Error(`PUT ${put.status}`);
  for (;;) {
    const batch = (await call('GET', `/invoices?batchId=${up.batchId}`)).data as {
      _id: string;
      status: string;
    }[];
    if (batch.some((i) => i.status === 'error')) throw new Error(`${file} ended as error`);
    const validations = await Promise.all(
      batch
        .filter((i) => i.status === 'captured' || i.status === 'manual')
        .map(
          async (i) =>
            (await call('GET', `/invoice-validation/${i._id}/summary`)).validation as { status: string },
        ),
    );
    if (validations.length > 0 && validations.every((v) => DONE.has(v.status)))
      return performance.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const summary = (label: string, ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} n=${String(s.length).padStart(3)}  p50 ${(pct(s, 50) / 1000).toFixed(2)} s  p95 ${(pct(s, 95) / 1000).toFixed(2)} s  max ${((s.at(-1) ?? 0) / 1000).toFixed(2)} s`,
  );
  return pct(s, 95);
};

try {
  // One at a time: the latency a person uploading a bill sees.
  const single: number[] = [];
  for (let i = 0; i < 10; i++) single.push(await timeOne(DIGITAL_FILES[i % DIGITAL_FILES.length] as string));
  const p95Digital = summary('digital, one at a time', single);

  // All at once: throughput when a batch of bills is dropped in.
  const t0 = performance.now();
  const batch = await Promise.all(
    Array.from({ length: DIGITAL }, (_, i) => timeOne(DIGITAL_FILES[i % DIGITAL_FILES.length] as string)),
  );
  const minutes = (performance.now() - t0) / 60_000;
  summary(`digital, ${DIGITAL} at once`, batch);
  const perMinute = DIGITAL / minutes;
  console.log(`throughput                         ${perMinute.toFixed(1)} invoices a minute`);

  const scans: number[] = [];
  for (let i = 0; i < SCANS; i++) scans.push(await timeOne(SCAN_FILES[i % SCAN_FILES.length] as string));
  const p95Scan = summary('scanned page, one at a time', scans);

  const ok = p95Digital <= 5000 && perMinute >= 60 && p95Scan <= 15_000;
  console.log(
    `targets: digital p95 ≤ 5 s ${p95Digital <= 5000 ? 'met' : 'MISSED'}; ≥ 60/min ${perMinute >= 60 ? 'met' : 'MISSED'}; scan p95 ≤ 15 s ${p95Scan <= 15_000 ? 'met' : 'MISSED'}`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await local.stop();
}
