import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  allAccounts,
  applyInvoiceContribution,
  listAccountMonths,
  listAssetRollups,
  listCompanyRollups,
  listPortfolioRollups,
  listSiteYears,
} from '../../functions/accounts/index.ts';
import type { AnalyticsAnswer } from '../../functions/analytics/analytics-service.ts';
import { documentClient } from '../../functions/core/adapters/dynamo.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { saveConnection } from '../../functions/core/live/live-connection-repository.ts';
import { type InvoiceWorld, sqsEvent, startInvoiceWorld } from './invoices-support.ts';
import { type Api, created } from './register-support.ts';

/**
 * Restating a company's emissions in a factor set edition, worked by hand:
 *   January 2025: 1000 kWh at 0.177 (desnz-2025-v1, the built-in edition's) = 177 kg
 *   January 2024: 1000 kWh stated at 250 kg by an earlier edition (desnz-2024-v0); the built-in edition's
 *   2024 factor is 0.20705, so restated it is 207.05 kg
 * The request queues the work and answers 202; the restatements worker does it, and announces it.
 */
type Worker = (event: ReturnType<typeof sqsEvent>) => Promise<SQSBatchResponse>;
let w: InvoiceWorld;
let api: Api;
let owner: string;
let siteId: string;
let worker: Worker;
let management: Server;
/** What the WebSocket management API was asked to send to the company's open page. */
const sent: { type: string; keys?: string[]; data?: Record<string, unknown> }[] = [];

const get = async (path: string, token = owner) => (await api({ method: 'GET', path, token })).body;
const restate = (factorSet: string, token = owner) =>
  api({ method: 'POST', path: '/analytics/factor-sets/restate', token, body: { factorSet } });
/** Runs the worker on these message bodies, as SQS hands them over, and expects none to fail. */
const work = async (bodies: string[]) => {
  const out = await worker(sqsEvent(bodies, 'restatements'));
  expect(out.batchItemFailures).toEqual([]);
};
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const logLines = async () =>
  ((await get('/logs?type=restate')) as unknown as { data: { message?: string; modelId?: string }[] }).data;
const emissionsOf = async (year: string, query = '') => {
  const answer = (await get(
    `/analytics/v2/consumption?startDate=${year}-01-01&endDate=${year}-12-31&dataType=emissions&dateBreakdown=false${query}`,
  )) as unknown as AnalyticsAnswer;
  return { kg: answer.totals.emissionsKg, sets: answer.factorVersions };
};

beforeAll(async () => {
  w = await startInvoiceWorld();
  api = w.api;
  worker = (await import('../../functions/handlers/queue/restatements.ts')).handler as unknown as Worker;
  // A stand-in for API Gateway's management API: it records each PostToConnection.
  management = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') sent.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => management.listen(0, '127.0.0.1', resolve));
  process.env.LIVE_ENDPOINT = `http://127.0.0.1:${(management.address() as AddressInfo).port}`;
  await saveConnection({
    connectionId: 'owner-page',
    sub: 'owner',
    companyId: w.demoId,
    connectedAt: new Date().toISOString(),
  });
  owner = w.token('owner');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  siteId = await created(api, owner, '/assets', {
    siteName: 'Aldgate',
    entityId,
    address: { streetAddress: '1 Test Street', locality: 'London', postCode: 'EC3N 1DL' },
  });
  const accountId = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: siteId,
    name: 'Main',
  });
  for (const [month, emissionsKg, factorVersion] of [
    ['2025-01', 177, 'desnz-2025-v1'],
    ['2024-01', 250, 'desnz-2024-v0'],
  ] as const) {
    await applyInvoiceContribution(
      w.demoId,
      accountId,
      siteId,
      newId(),
      {
        month,
        utilityType: 'electricity',
        consumption: 1000,
        unit: 'kWh',
        cost: 250,
        emissionsKg,
        factorVersion,
      },
      1,
    );
  }
});

afterAll(async () => {
  await w?.stop();
  await new Promise((resolve) => management?.close(resolve));
});

describe('restating emissions in a factor set', () => {
  it('is for company admins only, and leaves the figures alone when refused', async () => {
    const reader = await w.addUser('reader', ['company_user']);
    expect((await restate('desnz-v1', reader)).status).toBe(403);
    expect(await emissionsOf('2024')).toEqual({ kg: 250, sets: ['desnz-2024-v0'] });
    const bad = await restate('desnz-v9');
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toMatchObject({ factorSet: 'Must be one of desnz-v1, desnz-v2' });
  });

  it('names the edition the figures are in and those there are', async () => {
    expect(await get('/analytics/factor-sets')).toEqual({
      current: { id: 'desnz-v1', label: expect.stringContaining('DESNZ') },
      editions: [
        { id: 'desnz-v1', label: expect.stringContaining('first edition') },
        {
          id: 'desnz-v2',
          label: expect.stringContaining('natural gas 2024 and 2025 corrected'),
          current: true,
        },
      ],
    });
  });

  it('queues the work and answers at once; the worker recomputes every roll-up, logs and announces it', async () => {
    const res = await restate('desnz-v1');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ factorSet: 'desnz-v1', status: 'queued', progress: 0 });
    const jobId = String(res.body.jobId);
    // Nothing has changed yet: the figures are the worker's to recompute.
    expect(await emissionsOf('2024')).toEqual({ kg: 250, sets: ['desnz-2024-v0'] });
    const bodies = await w.drain('restatements');
    expect(bodies.map((b) => JSON.parse(b))).toEqual([{ companyId: w.demoId, jobId }]);
    sent.length = 0;
    await work(bodies);

    const job = await get(`/analytics/factor-sets/restatements/${jobId}`);
    expect(job).toMatchObject({
      jobId,
      status: 'done',
      progress: 100,
      result: {
        factorSet: 'desnz-v1',
        months: 1,
        years: [
          { year: '2024', beforeKg: 250, afterKg: 207.05 },
          { year: '2025', beforeKg: 177, afterKg: 177 },
        ],
      },
    });
    expect(await emissionsOf('2024')).toEqual({ kg: 207.05, sets: ['desnz-2024-v1'] });
    expect(await emissionsOf('2024', `&assetId=${siteId}`)).toEqual({ kg: 207.05, sets: ['desnz-2024-v1'] });
    expect(await emissionsOf('2025')).toEqual({ kg: 177, sets: ['desnz-2025-v1'] });
    const log = await logLines();
    expect(log).toHaveLength(1);
    expect(log[0]?.modelId).toBe('desnz-v1');
    expect(log[0]?.message).toContain('1 meter months recomputed');
    expect(log[0]?.message).toContain('2024: 250 kg → 207.05 kg CO2e');
    expect(log[0]?.message).not.toContain('2025:');
    expect((await get('/analytics/factor-sets')).current).toMatchObject({
      id: 'desnz-v1',
      restatedAt: expect.any(String),
    });
    // The open page heard the job start and end, and that every figure is stale.
    const progress = sent.filter((m) => m.type === 'analytics.restatement').map((m) => m.data?.status);
    expect(progress[0]).toBe('running');
    expect(progress.at(-1)).toBe('done');
    expect(sent.filter((m) => m.type === 'analytics.changed')).toEqual([
      { type: 'analytics.changed', keys: expect.arrayContaining(['/analytics', '/users/me/dashboard-data']) },
    ]);

    // The same message delivered again (SQS delivers at least once): nothing is added twice.
    sent.length = 0;
    await work(bodies);
    await work([...bodies, ...bodies]);
    expect(await emissionsOf('2024')).toEqual({ kg: 207.05, sets: ['desnz-2024-v1'] });
    expect(await emissionsOf('2024', `&assetId=${siteId}`)).toEqual({ kg: 207.05, sets: ['desnz-2024-v1'] });
    expect(await logLines()).toHaveLength(1);
    expect(sent).toEqual([]);
    expect(await get(`/analytics/factor-sets/restatements/${jobId}`)).toEqual(job);
  });

  it("shows a job only to its company's admins", async () => {
    const res = await restate('desnz-v1');
    const path = `/analytics/factor-sets/restatements/${String(res.body.jobId)}`;
    await w.drain('restatements');
    const reader = await w.addUser('reader2', ['company_user']);
    expect((await api({ method: 'GET', path, token: reader })).status).toBe(403);
    expect((await api({ method: 'GET', path: `${path}x`, token: owner })).status).toBe(404);
  });

  it('changes no figure when restated again in the same set', async () => {
    const before = [
      await emissionsOf('2024'),
      await emissionsOf('2025'),
      await emissionsOf('2024', `&assetId=${siteId}`),
    ];
    const res = await restate('desnz-v1');
    expect(res.status).toBe(202);
    await work(await w.drain('restatements'));
    const job = await get(`/analytics/factor-sets/restatements/${String(res.body.jobId)}`);
    expect(job).toMatchObject({ status: 'done', result: { months: 0 } });
    expect([
      await emissionsOf('2024'),
      await emissionsOf('2025'),
      await emissionsOf('2024', `&assetId=${siteId}`),
    ]).toEqual(before);
    expect((await logLines()).map((l) => l.message)).toContainEqual(
      expect.stringContaining('no figure changed'),
    );
  });

  it('moves gas figures to the corrected edition through the worker: 0.1829 for 2024, 0.18296 for 2025', async () => {
    const gasId = await created(api, owner, '/accounts', { type: 'gas', assetId: siteId, name: 'Boiler' });
    // Stated in the first edition: 10,000 kWh × 0.18278 (2024) and × 0.18231 (2025).
    for (const [month, emissionsKg, factorVersion] of [
      ['2024-02', 1827.8, 'desnz-2024-v1'],
      ['2025-02', 1823.1, 'desnz-2025-v1'],
    ] as const) {
      await applyInvoiceContribution(
        w.demoId,
        gasId,
        siteId,
        newId(),
        {
          month,
          utilityType: 'gas',
          consumption: 10_000,
          unit: 'kWh',
          cost: 500,
          emissionsKg,
          factorVersion,
        },
        1,
      );
    }
    const gasOf = async (year: string) => {
      const answer = (await get(
        `/analytics/v2/consumption?startDate=${year}-01-01&endDate=${year}-12-31&dataType=emissions&dateBreakdown=false`,
      )) as unknown as AnalyticsAnswer;
      return answer.totals.utilities.gas?.emissionsKg;
    };
    expect([await gasOf('2024'), await gasOf('2025')]).toEqual([1827.8, 1823.1]);
    const totalsBefore = [await emissionsOf('2024'), await emissionsOf('2025')].map((e) => e.kg);

    const res = await restate('desnz-v2');
    expect(res.status).toBe(202);
    const bodies = await w.drain('restatements');
    await work(bodies);
    const job = await get(`/analytics/factor-sets/restatements/${String(res.body.jobId)}`);
    expect(job).toMatchObject({ status: 'done', result: { factorSet: 'desnz-v2', months: 2 } });
    expect([await gasOf('2024'), await gasOf('2025')]).toEqual([1829, 1829.6]);
    // Electricity's factors are the same in both editions: the totals moved by the gas alone.
    const totalsAfter = [await emissionsOf('2024'), await emissionsOf('2025')].map((e) => e.kg);
    expect(totalsAfter.map((kg, i) => round3(kg - (totalsBefore[i] ?? 0)))).toEqual([1.2, 6.5]);
    // Delivered again: nothing is added twice.
    await work(bodies);
    expect([await gasOf('2024'), await gasOf('2025')]).toEqual([1829, 1829.6]);
    expect((await get('/analytics/factor-sets')).current).toMatchObject({ id: 'desnz-v2' });
  });

  it('leaves roll-ups equal to the sum of the months when the worker dies after rewriting a month', async () => {
    const bankId = await created(api, owner, '/assets', {
      siteName: 'Bank',
      entityId: String((await get(`/assets/${siteId}`)).entityId),
      address: { streetAddress: '2 Test Street', locality: 'London', postCode: 'EC2R 8AH' },
    });
    const groupId = await created(api, owner, '/asset-groups', { name: 'City', assetIds: [bankId] });
    const meterId = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: bankId,
      name: 'Main',
    });
    // Stated in an earlier edition; the built-in 2024 factor 0.20705 makes them 207.05 and 103.525 kg.
    for (const [month, consumption, emissionsKg] of [
      ['2024-03', 1000, 300],
      ['2024-04', 500, 150],
    ] as const)
      await applyInvoiceContribution(
        w.demoId,
        meterId,
        bankId,
        newId(),
        {
          month,
          utilityType: 'electricity',
          consumption,
          unit: 'kWh',
          cost: 100,
          emissionsKg,
          factorVersion: 'desnz-2024-v0',
        },
        1,
      );
    const res = await restate('desnz-v2');
    const bodies = await w.drain('restatements');
    // The worker dies on its first write to a roll-up: after the month is rewritten, before the roll-ups.
    const client = documentClient();
    const send = client.send.bind(client);
    let armed = true;
    const died = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      if (armed && command instanceof UpdateCommand && String(command.input.Key?.pk).includes('#rollup#')) {
        armed = false;
        return Promise.reject(new Error('worker died'));
      }
      return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof client.send);
    try {
      const out = await worker(sqsEvent(bodies, 'restatements'));
      expect(out.batchItemFailures).toHaveLength(1);
    } finally {
      died.mockRestore();
    }
    expect(armed).toBe(false);
    // SQS delivers the message again: the job finishes what the roll-ups lack.
    await work(bodies);

    const sum = (rows: { emissionsKg: number }[]) =>
      round3(rows.reduce((n, r) => n + Number(r.emissionsKg), 0));
    const in2024 = <T extends { month: string }>(rows: T[]) => rows.filter((r) => r.month.startsWith('2024'));
    const bankMonths = in2024(await listAccountMonths(w.demoId, meterId, '2024-01', '2024-12'));
    expect(bankMonths.map((m) => m.emissionsKg)).toEqual([207.05, 103.525]);
    expect(sum(await listAssetRollups(w.demoId, bankId, '2024-01', '2024-12'))).toBe(310.575);
    expect(sum(await listPortfolioRollups(w.demoId, groupId, '2024-01', '2024-12'))).toBe(310.575);
    const years = await listSiteYears(w.demoId, 2024, 2024);
    expect(years.find((y) => y.assetId === bankId && y.utilityType === 'electricity')?.emissionsKg).toBe(
      310.575,
    );
    let everyMonth = 0;
    for (const account of await allAccounts(w.demoId))
      everyMonth += sum(await listAccountMonths(w.demoId, account._id, '2024-01', '2024-12'));
    expect(sum(await listCompanyRollups(w.demoId, '2024-01', '2024-12'))).toBe(round3(everyMonth));
    expect((await emissionsOf('2024', `&assetId=${bankId}`)).kg).toBe(310.575);
    // Both months count as the job's, the one restated before the worker died too.
    const job = await get(`/analytics/factor-sets/restatements/${String(res.body.jobId)}`);
    expect(job).toMatchObject({ status: 'done', result: { factorSet: 'desnz-v2', months: 2 } });
  });
  it('puts on the roll-ups what a job that failed every delivery left recorded, when a later job runs', async () => {
    const moorgateId = await created(api, owner, '/assets', {
      siteName: 'Moorgate',
      entityId: String((await get(`/assets/${siteId}`)).entityId),
      address: { streetAddress: '3 Test Street', locality: 'London', postCode: 'EC2M 6SA' },
    });
    const groupId = await created(api, owner, '/asset-groups', { name: 'Wall', assetIds: [moorgateId] });
    const meterId = await created(api, owner, '/accounts', {
      type: 'electricity',
      assetId: moorgateId,
      name: 'Main',
    });
    // Stated in an earlier edition (450 kg); the 2024 factor 0.20705 makes them 207.05 and 103.525 kg.
    for (const [month, consumption, emissionsKg] of [
      ['2024-05', 1000, 300],
      ['2024-06', 500, 150],
    ] as const)
      await applyInvoiceContribution(
        w.demoId,
        meterId,
        moorgateId,
        newId(),
        {
          month,
          utilityType: 'electricity',
          consumption,
          unit: 'kWh',
          cost: 100,
          emissionsKg,
          factorVersion: 'desnz-2024-v0',
        },
        1,
      );
    const failing = await restate('desnz-v2');
    const bodies = await w.drain('restatements');
    // Every delivery rewrites the months and dies on its first roll-up write; the third goes to the DLQ.
    const client = documentClient();
    const send = client.send.bind(client);
    const died = vi.spyOn(client, 'send').mockImplementation(((command: unknown, ...rest: unknown[]) => {
      if (command instanceof UpdateCommand && String(command.input.Key?.pk).includes('#rollup#'))
        return Promise.reject(new Error('worker died'));
      return (send as (c: unknown, ...r: unknown[]) => Promise<unknown>)(command, ...rest);
    }) as typeof client.send);
    try {
      for (const receiveCount of ['1', '2', '3']) {
        const event = sqsEvent(bodies, 'restatements');
        for (const r of event.Records) r.attributes.ApproximateReceiveCount = receiveCount;
        expect((await worker(event)).batchItemFailures).toHaveLength(1);
      }
    } finally {
      died.mockRestore();
    }
    expect(await get(`/analytics/factor-sets/restatements/${String(failing.body.jobId)}`)).toMatchObject({
      status: 'failed',
    });
    const months = await listAccountMonths(w.demoId, meterId, '2024-01', '2024-12');
    expect(months.map((m) => m.emissionsKg)).toEqual([207.05, 103.525]);
    const sum = (rows: { emissionsKg: number }[]) =>
      round3(rows.reduce((n, r) => n + Number(r.emissionsKg), 0));
    expect(sum(await listAssetRollups(w.demoId, moorgateId, '2024-01', '2024-12'))).toBe(450);

    // A later restatement to the same edition has no month left to rewrite, yet the roll-ups take the change.
    const later = await restate('desnz-v2');
    await work(await w.drain('restatements'));
    expect(await get(`/analytics/factor-sets/restatements/${String(later.body.jobId)}`)).toMatchObject({
      status: 'done',
      result: { months: 0 },
    });
    const expectSumOfMonths = async () => {
      expect(sum(await listAssetRollups(w.demoId, moorgateId, '2024-01', '2024-12'))).toBe(310.575);
      expect(sum(await listPortfolioRollups(w.demoId, groupId, '2024-01', '2024-12'))).toBe(310.575);
      const years = await listSiteYears(w.demoId, 2024, 2024);
      expect(
        years.find((y) => y.assetId === moorgateId && y.utilityType === 'electricity')?.emissionsKg,
      ).toBe(310.575);
      let everyMonth = 0;
      for (const account of await allAccounts(w.demoId))
        everyMonth += sum(await listAccountMonths(w.demoId, account._id, '2024-01', '2024-12'));
      expect(sum(await listCompanyRollups(w.demoId, '2024-01', '2024-12'))).toBe(round3(everyMonth));
      expect((await emissionsOf('2024', `&assetId=${moorgateId}`)).kg).toBe(310.575);
    };
    await expectSumOfMonths();
    // The failed job redriven from the DLQ afterwards adds nothing twice.
    await work(bodies);
    await expectSumOfMonths();
  });
});
