import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApi } from '../support/api-client.ts';
import { type ApiFixture, createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import type { TestRequest, TestResponse } from '../support/http-events.ts';

let fx: ApiFixture;
let api: (req: TestRequest) => Promise<TestResponse>;
let demoId: string;
let otherId: string;
let owner: string;
let outsider: string;
let entityId: string;

beforeAll(async () => {
  fx = await startApiFixture();
  api = await loadApi();
  demoId = await createCompany('Demo Estates Ltd', { isDemo: true });
  otherId = await createCompany('Northwind Property Co');
  await createUser({
    sub: 'owner',
    email: 'owner@demo.test',
    companyIds: [demoId],
    permissions: ['company_owner', 'company_admin'],
  });
  await createUser({
    sub: 'outsider',
    email: 'owner@northwind.test',
    companyIds: [otherId],
    permissions: ['company_owner', 'company_admin'],
  });
  owner = fx.issuer.accessToken('owner');
  outsider = fx.issuer.accessToken('outsider');
  const entity = await api({
    method: 'POST',
    path: '/entities',
    token: owner,
    body: { legalName: 'Demo Estates Group plc' },
  });
  entityId = String(entity.body._id);
});

afterAll(async () => fx?.stop());

describe('authentication', () => {
  it('answers 401 without a token, with a bad one, an expired one, or one signed by another key', async () => {
    expect((await api({ method: 'GET', path: '/users/me' })).status).toBe(401);
    expect((await api({ method: 'GET', path: '/users/me', token: 'not-a-jwt' })).status).toBe(401);
    const expired = fx.issuer.accessToken('owner', { claims: { exp: Math.floor(Date.now() / 1000) - 3600 } });
    expect((await api({ method: 'GET', path: '/users/me', token: expired })).status).toBe(401);
    expect(
      (await api({ method: 'GET', path: '/users/me', token: fx.issuer.foreignToken('owner') })).status,
    ).toBe(401);
  });

  it('refuses an ID token, a token for another audience and one issued to another client', async () => {
    const idToken = fx.issuer.accessToken('owner', { header: { typ: 'JWT' } });
    const otherAudience = fx.issuer.accessToken('owner', { claims: { aud: 'https://elsewhere/api' } });
    const otherClient = fx.issuer.accessToken('owner', { claims: { client_id: 'someone-else' } });
    for (const token of [idToken, otherAudience, otherClient]) {
      const res = await api({ method: 'GET', path: '/users/me', token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORISED');
    }
  });

  it('refuses a token naming another issuer, though signed with the right key', async () => {
    for (const iss of [
      `${fx.issuer.issuer}/other`,
      'https://cognito-idp.eu-west-2.amazonaws.com/x',
      undefined,
    ]) {
      const token = fx.issuer.accessToken('owner', { claims: { iss } });
      const res = await api({ method: 'GET', path: '/users/me', token });
      expect(res.status, String(iss)).toBe(401);
      expect(res.body.code).toBe('UNAUTHORISED');
    }
    expect((await api({ method: 'GET', path: '/users/me', token: owner })).status).toBe(200);
  });

  it('answers 401 "not verified" for a valid token of someone with no profile', async () => {
    const res = await api({ method: 'GET', path: '/users/me', token: fx.issuer.accessToken('stranger') });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Your account is not verified.');
  });
});

describe('session calls', () => {
  it('tells the user who they are, their company and their permissions', async () => {
    const me = await api({ method: 'GET', path: '/users/me', token: owner });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'owner@demo.test', companyId: demoId });
    expect(me.body.permissions).toEqual(
      expect.arrayContaining(['company_owner', 'company_admin', 'asset_user']),
    );
    const company = await api({ method: 'GET', path: '/users/me/company', token: owner });
    expect(company.body).toMatchObject({ _id: demoId, name: 'Demo Estates Ltd', settings: { isDemo: true } });
    const perms = await api({ method: 'GET', path: '/users/me/permissions', token: owner });
    expect(perms.body).toMatchObject({ entities: { read: [], write: [] }, assets: { read: [], write: [] } });
  });

  it('names a role once when both the token and the membership carry it', async () => {
    const role = await api({
      method: 'POST',
      path: '/roles',
      token: owner,
      body: { name: 'Analyst', permissions: ['company_log'] },
    });
    await createUser({
      sub: 'analyst',
      email: 'analyst@demo.test',
      companyIds: [demoId],
      roleId: String(role.body._id),
    });
    const token = fx.issuer.accessToken('analyst', { claims: { roles: ['Analyst'] } });
    const me = await api({ method: 'GET', path: '/users/me', token });
    expect(me.body.roles).toEqual(['Analyst']);
    expect(me.body.permissions).toContain('company_log');
  });

  it('ends a session with 204, after which its token is refused', async () => {
    const res = await api({ method: 'DELETE', path: '/sessions', token: owner });
    expect(res.status).toBe(204);
    expect((await api({ method: 'GET', path: '/users/me', token: owner })).status).toBe(401);
    // Signed in again: a token issued after the sign-out (tokens count whole seconds).
    owner = fx.issuer.accessToken('owner', { claims: { iat: Math.floor(Date.now() / 1000) + 1 } });
    expect((await api({ method: 'GET', path: '/users/me', token: owner })).status).toBe(200);
  });
});

describe('errors', () => {
  it('answers an unknown route with 404 ROUTE_NOT_FOUND and a correlation id', async () => {
    const res = await api({ method: 'GET', path: '/no-such-thing', token: owner });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ROUTE_NOT_FOUND');
    expect(res.headers['x-correlation-id']).toBeTruthy();
  });

  it('answers malformed JSON with 400 and a body over the limit with 413', async () => {
    const bad = await api({ method: 'POST', path: '/assets', token: owner, rawBody: '{"siteName": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('MALFORMED_JSON');
    const big = await api({
      method: 'POST',
      path: '/assets',
      token: owner,
      rawBody: JSON.stringify({ x: 'a'.repeat(1_100_000) }),
    });
    expect(big.status).toBe(413);
  });

  it('answers a failed validation with 400 and one formMessage per field', async () => {
    const res = await api({ method: 'POST', path: '/assets', token: owner, body: { floorArea: -5 } });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toMatchObject({
      siteName: 'This field is required',
      entityId: 'This field is required',
    });
    expect(Object.keys(res.body.formMessages as object)).toContain('floorArea');
  });

  it('answers an unknown id with 404 NOT_FOUND', async () => {
    const res = await api({ method: 'GET', path: '/assets/0123456789abcdef01234567', token: owner });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

describe('generic resources', () => {
  it('creates, lists with paging, gets, updates, soft-deletes and restores', async () => {
    const ids: string[] = [];
    for (const siteName of ['Alpha House', 'Beta Court', 'Gamma Works']) {
      const res = await api({
        method: 'POST',
        path: '/assets',
        token: owner,
        body: { siteName, entityId, floorArea: 1200 },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ siteName, companyId: demoId, status: 'active' });
      ids.push(String(res.body._id));
    }
    const page = await api({ method: 'GET', path: '/assets?limit=2&skip=1', token: owner });
    expect(page.body).toMatchObject({ total: 3, limit: 2, skip: 1 });
    expect((page.body.data as { siteName: string }[]).map((a) => a.siteName)).toEqual([
      'Beta Court',
      'Gamma Works',
    ]);

    const patched = await api({
      method: 'PATCH',
      path: `/assets/${ids[0]}`,
      token: owner,
      body: { floorArea: 1500 },
    });
    expect(patched.body).toMatchObject({ siteName: 'Alpha House', floorArea: 1500 });

    expect((await api({ method: 'DELETE', path: `/assets/${ids[1]}`, token: owner })).body.deleted).toBe(
      true,
    );
    expect((await api({ method: 'GET', path: '/assets', token: owner })).body.total).toBe(2);
    expect((await api({ method: 'GET', path: '/assets?$deleted=true', token: owner })).body.total).toBe(3);
    const restored = await api({ method: 'PUT', path: `/assets/${ids[1]}`, token: owner });
    expect(restored.body.deleted).toBeUndefined();
    expect((await api({ method: 'GET', path: '/assets', token: owner })).body.total).toBe(3);
  });

  it('filters lists by field, through the index when the field is indexed', async () => {
    const other = await api({
      method: 'POST',
      path: '/entities',
      token: owner,
      body: { legalName: 'Demo Estates Retail Ltd' },
    });
    await api({
      method: 'POST',
      path: '/assets',
      token: owner,
      body: { siteName: 'Retail Park', entityId: other.body._id },
    });
    const res = await api({ method: 'GET', path: `/assets?entityId=${other.body._id}`, token: owner });
    expect(res.body.total).toBe(1);
    expect((res.body.data as { siteName: string }[])[0]?.siteName).toBe('Retail Park');
  });

  it('searches by text and describes itself with a JSON schema', async () => {
    const found = await api({ method: 'GET', path: '/assets/search?query=retail', token: owner });
    expect((found.body.data as { siteName: string }[]).map((a) => a.siteName)).toEqual(['Retail Park']);
    const schema = await api({ method: 'GET', path: '/assets/schema', token: owner });
    expect(schema.body).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['siteName', 'entityId']),
    });
  });

  it('creates in bulk all or nothing', async () => {
    const before = (await api({ method: 'GET', path: '/entities', token: owner })).body.total as number;
    const bad = await api({
      method: 'POST',
      path: '/entities/bulk',
      token: owner,
      body: [{ legalName: 'One Ltd' }, { legalName: '' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toHaveProperty('1.legalName');
    expect((await api({ method: 'GET', path: '/entities', token: owner })).body.total).toBe(before);
    const good = await api({
      method: 'POST',
      path: '/entities/bulk',
      token: owner,
      body: [{ legalName: 'One Ltd' }],
    });
    expect(good.status).toBe(201);
    expect((await api({ method: 'GET', path: '/entities', token: owner })).body.total).toBe(before + 1);
  });

  it('never shows one company the items of another', async () => {
    const mine = await api({
      method: 'POST',
      path: '/assets',
      token: owner,
      body: { siteName: 'Private Tower', entityId },
    });
    const theirs = await api({ method: 'GET', path: `/assets/${mine.body._id}`, token: outsider });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('NOT_FOUND');
    expect(
      (
        await api({
          method: 'PATCH',
          path: `/assets/${mine.body._id}`,
          token: outsider,
          body: { siteName: 'x' },
        })
      ).status,
    ).toBe(404);
    expect((await api({ method: 'GET', path: '/assets', token: outsider })).body.total).toBe(0);
  });

  it('serves sub-resources of an item', async () => {
    const asset = await api({
      method: 'POST',
      path: '/assets',
      token: owner,
      body: { siteName: 'Event House', entityId },
    });
    const base = `/assets/${asset.body._id}/timeline-events`;
    const created = await api({
      method: 'POST',
      path: base,
      token: owner,
      body: { title: 'LED retrofit', date: '2025-03-01' },
    });
    expect(created.status).toBe(201);
    const list = await api({ method: 'GET', path: base, token: owner });
    expect(list.body).toMatchObject({ total: 1, data: [{ title: 'LED retrofit' }] });
    const bad = await api({
      method: 'POST',
      path: base,
      token: owner,
      body: { title: 'x', date: '01/03/2025' },
    });
    expect(bad.body.formMessages).toMatchObject({ date: 'Must be a date as YYYY-MM-DD' });
  });
});

describe('per-item access', () => {
  it('lets a user with a grant on one asset see only that asset, and write only with a write grant', async () => {
    const a = await api({
      method: 'POST',
      path: '/assets',
      token: owner,
      body: { siteName: 'Granted Hall', entityId },
    });
    const b = await api({
      method: 'POST',
      path: '/assets',
      token: owner,
      body: { siteName: 'Hidden Hall', entityId },
    });
    await createUser({
      sub: 'reader',
      email: 'asset@demo.test',
      companyIds: [demoId],
      grants: {
        entities: { read: [], write: [] },
        assets: { read: [String(a.body._id)], write: [] },
        accounts: { read: [], write: [] },
      },
    });
    const reader = fx.issuer.accessToken('reader');
    const list = await api({ method: 'GET', path: '/assets', token: reader });
    expect(list.body).toMatchObject({ total: 1, data: [{ siteName: 'Granted Hall' }] });
    expect((await api({ method: 'GET', path: `/assets/${b.body._id}`, token: reader })).status).toBe(404);
    expect(
      (await api({ method: 'PATCH', path: `/assets/${a.body._id}`, token: reader, body: { floorArea: 1 } }))
        .status,
    ).toBe(403);
    expect((await api({ method: 'GET', path: '/roles', token: reader })).status).toBe(403);
  });
});

describe('notifications and company switch', () => {
  it('counts unseen notifications and marks them seen', async () => {
    for (const content of ['Invoice captured', 'Report ready']) {
      await api({
        method: 'POST',
        path: '/notifications',
        token: owner,
        body: { userSub: 'owner', content, route: '/' },
      });
    }
    const before = await api({ method: 'GET', path: '/users/me/notifications', token: owner });
    expect(before.body).toMatchObject({ total: 2, unseenCount: 2 });
    const first = (before.body.data as { _id: string }[])[0];
    await api({
      method: 'POST',
      path: '/users/me/seen-notification',
      token: owner,
      body: { id: first?._id },
    });
    expect(
      (await api({ method: 'GET', path: '/users/me/notifications', token: owner })).body.unseenCount,
    ).toBe(1);
    await api({ method: 'POST', path: '/users/me/seen-notification', token: owner, body: { all: true } });
    expect(
      (await api({ method: 'GET', path: '/users/me/notifications', token: owner })).body.unseenCount,
    ).toBe(0);
  });

  it('lists the latest unseen notifications alone, however many seen ones are newer', async () => {
    const made: string[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await api({
        method: 'POST',
        path: '/notifications',
        token: owner,
        body: { userSub: 'owner', content: `Unseen filter ${i}`, route: '/' },
      });
      made.push((res.body as { _id: string })._id);
    }
    // The three newest are seen: a bell that filtered the first page would show fewer or older ones.
    await api({
      method: 'POST',
      path: '/users/me/seen-notification',
      token: owner,
      body: { ids: made.slice(6) },
    });
    const res = await api({
      method: 'GET',
      path: '/users/me/notifications?isSeen=false&limit=5',
      token: owner,
    });
    expect(res.status).toBe(200);
    const body = res.body as {
      data: { content: string; isSeen: boolean }[];
      total: number;
      unseenCount: number;
    };
    expect(body.data.map((n) => n.content)).toEqual([5, 4, 3, 2, 1].map((i) => `Unseen filter ${i}`));
    expect(body).toMatchObject({ total: 6, unseenCount: 6, limit: 5 });
    const seen = await api({ method: 'GET', path: '/users/me/notifications?isSeen=true', token: owner });
    const seenList = (seen.body as { data: { content: string; isSeen: boolean }[] }).data;
    expect(seenList.map((n) => n.content)).toEqual(
      expect.arrayContaining([8, 7, 6].map((i) => `Unseen filter ${i}`)),
    );
    expect(seenList.filter((n) => !n.isSeen)).toEqual([]);
    const bad = await api({ method: 'GET', path: '/users/me/notifications?isSeen=maybe', token: owner });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ formMessages: { isSeen: 'Must be true or false' } });
  });

  it('switches a member of two companies to the other one, and refuses a company they are not in', async () => {
    await createUser({
      sub: 'multi',
      email: 'multi@demo.test',
      companyIds: [demoId, otherId],
      permissions: ['company_user'],
    });
    const token = fx.issuer.accessToken('multi');
    const companies = await api({ method: 'GET', path: '/users/me/companies', token });
    expect(companies.body.total).toBe(2);
    const switched = await api({
      method: 'PUT',
      path: '/users/multi/company-id',
      token,
      body: { companyId: otherId },
    });
    expect(switched.status).toBe(200);
    expect((await api({ method: 'GET', path: '/users/me/company', token })).body.name).toBe(
      'Northwind Property Co',
    );
    const refused = await api({
      method: 'PUT',
      path: '/users/owner/company-id',
      token: owner,
      body: { companyId: otherId },
    });
    expect(refused.status).toBe(404);
    const missing = await api({ method: 'PUT', path: '/users/owner/company-id', token: owner, body: {} });
    expect(missing.body.formMessages).toMatchObject({ companyId: 'This field is required' });
  });
});
