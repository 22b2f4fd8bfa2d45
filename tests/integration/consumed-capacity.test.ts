import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { putNewItems } from '../../functions/core/imports/import-batch-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { resourceRef } from '../../functions/core/resources/resource-refs.ts';
import { loadApi } from '../support/api-client.ts';
import { type ApiFixture, createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import type { TestRequest, TestResponse } from '../support/http-events.ts';

// Read once when the adapters load, so it is set before any import.
vi.hoisted(() => {
  process.env.VOLTFOLIO_CONSUMED_CAPACITY = '1';
});

let fx: ApiFixture;
let api: (req: TestRequest) => Promise<TestResponse>;

async function companyWithSites(name: string, sites: number): Promise<string> {
  const companyId = await createCompany(name);
  const sub = `owner-${companyId}`;
  await createUser({
    sub,
    email: `${sub}@bench.test`,
    companyIds: [companyId],
    permissions: ['company_owner', 'company_admin'],
  });
  const createdAt = new Date().toISOString();
  await putNewItems(
    Array.from({ length: sites }, (_, i) => ({
      ref: resourceRef(companyId, 'assets'),
      item: {
        _id: newId(),
        companyId,
        createdAt,
        createdBy: sub,
        siteName: `Site ${i + 1} ${'x'.repeat(2000)}`,
        status: 'active',
      },
    })),
  );
  return sub;
}

beforeAll(async () => {
  fx = await startApiFixture();
  api = await loadApi();
});

afterAll(async () => fx?.stop());

describe('consumed read capacity, when switched on for benchmarks', () => {
  it('is reported per request, and grows with what the request read', async () => {
    const few = fx.issuer.accessToken(await companyWithSites('Few Sites Ltd', 2));
    const many = fx.issuer.accessToken(await companyWithSites('Many Sites Ltd', 40));
    const small = await api({ method: 'GET', path: '/assets?limit=20', token: few });
    const large = await api({ method: 'GET', path: '/assets?limit=20', token: many });
    expect(small.status).toBe(200);
    expect(large.status).toBe(200);
    const smallRcu = Number(small.headers['x-consumed-rcu']);
    const largeRcu = Number(large.headers['x-consumed-rcu']);
    expect(smallRcu).toBeGreaterThan(0);
    // 40 sites of 2 KB are about 20 read units (eventually consistent) more than 2 of them.
    expect(largeRcu - smallRcu).toBeGreaterThan(5);
  });
});
