import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { localQueueUrl } from '../../infra/local/environment.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { reportBuilt } from '../support/local-api.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';
import { pdfPages, xlsxSheets } from '../support/report-files.ts';

let local: LocalStackHandle;
const tokens = new Map<string, string>();

beforeAll(async () => {
  local = await startLocalStack({ seed: true });
  for (const email of ['owner@demo.test', 'asset@demo.test']) {
    tokens.set(
      email,
      (await signInForToken({ baseUrl: local.origin, email, password: DEMO_PASSWORD })).accessToken,
    );
  }
}, 180_000);
afterAll(() => local?.stop());

type Json = Record<string, unknown>;

async function api(path: string, init: RequestInit & { as?: string } = {}) {
  const res = await fetch(`${local.apiUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${tokens.get(init.as ?? 'owner@demo.test')}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const post = (path: string, body: Json, as?: string) =>
  api(path, { method: 'POST', body: JSON.stringify(body), ...(as ? { as } : {}) });

const built = (id: string) => reportBuilt(local, api, id, 60_000);

async function downloaded(id: string, as?: string): Promise<Uint8Array> {
  const link = await api(`/reports/${id}/download`, as ? { as } : {});
  expect(link.status).toBe(200);
  expect(link.body.expiresInSeconds).toBeLessThanOrEqual(900);
  const file = await fetch(String(link.body.url));
  expect(file.status).toBe(200);
  return new Uint8Array(await file.arrayBuffer());
}

const YEAR = { startDate: '2025-01-01', endDate: '2025-12-31' };

describe('reports on the local stack', () => {
  let secrId = '';

  it('queues a SECR report, builds it, tells the open pages and gives the analytics figures for the year', async () => {
    const live: Json[] = [];
    const ws = new WebSocket(`${local.wsUrl}?token=${tokens.get('owner@demo.test')}`);
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    ws.on('message', (data) => live.push(JSON.parse(data.toString()) as Json));

    const asked = await post('/reports/generate2', {
      templateId: 'secr',
      scopeType: 'company',
      ...YEAR,
      format: 'xlsx',
      intensityMetric: 'employees',
      intensityValue: 250,
      intensityPreviousValue: 240,
    });
    expect(asked.status).toBe(202);
    expect(asked.body.status).toBe('queued');
    secrId = String(asked.body._id);
    const report = await built(secrId);
    expect(report.status).toBe('ready');
    expect(report.fileKey).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    ws.close();
    const statuses = live.filter((m) => m.type === 'report').map((m) => (m.data as Json).status);
    expect(statuses).toContain('generating');
    expect(statuses.at(-1)).toBe('ready');

    const sheets = xlsxSheets(await downloaded(secrId));
    const analytics = (
      await api(
        `/analytics/v2/consumption?startDate=${YEAR.startDate}&endDate=${YEAR.endDate}&granularity=yearly&comparePeriod=year`,
      )
    ).body as {
      totals: { utilities: Record<string, { consumption: number; unit: string }> };
      scopes: { totals: { scope1: number; scope2Location: number; scope2Market: number } };
      comparison: { totals: { utilities: Record<string, { consumption: number }> } };
    };
    const energy = sheets.get('Energy use') ?? [];
    const electricity = energy.find((r) => r[0] === 'Electricity');
    expect(electricity?.[1]).toBeCloseTo(
      analytics.totals.utilities.electricity?.consumption ?? Number.NaN,
      6,
    );
    expect(electricity?.[2]).toBeCloseTo(
      analytics.comparison.totals.utilities.electricity?.consumption ?? Number.NaN,
      6,
    );
    const gas = energy.find((r) => r[0] === 'Gas');
    expect(gas?.[1]).toBeCloseTo(analytics.totals.utilities.gas?.consumption ?? Number.NaN, 6);
    const emissions = sheets.get('Emissions') ?? [];
    const row = (label: string) => emissions.find((r) => String(r[0]).startsWith(label));
    expect(row('Scope 1')?.[1]).toBeCloseTo(analytics.scopes.totals.scope1 / 1000, 9);
    expect(row('Scope 2, location')?.[1]).toBeCloseTo(analytics.scopes.totals.scope2Location / 1000, 9);
    expect(row('Scope 2, market')?.[1]).toBeCloseTo(analytics.scopes.totals.scope2Market / 1000, 9);
    expect(Number(analytics.totals.utilities.electricity?.consumption)).toBeGreaterThan(0);
    const intensity = sheets.get('Intensity') ?? [];
    expect(intensity[2]?.[1]).toBeCloseTo(
      (analytics.scopes.totals.scope1 + analytics.scopes.totals.scope2Location) / 1000 / 250,
      9,
    );
  }, 120_000);

  it('passes over a message delivered again: the report is built once', async () => {
    const before = (await api(`/reports/${secrId}`)).body;
    const summary = local.stack.seed?.summary as { companies: { id: string; name: string }[] };
    const companyId = summary.companies.find((c) => c.name === 'Demo Estates Ltd')?.id ?? '';
    const { messaging } = local.stack;
    await messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: localQueueUrl(messaging.endpoint, 'reports'),
        MessageBody: JSON.stringify({ companyId, reportId: secrId, generation: 1 }),
      }),
    );
    await local.drainQueues(20_000);
    const after = (await api(`/reports/${secrId}`)).body;
    expect(after.completedAt).toBe(before.completedAt);
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.builtGeneration).toBe(1);
    const mine = (await api(`/reports?name=${encodeURIComponent(String(before.name))}`)).body.data as Json[];
    expect(mine.filter((r) => r._id === secrId)).toHaveLength(1);
  }, 60_000);

  it('builds a portfolio summary PDF, and the same figures again give the same bytes', async () => {
    const asked = await post('/reports/generate2', {
      templateId: 'portfolio-summary',
      scopeType: 'company',
      ...YEAR,
      format: 'pdf',
    });
    expect(asked.status).toBe(202);
    const id = String(asked.body._id);
    const report = await built(id);
    expect(report.status).toBe('ready');
    expect(Number(report.pages)).toBeGreaterThan(3);
    const first = await downloaded(id);
    const pages = await pdfPages(first);
    expect(pages[0]).toContain('Energy and carbon summary');
    expect(pages[0]).toContain('Demo Estates Ltd');
    expect(pages.join(' ')).toContain('Top movers');
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);

    const again = await post(`/reports/${id}/regenerate`, {});
    expect(again.status).toBe(202);
    expect(again.body.generation).toBe(2);
    const rebuilt = await built(id);
    expect(rebuilt.builtGeneration).toBe(2);
    const second = await downloaded(id);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  }, 120_000);

  it('lists the meters with missing or estimated months in a data coverage workbook', async () => {
    const asked = await post('/reports/generate2', {
      templateId: 'data-coverage',
      scopeType: 'company',
      ...YEAR,
      format: 'xlsx',
    });
    expect(asked.status).toBe(202);
    const report = await built(String(asked.body._id));
    expect(report.status).toBe('ready');
    const rows = xlsxSheets(await downloaded(String(asked.body._id))).get('Coverage') ?? [];
    expect(rows[0]).toEqual([
      'Site',
      'Meter',
      'Utility',
      'Missing',
      'Estimated',
      'Months missing',
      'Months estimated',
    ]);
    for (const row of rows.slice(1)) {
      const gaps = Number(row[3]) + Number(row[4]);
      expect(gaps).toBeGreaterThan(0);
      expect(gaps).toBeLessThanOrEqual(12);
    }
  }, 120_000);

  it('counts the bills checked in the period in a bill validation workbook, by check and by site', async () => {
    const summary = local.stack.seed?.summary as { companies: { id: string; name: string }[] };
    const companyId = summary.companies.find((c) => c.name === 'Demo Estates Ltd')?.id ?? '';
    const sites = (await api('/assets?limit=100')).body.data as { _id: string; siteName: string }[];
    const accounts = (await api('/accounts?limit=1000')).body.data as { _id: string; assetId?: string }[];
    const siteNamed = (name: string) => sites.find((s) => s.siteName === name)?._id;
    const aldgate = accounts.find((a) => a.assetId === siteNamed('Aldgate House'));
    const hardman = accounts.find((a) => a.assetId === siteNamed('Hardman Court'));
    expect(aldgate && hardman).toBeTruthy();
    const { putInvoice, putValidation } = await import('../../functions/invoices/invoice-repository.ts');
    const judged = (
      id: string,
      accountId: string,
      siteName: string,
      status: string,
      validatedAt: string,
      results: Json[],
    ) =>
      putValidation(companyId, {
        _id: id,
        companyId,
        invoiceId: id,
        accountId,
        status,
        completed: false,
        hold: false,
        tags: [],
        invoiceNumber: `R-${id.slice(-4)}`,
        bill: { siteName, startDate: '2025-05-01', endDate: '2025-05-31', grossTotal: 1000 },
        results,
        validatedAt,
        createdAt: validatedAt,
        updatedAt: validatedAt,
      });
    const total = (status: string, difference?: number) => ({
      key: 'total-matches-charges',
      group: 'totals',
      name: 'Total matches the charges',
      status,
      reason: 'test',
      ...(difference === undefined ? {} : { difference, unit: '£' }),
    });
    await judged(
      '6a0000000000000000000b01',
      String(aldgate?._id),
      'Aldgate House',
      'failed',
      '2025-06-02T10:00:00.000Z',
      [total('failed', 125.5)],
    );
    await judged(
      '6a0000000000000000000b02',
      String(hardman?._id),
      'Hardman Court',
      'passed',
      '2025-06-03T10:00:00.000Z',
      [total('passed')],
    );
    // The supplier credits Aldgate's May overcharge in August, after the report's checks: £80 of £125.50 back.
    await putInvoice(companyId, {
      _id: '6a0000000000000000000c01',
      companyId,
      accountId: String(aldgate?._id),
      isCreditNote: true,
      grossTotal: -80,
      invoiceStartDate: '2025-05-01',
      invoiceEndDate: '2025-05-31',
      createdAt: '2025-08-04T10:00:00.000Z',
      updatedAt: '2025-08-04T10:00:00.000Z',
    });
    // Checked after the period: not in the report.
    await judged(
      '6a0000000000000000000b03',
      String(hardman?._id),
      'Hardman Court',
      'failed',
      '2026-01-05T10:00:00.000Z',
      [total('failed', 40)],
    );

    const asked = await post('/reports/generate2', {
      templateId: 'bill-validation',
      scopeType: 'company',
      ...YEAR,
      format: 'xlsx',
    });
    expect(asked.status).toBe(202);
    expect((await built(String(asked.body._id))).status).toBe('ready');
    const sheets = xlsxSheets(await downloaded(String(asked.body._id)));
    expect(sheets.get('Checks')?.slice(1)).toEqual([['Total matches the charges', 1, 0, 1, 0]]);
    expect(sheets.get('Failed bills')?.[1]?.slice(0, 1)).toEqual(['Aldgate House']);
    expect(sheets.get('Failed bills')?.[0]?.slice(5, 7)).toEqual(['At stake (£)', 'Recovered (£)']);
    expect(sheets.get('Failed bills')?.[1]?.slice(5, 7)).toEqual([125.5, 80]);
    expect(sheets.get('By site')?.slice(1, 3)).toEqual([
      ['Aldgate House', 1, 0, 1, 1, 125.5],
      ['Hardman Court', 1, 1, 0, 0, 0],
    ]);

    // A member granted Hardman Court only, asking for that site, sees its bill and not Aldgate's.
    const own = await api(
      `/reports/asset/${siteNamed('Hardman Court')}/bill-validation?startDate=2025-01-01&endDate=2025-12-31&format=csv`,
      { as: 'asset@demo.test' },
    );
    expect(own.status).toBe(202);
    expect((await built(String(own.body._id))).status).toBe('ready');
    const csv = new TextDecoder().decode(await downloaded(String(own.body._id), 'asset@demo.test'));
    expect(csv).toContain('Hardman Court,1,1,0,0,0');
    expect(csv).not.toContain('Aldgate House');
  }, 120_000);

  it('reports only on what the caller may read', async () => {
    const asset = 'asset@demo.test';
    const whole = await post(
      '/reports/generate2',
      { templateId: 'secr', scopeType: 'company', ...YEAR },
      asset,
    );
    expect(whole.status).toBe(400);
    const sites = (await api('/assets?limit=100')).body.data as { _id: string; siteName: string }[];
    const unreadable = sites.find((s) => s.siteName === 'Aldgate House');
    const readable = sites.find((s) => s.siteName === 'Hardman Court');
    expect(unreadable && readable).toBeTruthy();
    const refused = await api(
      `/reports/asset/${unreadable?._id}/site?startDate=2025-01-01&endDate=2025-12-31`,
      {
        as: asset,
      },
    );
    expect(refused.status).toBe(404);
    // The owner's company-wide report is not theirs to see.
    expect((await api(`/reports/${secrId}/download`, { as: asset })).status).toBe(404);

    const own = await api(
      `/reports/asset/${readable?._id}/site?startDate=2025-01-01&endDate=2025-12-31&format=csv`,
      {
        as: asset,
      },
    );
    expect(own.status).toBe(202);
    const report = await built(String(own.body._id));
    expect(report.status).toBe('ready');
    const csv = new TextDecoder().decode(await downloaded(String(own.body._id), asset));
    expect(csv).toContain('By month');
  }, 120_000);
});
