import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApi } from '../support/api-client.ts';
import { type ApiFixture, createCompany, createOwner, startApiFixture } from '../support/api-fixture.ts';
import type { TestRequest, TestResponse } from '../support/http-events.ts';

/**
 * The generic lists read their query through the schema their routes declare: a value they cannot use
 * answers 400 with the message beside the field it belongs to, as a form shows it, and the values they
 * can use still shape the page.
 */

let fx: ApiFixture;
let api: (req: TestRequest) => Promise<TestResponse>;
let owner: string;
let assetId: string;

const WHOLE = 'Must be a whole number of 0 or more';

beforeAll(async () => {
  fx = await startApiFixture();
  api = await loadApi();
  const companyId = await createCompany('Typed Queries Ltd');
  await createOwner('owner', 'owner@typed-queries.test', companyId);
  owner = fx.issuer.accessToken('owner');
  const entityIds: string[] = [];
  for (const legalName of ['First Holdings Ltd', 'Second Holdings Ltd', 'Third Holdings Ltd']) {
    const entity = await api({ method: 'POST', path: '/entities', token: owner, body: { legalName } });
    expect(entity.status).toBe(201);
    entityIds.push(String(entity.body._id));
  }
  const asset = await api({
    method: 'POST',
    path: '/assets',
    token: owner,
    body: { siteName: 'Quay House', entityId: entityIds[0] },
  });
  expect(asset.status).toBe(201);
  assetId = String(asset.body._id);
});

afterAll(async () => fx?.stop());

const get = (path: string) => api({ method: 'GET', path, token: owner });

describe('a generic list, search and sub-list', () => {
  it('answer a page size or offset that is not a whole number with 400 beside that field', async () => {
    const cases: [string, string][] = [
      ['/entities?limit=ten', 'limit'],
      ['/entities?$skip=1.5', '$skip'],
      ['/projects/search?query=quay&skip=-1', 'skip'],
      [`/assets/${assetId}/status-history?skip=-2`, 'skip'],
      [`/assets/${assetId}/status-history?limit=all`, 'limit'],
    ];
    for (const [path, field] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.formMessages, path).toEqual({ [field]: WHOLE });
      expect(res.body.message, path).toBe(`Invalid query parameter (${field}: ${WHOLE})`);
    }
  });

  it('answer an order they do not offer with 400 beside $sort', async () => {
    const res = await get('/entities?$sort=legalName');
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      $sort: 'Must be createdAt (oldest first) or -createdAt (newest first)',
    });
  });

  it('still page and order by the values they can use', async () => {
    const page = await get('/entities?limit=2&skip=1&$sort=-createdAt');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, limit: 2, skip: 1 });
    expect((page.body.data as { legalName: string }[]).map((e) => e.legalName)).toEqual([
      'Second Holdings Ltd',
      'First Holdings Ltd',
    ]);
    const history = await get(`/assets/${assetId}/status-history?limit=5&skip=0`);
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ limit: 5, skip: 0 });
  });
});
