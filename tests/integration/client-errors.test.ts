import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadApi } from '../support/api-client.ts';
import { type ApiFixture, createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import type { TestRequest, TestResponse } from '../support/http-events.ts';

let fx: ApiFixture;
let api: (req: TestRequest) => Promise<TestResponse>;
let owner: string;
let member: string;
let companyId: string;

beforeAll(async () => {
  fx = await startApiFixture();
  api = await loadApi();
  companyId = await createCompany('Demo Estates Ltd');
  await createUser({
    sub: 'owner',
    email: 'owner@demo.test',
    companyIds: [companyId],
    permissions: ['company_owner', 'company_admin'],
  });
  await createUser({
    sub: 'member',
    email: 'user@demo.test',
    companyIds: [companyId],
    permissions: ['company_user'],
  });
  owner = fx.issuer.accessToken('owner');
  member = fx.issuer.accessToken('member');
});

afterAll(async () => fx?.stop());

const report = (token: string, body: unknown) => api({ method: 'POST', path: '/client-errors', token, body });

describe('client error reports', () => {
  it('are kept in the company log as client errors, with who met them and where', async () => {
    const res = await report(member, {
      kind: 'render',
      message: 'TypeError: x is undefined',
      stack: 'at Page (chunk-1.js:1:2)',
      url: 'http://localhost:3000/assets',
      release: '1.95.1',
    });
    expect(res.status).toBe(202);
    const logs = await api({ method: 'GET', path: '/logs?type=client-error', token: owner });
    expect(logs.status).toBe(200);
    const entries = logs.body.data as Record<string, unknown>[];
    expect(entries.find((e) => e._id === res.body._id)).toMatchObject({
      type: 'client-error',
      kind: 'render',
      message: 'TypeError: x is undefined',
      url: 'http://localhost:3000/assets',
      release: '1.95.1',
      userSub: 'member',
    });
  });

  it('need a message, and refuse oversized ones', async () => {
    const missing = await report(member, { url: 'http://localhost:3000/' });
    expect(missing.status).toBe(400);
    expect(missing.body.formMessages).toMatchObject({ message: 'This field is required' });
    expect((await report(member, { message: 'x'.repeat(2001) })).status).toBe(400);
  });

  it('need a signed-in user', async () => {
    expect((await api({ method: 'POST', path: '/client-errors', body: { message: 'boom' } })).status).toBe(
      401,
    );
  });

  it('are limited to 30 a minute per user', async () => {
    // Well inside one minute, so the count cannot start again half way.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 60_000 + 5_000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await report(owner, { message: `Error ${i}` })).status);
      expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
      const refused = await report(owner, { message: 'One too many' });
      expect(statuses[30]).toBe(429);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['Retry-After'] ?? refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another user has a count of their own.
      expect((await report(member, { message: 'Mine' })).status).toBe(202);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('changing one’s own details', () => {
  const patch = (body: unknown) => api({ method: 'PATCH', path: '/users/me', token: member, body });

  it('renames the user and remembers their language', async () => {
    const res = await patch({ name: '  Uma User  ', language: 'fr' });
    expect(res.status).toBe(200);
    const me = await api({ method: 'GET', path: '/users/me', token: member });
    expect(me.body).toMatchObject({ name: 'Uma User', settings: { language: 'fr' } });
    // The company's user list shows the new name too.
    const members = await api({ method: 'GET', path: `/companies/${companyId}/users`, token: owner });
    expect(members.status).toBe(200);
    const record = (members.body.data as Record<string, unknown>[] | undefined)?.find(
      (u) => u._id === 'member',
    );
    expect(record).toMatchObject({ name: 'Uma User' });
  });

  it('goes back to the browser language when told so', async () => {
    expect((await patch({ language: null })).status).toBe(200);
    const me = await api({ method: 'GET', path: '/users/me', token: member });
    expect(me.body.settings).not.toHaveProperty('language');
  });

  it('refuses an empty name, an unknown language, unknown fields and an empty change', async () => {
    const empty = await patch({ name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.formMessages).toMatchObject({ name: 'This field is required' });
    expect((await patch({ language: 'de' })).status).toBe(400);
    expect((await patch({ name: 'X', isAdmin: true })).status).toBe(400);
    expect((await patch({})).status).toBe(400);
    const me = await api({ method: 'GET', path: '/users/me', token: member });
    expect(me.body.isAdmin).toBe(false);
  });

  it('changes only the caller: an administrator edits others elsewhere', async () => {
    await patch({ name: 'Uma Again' });
    const ownerMe = await api({ method: 'GET', path: '/users/me', token: owner });
    expect(ownerMe.body.name).not.toBe('Uma Again');
  });
});
