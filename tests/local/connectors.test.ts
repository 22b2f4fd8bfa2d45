import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { localQueueUrl } from '../../infra/local/environment.ts';
import { DEMO_PORTAL, portalBillFrom } from '../../infra/local/fakes/demo-portals.ts';
import type { PortalAccount } from '../../infra/local/fakes/supplier-portal-server.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;
let token: string;
let supplierId: string;
let companyId: string;
let portal: PortalAccount;
const live: { type: string; data?: { runId?: string; status?: string; accountId?: string } }[] = [];
let socket: WebSocket | undefined;

interface Run {
  _id: string;
  status: string;
  counts: { listed: number; fetched: number; skipped: number; failed: number };
  error?: { type: string; message: string };
  logs: { _id: string; step: string; status: string }[];
}

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function finished(runId: string, timeoutMs = 60_000): Promise<Run> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = (await call('GET', `/scraper-runs/${runId}`)).body as unknown as Run;
    if (run.status === 'succeeded' || run.status === 'failed') return run;
    if (Date.now() > until) throw new Error(`Run ${runId} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function runOnce(): Promise<Run> {
  const started = await call('POST', '/scraper-runs/start-run', { supplierId });
  expect(started.status).toBe(201);
  return finished(String(started.body._id));
}

const FINAL = new Set(['captured', 'manual', 'error', 'completed']);

async function capturedOf(batchId: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const data = (await call('GET', `/invoices?batchId=${batchId}&limit=500`)).body.data as {
      _id: string;
      status: string;
      fileName: string;
    }[];
    if (data.every((i) => FINAL.has(i.status))) return data;
    if (Date.now() > until) throw new Error(`Still ${data.map((i) => i.status).join(', ')}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function logText(run: Run, step: string): Promise<string> {
  const ref = run.logs.find((l) => l.step === step);
  const res = await call('GET', `/scraper-runs/${run._id}/logs/${ref?._id}/download`);
  expect(res.status).toBe(200);
  return String(res.body.text);
}

beforeAll(async () => {
  local = await startLocalStack({ seed: true, visibilityTimeoutSeconds: 2 });
  token = (await signInForToken({ baseUrl: local.origin, email: 'owner@demo.test', password: DEMO_PASSWORD }))
    .accessToken;
  const connectors = (await call('GET', '/scraper-runs/connectors')).body.data as {
    supplierId: string;
    supplierName: string;
  }[];
  supplierId = String(connectors.find((c) => c.supplierName === DEMO_PORTAL.supplierName)?.supplierId);
  companyId = String(((await call('GET', '/users/me/company')).body as { _id?: string })._id);
  portal = local.stack.connectors.portalAccount(DEMO_PORTAL.slug, DEMO_PORTAL.username) as PortalAccount;
  const ws = new WebSocket(`${local.wsUrl}?token=${encodeURIComponent(token)}`);
  ws.on('message', (data) => live.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    ws.on('open', resolve);
    ws.on('error', reject);
  });
  socket = ws;
}, 240_000);

afterAll(async () => {
  socket?.close();
  await local?.stop();
});

describe('supplier portal connectors on the local stack', () => {
  it('shows the demo login without its password, ready to run', async () => {
    const res = await call('GET', '/scraper-runs/connectors');
    expect(res.body.data).toEqual([
      expect.objectContaining({
        supplierName: 'British Gas Business',
        username: 'demo-estates',
        passwordSet: true,
        status: 'ready',
      }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain(DEMO_PORTAL.password);
    expect(portal.bills.length).toBe(3);
  });

  it('signs in, fetches the new bills into capture, and tells the browser as it goes', async () => {
    const run = await runOnce();
    expect(run.status).toBe('succeeded');
    expect(run.counts).toMatchObject({ listed: 3, fetched: 3, skipped: 0, failed: 0 });
    const invoices = await capturedOf(run._id);
    expect(invoices.map((i) => i.fileName).sort()).toEqual([
      'BGB-P900001.pdf',
      'BGB-P900002.pdf',
      'BGB-P900003.pdf',
    ]);
    expect(invoices.every((i) => FINAL.has(i.status))).toBe(true);
    expect(invoices.filter((i) => i.status === 'error')).toEqual([]);
    // Fetched bills go on exactly as uploaded ones: read, then checked by bill validation.
    for (const invoice of invoices)
      await expect
        .poll(
          async () =>
            (
              (await call('GET', `/invoice-validation/${invoice._id}/summary`)).body as {
                validation?: { status?: string };
              }
            ).validation?.status,
          { timeout: 60_000, interval: 300 },
        )
        .toMatch(/^(passed|warning|failed)$/);
    const statuses = live
      .filter((e) => e.type === 'scraper-run.updated' && e.data?.runId === run._id)
      .map((e) => e.data?.status);
    expect(statuses).toContain('running');
    expect(statuses.at(-1)).toBe('succeeded');
    const download = await logText(run, 'download');
    expect(download).toContain('BGB-P900002');
    expect(await logText(run, 'sign-in')).not.toContain(DEMO_PORTAL.password);
  }, 120_000);

  it('fetches nothing twice on the next run', async () => {
    const before = local.stack.connectors.downloads.get(DEMO_PORTAL.slug);
    const run = await runOnce();
    expect(run.status).toBe('succeeded');
    expect(run.counts.fetched).toBe(0);
    expect(local.stack.connectors.downloads.get(DEMO_PORTAL.slug)).toBe(before);
  }, 60_000);

  it('pages through the bill list and skips a bill captured already under the same invoice number', async () => {
    const first = portal.bills[0];
    if (!first) throw new Error('no bill');
    // Twelve more bills, issued after the last run's newest: two pages and a bit at ten a page.
    const template = {
      _id: 'x',
      values: { invoiceDate: first.issuedOn, accountNumber: first.accountNumber, grossTotal: 100 },
    };
    for (let n = 0; n < 12; n++)
      portal.bills.push(portalBillFrom(template, 'British Gas Business', 1 + (n % 3), `BGB-R${100 + n}`));
    // The same number as a bill fetched before, re-issued as a new document.
    portal.bills.push(portalBillFrom(template, 'British Gas Business', 2, 'BGB-P900001'));
    const run = await runOnce();
    // The last run's newest day is listed again (bills issued later that day), and recognised.
    expect(run.counts).toMatchObject({ listed: 16, fetched: 12, skipped: 4, failed: 0 });
    expect(await logText(run, 'list')).toContain('Page 2');
    expect(await logText(run, 'download')).toMatch(/BGB-P900001: already captured \(same invoice number\)/);
    await capturedOf(run._id);
  }, 180_000);

  it('fails a run when the portal is down, and runs again once it is back', async () => {
    local.stack.connectors.setPortalMode(DEMO_PORTAL.slug, 'down');
    const down = await runOnce();
    expect(down).toMatchObject({ status: 'failed', error: { type: 'portal-unavailable' } });
    local.stack.connectors.setPortalMode(DEMO_PORTAL.slug, 'slow', 300);
    const slow = await runOnce();
    expect(slow.status).toBe('succeeded');
    local.stack.connectors.setPortalMode(DEMO_PORTAL.slug, 'up');
  }, 60_000);

  it('resumes a run cut off mid-way without storing a bill twice', async () => {
    const { billCaptureId } = await import('../../functions/automation/scraper-service.ts');
    const { createRun } = await import('../../functions/automation/connector-repository.ts');
    const { registerUpload, captureKey } = await import('../../functions/invoices/index.ts');
    const { putObject } = await import('../../functions/core/adapters/s3.ts');
    const template = { _id: 'y', values: { invoiceDate: '2027-06-01', accountNumber: 'A1', grossTotal: 50 } };
    const fresh = [0, 1, 2, 3].map((n) =>
      portalBillFrom(template, 'British Gas Business', n, `BGB-S${200 + n}`),
    );
    portal.bills.push(...fresh);
    // What a worker that died after its second bill left behind: the run going, two bills stored.
    const runId = '0190000000000000000000aa';
    const now = new Date().toISOString();
    await createRun({
      _id: runId,
      companyId,
      supplierId,
      supplierName: 'British Gas Business',
      status: 'running',
      trigger: 'manual',
      counts: { listed: 4, fetched: 2, skipped: 0, failed: 0, intervals: 0 },
      logs: [],
      startedAt: now,
      createdAt: now,
      updatedAt: now,
      createdBy: 'test',
    });
    for (const bill of fresh.slice(0, 2)) {
      const captureId = billCaptureId(companyId, supplierId, {
        invoiceNumber: bill.invoiceNumber,
        issuedOn: bill.issuedOn,
        accountNumber: bill.accountNumber,
        downloadUrl: '',
      });
      const key = captureKey(companyId, captureId, `${bill.invoiceNumber}.pdf`);
      const bytes = await bill.pdf();
      await registerUpload(companyId, {
        captureId,
        batchId: runId,
        fileName: `${bill.invoiceNumber}.pdf`,
        key,
        size: bytes.byteLength,
        contentType: 'application/pdf',
        source: 'api',
      });
      await putObject(local.env.BUCKET_UPLOADS as string, key, bytes, 'application/pdf');
    }
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: localQueueUrl(local.stack.messaging.endpoint, 'scraper'),
        MessageBody: JSON.stringify({ companyId, runId }),
      }),
    );
    const run = await finished(runId);
    expect(run.status).toBe('succeeded');
    expect(run.counts.fetched).toBe(4);
    const invoices = await capturedOf(runId);
    expect(invoices.map((i) => i.fileName).sort()).toEqual(fresh.map((b) => `${b.invoiceNumber}.pdf`).sort());
  }, 120_000);

  it('stops at a wrong password, tells the admins, and runs again once the password is set', async () => {
    portal.password = 'Changed-on-the-portal-1';
    const run = await runOnce();
    expect(run).toMatchObject({ status: 'failed', error: { type: 'wrong-password' } });
    expect((await call('POST', '/scraper-runs/start-run', { supplierId })).status).toBe(409);
    const notes = (await call('GET', '/users/me/notifications')).body as { data?: { content: string }[] };
    expect(JSON.stringify(notes)).toContain('refused the password');
    const set = await call('PATCH', `/companies/${companyId}/supplier-portals/${supplierId}`, {
      username: DEMO_PORTAL.username,
      password: 'Changed-on-the-portal-1',
    });
    expect(set.status).toBe(200);
    expect(JSON.stringify(set.body)).not.toContain('Changed-on-the-portal-1');
    expect((await runOnce()).status).toBe('succeeded');
  }, 60_000);

  it("fetches a smart meter's half-hourly data from the data API, then only what is new", async () => {
    const { storePortalPassword } = await import('../../functions/automation/index.ts');
    const { changeItem } = await import('../../functions/core/data/conditional-writes.ts');
    const { declaredRef, putItem, queryAll } = await import('../../functions/core/data/item-repository.ts');
    const { changeStoredCompany } = await import('../../functions/company/index.ts');
    const octopus = (await queryAll(declaredRef('suppliers', {}).pk)).find(
      (s) => s.name === 'Octopus Energy for Business',
    );
    if (!octopus) throw new Error('no Octopus supplier');
    await changeItem(declaredRef('suppliers', {}), octopus._id, (s) => ({ ...s, scraperEnabled: true }));
    await storePortalPassword(companyId, octopus._id, 'sk_test_octopus');
    await changeStoredCompany(companyId, (c) => {
      const settings = c.settings ?? {};
      const portals = settings.supplierPortals ?? {};
      return {
        ...c,
        settings: {
          ...settings,
          supplierPortals: { ...portals, [octopus._id]: { username: 'api', enabled: true } },
        },
      };
    });
    const accountId = '0190000000000000000000bb';
    const [site] = await queryAll(declaredRef('assets', { companyId }).pk);
    const now = new Date().toISOString();
    await putItem(declaredRef('accounts', { companyId }), {
      _id: accountId,
      name: 'Test smart meter',
      type: 'electricity',
      supplierId: octopus._id,
      assetId: site?._id,
      entityId: site?.entityId,
      meterPointNumber: '1200099999993',
      meterSerialNumber: '21E9999999',
      status: 'active',
      unit: 'kWh',
      companyId,
      createdAt: now,
      updatedAt: now,
    });
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    local.stack.connectors.addMeter('sk_test_octopus', {
      mpan: '1200099999993',
      serial: '21E9999999',
      from,
      to: today,
      profile: (date) =>
        Array.from({ length: 48 }, () => (date === '2026-03-29' || date === '2026-10-25' ? 0 : 1)),
    });
    const { listAccountMonths, listAssetRollups, listCompanyRollups } = await import(
      '../../functions/accounts/index.ts'
    );
    const electricity = async () => {
      const sum = (rows: { consumption: number }[]) => rows.reduce((n, r) => n + r.consumption, 0);
      return {
        site: sum(await listAssetRollups(companyId, String(site?._id), '2000-01', '2999-12', 'electricity')),
        company: sum(await listCompanyRollups(companyId, '2000-01', '2999-12', 'electricity')),
        meter: sum(await listAccountMonths(companyId, accountId, '2000-01', '2999-12')),
      };
    };
    const before = await electricity();
    const { listGridFetchUsage } = await import('../../functions/staff-tools/staff-repository.ts');
    const month = new Date().toISOString().slice(0, 7);
    const usage = async () => (await listGridFetchUsage(companyId, month, month))[0];
    const usedBefore = await usage();
    local.stack.connectors.throttle(1, 1);
    const started = await call('POST', '/scraper-runs/start-run', { supplierId: octopus._id });
    const first = await finished(String(started.body._id));
    expect(first.status).toBe('succeeded');
    expect((first.counts as { intervals?: number }).intervals).toBeGreaterThanOrEqual(9 * 46);
    expect(await logText(first, 'consumption')).toContain('1 answered 429');
    // The site's and company's months take the meter's new half-hours, once.
    const after = await electricity();
    expect(after.meter).toBeGreaterThanOrEqual(9 * 46);
    expect(after.site - before.site).toBeCloseTo(after.meter, 3);
    expect(after.company - before.company).toBeCloseTo(after.meter, 3);
    await expect
      .poll(() => live.some((m) => m.type === 'analytics.changed' && m.data?.accountId === accountId))
      .toBe(true);
    expect(((await usage())?.intervals ?? 0) - (usedBefore?.intervals ?? 0)).toBe(
      (first.counts as { intervals?: number }).intervals,
    );
    const again = await finished(
      String((await call('POST', '/scraper-runs/start-run', { supplierId: octopus._id })).body._id),
    );
    expect(again.status).toBe('succeeded');
    expect((again.counts as { intervals?: number }).intervals).toBe(0);
    expect(((await usage())?.fetches ?? 0) - (usedBefore?.fetches ?? 0)).toBe(2);
    const last = await electricity();
    expect(last.site).toBeCloseTo(after.site, 3);
    expect(last.company).toBeCloseTo(after.company, 3);
  }, 120_000);
  it("mends the site's figures when a smart-meter run was cut off before adding its days to them", async () => {
    const { writeHalfHourlyDays } = await import('../../functions/analytics/index.ts');
    const { createRun, putMeterCursor } = await import('../../functions/automation/connector-repository.ts');
    const { declaredRef, putItem, queryAll } = await import('../../functions/core/data/item-repository.ts');
    const { listAccountMonths, listAssetRollups, listCompanyRollups } = await import(
      '../../functions/accounts/index.ts'
    );
    const octopus = (await queryAll(declaredRef('suppliers', {}).pk)).find(
      (s) => s.name === 'Octopus Energy for Business',
    );
    if (!octopus) throw new Error('no Octopus supplier');
    const [site] = await queryAll(declaredRef('assets', { companyId }).pk);
    const accountId = '0190000000000000000000cc';
    const now = new Date().toISOString();
    await putItem(declaredRef('accounts', { companyId }), {
      _id: accountId,
      name: 'Second smart meter',
      type: 'electricity',
      supplierId: octopus._id,
      assetId: site?._id,
      entityId: site?.entityId,
      meterPointNumber: '1200088888881',
      meterSerialNumber: '21E8888888',
      status: 'active',
      unit: 'kWh',
      companyId,
      createdAt: now,
      updatedAt: now,
    });
    const sum = (rows: { consumption: number }[]) => rows.reduce((n, r) => n + r.consumption, 0);
    const electricity = async () => ({
      site: sum(await listAssetRollups(companyId, String(site?._id), '2000-01', '2999-12', 'electricity')),
      company: sum(await listCompanyRollups(companyId, '2000-01', '2999-12', 'electricity')),
    });
    const before = await electricity();
    // What a worker that died between storing the meter's days and adding them to the roll-ups left
    // behind: the days stored, the meter's cursor past them, the run going.
    await writeHalfHourlyDays(
      companyId,
      accountId,
      ['2026-01-05', '2026-01-06', '2026-02-10'].map((date) => ({ date, values: Array(48).fill(2) })),
      { deferRollups: true },
    );
    const meter = sum(await listAccountMonths(companyId, accountId, '2000-01', '2999-12'));
    expect(meter).toBe(3 * 96);
    expect(await electricity()).toEqual(before);
    const today = new Date().toISOString().slice(0, 10);
    local.stack.connectors.addMeter('sk_test_octopus', {
      mpan: '1200088888881',
      serial: '21E8888888',
      from: today,
      to: today,
      profile: () => Array.from({ length: 48 }, () => 2),
    });
    await putMeterCursor(companyId, accountId, new Date(Date.now() - 86_400_000).toISOString());
    const runId = '0190000000000000000000ab';
    await createRun({
      _id: runId,
      companyId,
      supplierId: octopus._id,
      supplierName: 'Octopus Energy for Business',
      status: 'running',
      trigger: 'manual',
      counts: { listed: 2, fetched: 1, skipped: 0, failed: 0, intervals: 0 },
      logs: [],
      startedAt: now,
      createdAt: now,
      updatedAt: now,
      createdBy: 'test',
    });
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: localQueueUrl(local.stack.messaging.endpoint, 'scraper'),
        MessageBody: JSON.stringify({ companyId, runId }),
      }),
    );
    const run = await finished(runId);
    expect(run, JSON.stringify(run.logs)).toMatchObject({ status: 'succeeded' });
    const after = await electricity();
    expect(after.site - before.site).toBeCloseTo(meter, 3);
    expect(after.company - before.company).toBeCloseTo(meter, 3);
    expect(await logText(run, 'consumption')).toContain('Resumed');
  }, 120_000);
  it("starts a run of every switched-on login when the schedule's sweep comes", async () => {
    const runsOf = async () =>
      (
        (await call('GET', '/scraper-runs?limit=100')).body.data as (Run & {
          trigger: string;
          supplierId: string;
        })[]
      ).filter((r) => r.trigger === 'schedule');
    expect(await runsOf()).toEqual([]);
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: localQueueUrl(local.stack.messaging.endpoint, 'scraper'),
        MessageBody: JSON.stringify({ sweep: 'scraper' }),
      }),
    );
    await expect
      .poll(async () => (await runsOf()).some((r) => r.supplierId === supplierId), { timeout: 60_000 })
      .toBe(true);
    const scheduled = (await runsOf()).find((r) => r.supplierId === supplierId) as Run;
    expect((await finished(scheduled._id)).status).toBe('succeeded');
  }, 120_000);
});
