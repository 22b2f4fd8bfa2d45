import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadApi } from '../support/api-client.ts';
import { type ApiFixture, createCompany, createOwner, startApiFixture } from '../support/api-fixture.ts';
import type { TestRequest, TestResponse } from '../support/http-events.ts';

/**
 * The report calls that take their request in the URL read it through the query schema their routes
 * declare: a value a report cannot be made of answers 400 with the request's own message beside its
 * name, as the report form shows it, and a good query is queued as the report it describes, of the path's
 * template and scope.
 */

const queued = vi.hoisted(() => [] as { queue: string; bodies: readonly unknown[] }[]);
vi.mock('../../functions/core/adapters/queue.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../functions/core/adapters/queue.ts')>()),
  sendToQueue: async (queue: string, bodies: readonly unknown[]) => {
    queued.push({ queue, bodies });
  },
}));

let fx: ApiFixture;
let api: (req: TestRequest) => Promise<TestResponse>;
let owner: string;
let assetId: string;
let groupId: string;

beforeAll(async () => {
  fx = await startApiFixture();
  api = await loadApi();
  const companyId = await createCompany('Report Queries Ltd');
  await createOwner('owner', 'owner@report-queries.test', companyId);
  owner = fx.issuer.accessToken('owner');
  const entity = await api({
    method: 'POST',
    path: '/entities',
    token: owner,
    body: { legalName: 'Quay Holdings Ltd' },
  });
  expect(entity.status).toBe(201);
  const asset = await api({
    method: 'POST',
    path: '/assets',
    token: owner,
    body: { siteName: 'Quay House', entityId: entity.body._id },
  });
  expect(asset.status).toBe(201);
  assetId = String(asset.body._id);
  const group = await api({
    method: 'POST',
    path: '/asset-groups',
    token: owner,
    body: { name: 'Quay portfolio', assetIds: [assetId] },
  });
  expect(group.status).toBe(201);
  groupId = String(group.body._id);
});
beforeEach(() => {
  queued.length = 0;
});
afterAll(async () => fx?.stop());

const get = (path: string) => api({ method: 'GET', path, token: owner });
const YEAR = 'startDate=2025-01-01&endDate=2025-12-31';

describe('a report asked for in the URL', () => {
  it('answers a value no report can be made of with 400 beside its name, on each of the three calls', async () => {
    const cases: [string, string, string][] = [
      [
        '/reports/generate/secr?startDate=2025-1-1&endDate=2025-12-31',
        'startDate',
        'Must be a date as YYYY-MM-DD',
      ],
      [
        `/reports/generate/secr?${YEAR}&scopeType=region`,
        'scopeType',
        'Must be one of company, portfolio, asset',
      ],
      [`/reports/asset/${assetId}/site?${YEAR}&format=docx`, 'format', 'Must be one of pdf, xlsx, csv'],
      [
        `/reports/portfolio/${groupId}/secr?${YEAR}&intensityMetric=employees&intensityValue=lots`,
        'intensityValue',
        'Must be a number',
      ],
      [
        `/reports/portfolio/${groupId}/secr?${YEAR}&intensityPreviousValue=0`,
        'intensityPreviousValue',
        'Must be more than 0',
      ],
    ];
    for (const [path, field, message] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.formMessages, path).toEqual({ [field]: message });
      expect(res.body.message, path).toBe(`Invalid query parameter (${field}: ${message})`);
    }
    // A missing date is the request's to refuse, once the path's report is found (a report no one can
    // name answers 404 whatever the query): the same field message, under the request's own wording.
    const missing = await get('/reports/generate/secr?startDate=2025-01-01');
    expect(missing.status).toBe(400);
    expect(missing.body.formMessages).toEqual({ endDate: 'This field is required' });
    expect((await get('/reports/generate/no-such-report?startDate=2025-01-01')).status).toBe(404);
    expect(queued).toEqual([]);
  });

  it("keeps the request's rules across values, the path's template and the path's scope", async () => {
    const backwards = await get('/reports/generate/secr?startDate=2025-12-31&endDate=2025-01-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.formMessages).toEqual({
      endDate: 'The end date must be on or after the start date',
    });
    const wrongScope = await get(`/reports/asset/${assetId}/secr?${YEAR}`);
    expect(wrongScope.status).toBe(400);
    expect(wrongScope.body.formMessages).toEqual({
      scopeType: 'The SECR report covers company or portfolio',
    });
    const noRatio = await get(`/reports/generate/secr?${YEAR}&intensityMetric=employees`);
    expect(noRatio.status).toBe(400);
    expect(noRatio.body.formMessages).toEqual({ intensityValue: 'Give the figure to divide by' });
    expect((await get(`/reports/generate/annual?${YEAR}`)).status).toBe(404);
    expect(queued).toEqual([]);
  });

  it('queues the report the query describes, with its figures as numbers and the scope of the path', async () => {
    const site = await get(
      `/reports/asset/${assetId}/site?${YEAR}&format=csv&name=%20Quay%20year%20&scopeType=company`,
    );
    expect(site.status).toBe(202);
    expect(site.body).toMatchObject({
      type: 'site',
      status: 'queued',
      scopeType: 'asset',
      scopeId: assetId,
      assetIds: [assetId],
      format: 'csv',
      name: 'Quay year',
      startDate: '2025-01-01',
      endDate: '2025-12-31',
    });

    const secr = await get(
      `/reports/generate/secr?${YEAR}&intensityMetric=employees&intensityValue=250&intensityPreviousValue=240.5`,
    );
    expect(secr.status).toBe(202);
    expect(secr.body).toMatchObject({
      type: 'secr',
      scopeType: 'company',
      format: 'pdf',
      intensityMetric: 'employees',
      intensityValue: 250,
      intensityPreviousValue: 240.5,
      name: 'SECR 2025-01-01 to 2025-12-31',
    });

    const portfolio = await get(`/reports/portfolio/${groupId}/portfolio-summary?${YEAR}&format=xlsx`);
    expect(portfolio.status).toBe(202);
    expect(portfolio.body).toMatchObject({ scopeType: 'portfolio', scopeId: groupId, assetIds: [assetId] });

    expect(queued.map((q) => q.queue)).toEqual(['reports', 'reports', 'reports']);
    expect(queued.map((q) => q.bodies[0])).toEqual(
      [site, secr, portfolio].map((r) => expect.objectContaining({ reportId: r.body._id, generation: 1 })),
    );
  });
});
