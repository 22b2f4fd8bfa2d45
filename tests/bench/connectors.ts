/**
 * `npm run bench:connectors` (Node 24): the connectors on the local stack with the demo data.
 *
 * 1. Bills: BENCH_BILLS (default 200) new bills on the demo company's British Gas Business portal, fetched
 *    in one run and captured; timed from the start-run call until every bill's capture has ended.
 *    Target ≤ 3 minutes.
 * 2. Half-hourly data: BENCH_METERS (default 100) smart meters with a year of data on the local meter
 *    data API, fetched and stored in one run; timed from the start-run call until the run has ended.
 *    Target ≤ 60 s.
 */
import { storePortalPassword } from '../../functions/automation/index.ts';
import { changeStoredCompany } from '../../functions/company/index.ts';
import { changeItem } from '../../functions/core/data/conditional-writes.ts';
import { declaredRef, putItem, queryAll } from '../../functions/core/data/item-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { DEMO_PORTAL, portalBillFrom } from '../../infra/local/fakes/demo-portals.ts';
import type { PortalAccount } from '../../infra/local/fakes/supplier-portal-server.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { halfHourlyProfile } from '../../infra/local/seed/demo-half-hourly.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { mpanCheckDigit } from '../../shared/domain/mpan.ts';
import { startLocalStack } from '../support/local-stack.ts';

const BILLS = Number(process.env.BENCH_BILLS ?? 200);
const METERS = Number(process.env.BENCH_METERS ?? 100);
const FINAL = new Set(['captured', 'manual', 'error', 'completed']);

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

interface Run {
  _id: string;
  status: string;
  counts: { listed: number; fetched: number; skipped: number; failed: number; intervals: number };
  error?: { message: string };
}

async function runToEnd(supplierId: string, timeoutMs: number): Promise<Run> {
  const started = (await call('POST', '/scraper-runs/start-run', { supplierId })) as unknown as Run;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = (await call('GET', `/scraper-runs/${started._id}`)) as unknown as Run;
    if (run.status === 'succeeded' || run.status === 'failed') return run;
    if (Date.now() > until) throw new Error(`Run still ${run.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const companyId = String((await call('GET', '/users/me/company'))._id);
const suppliers = await queryAll(declaredRef('suppliers', {}).pk);
const supplierNamed = (name: string) => {
  const s = suppliers.find((x) => x.name === name);
  if (!s) throw new Error(`No supplier ${name}`);
  return s;
};

// ------------------------------------------------------------------ 1. bills from the portal
const bgb = supplierNamed(DEMO_PORTAL.supplierName);
const portal = local.stack.connectors.portalAccount(DEMO_PORTAL.slug, DEMO_PORTAL.username) as PortalAccount;
const model = (
  (await call('GET', '/invoices?limit=50')).data as { _id: string; values?: { invoiceDate?: string } }[]
).find((i) => typeof i.values?.invoiceDate === 'string');
if (!model) throw new Error('No demo invoice to model bills on');
portal.bills.push(
  ...Array.from({ length: BILLS }, (_, n) =>
    portalBillFrom(model, DEMO_PORTAL.supplierName, 1 + (n % 6), `BGB-B${String(500000 + n)}`),
  ),
);
const billsStarted = performance.now();
const billRun = await runToEnd(bgb._id, 180_000);
const fetchedIn = performance.now() - billsStarted;
let captures: { status: string }[] = [];
for (;;) {
  captures = (await call('GET', `/invoices?batchId=${billRun._id}&limit=1000`)).data as { status: string }[];
  if (captures.length >= billRun.counts.fetched && captures.every((c) => FINAL.has(c.status))) break;
  if (performance.now() - billsStarted > 600_000) break;
  await new Promise((r) => setTimeout(r, 500));
}
const capturedIn = performance.now() - billsStarted;
const statusCounts = new Map<string, number>();
for (const c of captures) statusCounts.set(c.status, (statusCounts.get(c.status) ?? 0) + 1);
const byStatus = [...statusCounts].map(([s, n]) => `${s} ${n}`).join(', ');
console.log('\nConnectors on the local stack');
console.log(
  `  bills:  ${billRun.counts.fetched} of ${BILLS} fetched in one run (${billRun.status}) in ${seconds(fetchedIn)}; ` +
    `all captured ${seconds(capturedIn)} after the start (${byStatus}); target ≤ 180 s: ${capturedIn <= 180_000 ? 'met' : 'missed'}`,
);

// ------------------------------------------------------------------ 2. a year of half-hourly data
const octopus = supplierNamed('Octopus Energy for Business');
await changeItem(declaredRef('suppliers', {}), octopus._id, (s) => ({ ...s, scraperEnabled: true }));
const API_KEY = 'sk_live_bench_local_key';
await storePortalPassword(companyId, octopus._id, API_KEY);
await changeStoredCompany(companyId, (c) => {
  const settings = c.settings ?? {};
  const portals = settings.supplierPortals ?? {};
  return {
    ...c,
    settings: {
      ...settings,
      supplierPortals: { ...portals, [octopus._id]: { username: 'bench', enabled: true } },
    },
  };
});
const today = new Date().toISOString().slice(0, 10);
const yearAgo = new Date(Date.now() - 366 * 86_400_000).toISOString().slice(0, 10);
const accountsRef = declaredRef('accounts', { companyId });
// Spread over the demo sites, as a portfolio's smart meters are: each site's roll-up takes its meters' months.
const sites = (await queryAll(declaredRef('assets', { companyId }).pk)).filter((a) => a.deleted !== true);
for (let i = 0; i < METERS; i++) {
  const core = `12${String(70000000 + i).padStart(10, '0')}`;
  const mpan = core + String(mpanCheckDigit(core));
  const serial = `21E${String(500000 + i)}`;
  const now = new Date().toISOString();
  await putItem(accountsRef, {
    _id: newId(),
    name: `Bench smart meter ${i + 1}`,
    type: 'electricity',
    supplierId: octopus._id,
    assetId: sites[i % sites.length]?._id,
    entityId: sites[i % sites.length]?.entityId,
    meterPointNumber: mpan,
    meterSerialNumber: serial,
    status: 'active',
    unit: 'kWh',
    tags: ['half-hourly'],
    companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: 'bench',
  });
  local.stack.connectors.addMeter(API_KEY, {
    mpan,
    serial,
    from: yearAgo,
    to: today,
    profile: (date) => halfHourlyProfile(date, 2 + (i % 7)),
  });
}
const metersStarted = performance.now();
const meterRun = await runToEnd(octopus._id, 600_000);
const metersIn = performance.now() - metersStarted;

console.log(
  `  meters: ${meterRun.counts.fetched} of ${METERS} meters, ${meterRun.counts.intervals} half-hours fetched and stored ` +
    `(${meterRun.status}${meterRun.error ? `: ${meterRun.error.message}` : ''}) in ${seconds(metersIn)}; target ≤ 60 s: ${metersIn <= 60_000 ? 'met' : 'missed'}`,
);
await local.stop();
process.exit(0);
