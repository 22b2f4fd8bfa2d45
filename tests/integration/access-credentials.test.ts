import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessFixture, type DemoWorld, seedDemoWorld, startAccessFixture } from './access-support.ts';

let fx: AccessFixture;
let world: DemoWorld;
let raw: typeof import('../../functions/core/data/item-repository.ts');

beforeAll(async () => {
  fx = await startAccessFixture();
  world = await seedDemoWorld(fx);
  raw = await import('../../functions/core/data/item-repository.ts');
});
afterAll(async () => fx?.stop());

const call = (
  method: string,
  path: string,
  opts: { token?: string; headers?: Record<string, string>; body?: unknown } = {},
) => fx.api({ method, path, ...opts });

async function issueKey(email: string): Promise<string> {
  const res = await call('POST', '/users/me/api-key', { token: world.user(email).token });
  expect(res.status).toBe(201);
  return String(res.body.key);
}

describe('API keys', () => {
  it('sets up API access with the default plan, and only staff may change the limits', async () => {
    const user = world.user('user@demo.test');
    const setup = await call('POST', '/users/me/api-setup', { token: user.token });
    expect(setup.status).toBe(201);
    expect(setup.body).toMatchObject({
      enabled: true,
      plan: { callsPerPeriod: 10_000, periodDays: 30, ratePerSecond: 5 },
      callsThisPeriod: 0,
      key: null,
    });
    expect((await call('POST', '/users/me/api-setup', { token: user.token })).status).toBe(200);
    const raise = await call('POST', '/users/me/api-setup', {
      token: user.token,
      body: { callsPerPeriod: 1_000_000 },
    });
    expect(raise.status).toBe(403);
  });

  it('shows a new key once, stores only its digest, and acts as its user with either header', async () => {
    const key = await issueKey('asset@demo.test');
    expect(key).toMatch(/^vfk\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
    const prefix = key.split('.')[1] as string;
    const stored = await raw.getRaw(`APIKEY#${prefix}`, 'credential');
    expect(JSON.stringify(stored)).not.toContain(key.split('.')[2]);
    expect(stored?.digest).toMatch(/^[0-9a-f]{64}$/);

    const me = await call('GET', '/users/me', { headers: { authorization: `ApiKey ${key}` } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'asset@demo.test', apiKey: { prefix: `vfk.${prefix}` } });
    expect(JSON.stringify(me.body)).not.toContain(key);

    // The key reaches exactly what its user may: two granted assets, and nothing company-wide.
    const assets = await call('GET', '/assets', { headers: { 'x-api-key': key } });
    expect(assets.status).toBe(200);
    expect((assets.body.data as { siteName: string }[]).map((a) => a.siteName).sort()).toEqual([
      'Colmore Gate',
      'Hardman Court',
    ]);
    expect((await call('GET', '/roles', { headers: { 'x-api-key': key } })).status).toBe(403);
  });

  it('revokes the old key when a new one is issued', async () => {
    const first = await issueKey('user@demo.test');
    const second = await issueKey('user@demo.test');
    expect((await call('GET', '/users/me', { headers: { 'x-api-key': first } })).status).toBe(401);
    expect((await call('GET', '/users/me', { headers: { 'x-api-key': second } })).status).toBe(200);
  });

  it('refuses a wrong secret, a malformed key and a key of nobody with 401', async () => {
    const key = await issueKey('account@demo.test');
    const wrong = `${key.slice(0, -4)}AAAA`;
    for (const k of [wrong, 'not-a-key', 'vfk.unknownprefix.secretsecret']) {
      const res = await call('GET', '/users/me', { headers: { 'x-api-key': k } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORISED');
    }
  });

  it('gives an API-only user their API, but never lets a key manage credentials', async () => {
    const key = await issueKey('api@demo.test');
    expect((await call('GET', '/users/me/permissions', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await call('GET', '/assets', { headers: { 'x-api-key': key } })).status).toBe(403);
    for (const [method, path] of [
      ['POST', '/users/me/api-key'],
      ['POST', '/users/me/api-setup'],
      ['POST', '/users/me/mfa/totp'],
    ] as const) {
      expect((await call(method, path, { headers: { 'x-api-key': key } })).status).toBe(403);
    }
    // In the app, with a session, the API-only user reaches the profile calls only.
    const token = world.user('api@demo.test').token;
    expect((await call('GET', '/users/me', { token })).status).toBe(200);
    expect((await call('GET', '/notifications/search?query=abc', { token })).status).toBe(403);
  });

  it("keeps an API-only user's session to the profile, while their key reaches what they hold", async () => {
    const api = world.user('api@demo.test');
    const token = api.token;
    // The application's '*' calls are not the profile's: the session is refused them (01 §6).
    for (const [method, path] of [
      ['GET', '/suppliers'],
      ['GET', '/countries'],
      ['GET', '/notifications'],
      ['GET', '/users/me/notifications'],
      ['GET', '/util/units'],
      ['GET', '/users/me/companies'],
      ['PUT', `/users/${api.sub}/company-id`],
    ] as const) {
      const res = await call(method, path, { token, body: method === 'PUT' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    for (const path of ['/users/me/api-usage', '/users/me/mfa', '/users/me/company'])
      expect((await call('GET', path, { token })).status, path).toBe(200);

    // Their key is how they are meant to use the product: it acts on every permission they hold.
    const key = await issueKey('api@demo.test');
    const withKey = async (path: string) => {
      let res = await call('GET', path, { headers: { 'x-api-key': key } });
      // Five calls a second: wait out the limit rather than count it as a refusal.
      while (res.status === 429) {
        await new Promise((r) => setTimeout(r, 1000));
        res = await call('GET', path, { headers: { 'x-api-key': key } });
      }
      return res;
    };
    for (const path of ['/suppliers', '/countries', '/util/units', '/users/me/companies'])
      expect((await withKey(path)).status, path).toBe(200);
    expect((await withKey('/assets')).status).toBe(403);

    const owner = world.user('owner@demo.test');
    const membership = `/companies/${world.demo.companyId}/users/${api.sub}`;
    const grant = async (permissions: string[]) =>
      expect((await call('PATCH', membership, { token: owner.token, body: { permissions } })).status).toBe(
        200,
      );
    await grant(['api_access_only', 'company_user']);
    try {
      const assets = await withKey('/assets');
      expect(assets.status).toBe(200);
      expect((assets.body.data as unknown[]).length).toBe(world.demo.assets.size);
      expect((await call('GET', '/assets', { token })).status).toBe(403);
    } finally {
      await grant(['api_access_only']);
    }
  });

  it('limits calls per second with 429 and Retry-After, counted in the table', async () => {
    const key = await issueKey('owner@demo.test');
    const results = await Promise.all(
      Array.from({ length: 12 }, () => call('GET', '/users/me/api-usage', { headers: { 'x-api-key': key } })),
    );
    const limited = results.filter((r) => r.status === 429);
    // Five a second: of twelve calls at once at least seven are refused (more if they straddle a second).
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(10);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0]?.body.code).toBe('TOO_MANY_REQUESTS');
    expect(limited[0]?.headers['Retry-After']).toBe('1');
  });

  it('limits calls per period and says when the period resets', async () => {
    const admin = world.user('admin@voltfolio.test');
    // Staff set their own plan to three calls a day.
    const setup = await call('POST', '/users/me/api-setup', {
      token: admin.token,
      body: { callsPerPeriod: 3, periodDays: 1, ratePerSecond: 100 },
    });
    expect(setup.body.plan).toEqual({ callsPerPeriod: 3, periodDays: 1, ratePerSecond: 100 });
    const key = await issueKey('admin@voltfolio.test');
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await call('GET', '/users/me', { headers: { 'x-api-key': key } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const retry = Number(last?.headers['Retry-After']);
    expect(retry).toBeGreaterThan(86_000);
    expect(retry).toBeLessThanOrEqual(86_400);
    const usage = await call('GET', '/users/me/api-usage', { token: admin.token });
    expect(usage.body).toMatchObject({ callsThisPeriod: 3, remaining: 0, limits: { callsPerPeriod: 3 } });
    expect(Date.parse(String(usage.body.resetsAt)) - Date.now()).toBeGreaterThan(86_000_000);
  });

  it('stops a key when its user leaves the company', async () => {
    const key = await issueKey('multi@demo.test');
    expect((await call('GET', '/users/me', { headers: { 'x-api-key': key } })).status).toBe(200);
    const multi = world.user('multi@demo.test');
    const owner = world.user('owner@demo.test');
    const removed = await call('DELETE', `/companies/${world.demo.companyId}/users/${multi.sub}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect((await call('GET', '/users/me', { headers: { 'x-api-key': key } })).status).toBe(401);
    // Still a member of Northwind, so their session now lands there.
    const company = await call('GET', '/users/me/company', { token: multi.token });
    expect(company.body.name).toBe('Northwind Property Co');
  });
});

describe('kiosks', () => {
  let kiosk: { _id: string; kioskKey: string; kioskAuth: string; secret: string };
  const owner = () => world.user('owner@demo.test');

  it('creates a kiosk with a secret shown once, and stores only its digest', async () => {
    const assetId = world.demo.assets.get('Hardman Court') as string;
    const res = await call('POST', '/kiosks', {
      token: owner().token,
      body: { name: 'Lobby screen', assetId, slides: ['consumption'] },
    });
    expect(res.status).toBe(201);
    kiosk = res.body as typeof kiosk;
    expect(kiosk.kioskKey).toBe(`${kiosk._id}:${kiosk.secret}`);
    expect(kiosk.kioskAuth).toBe(`${kiosk._id}|${kiosk.secret}`);
    const listed = await call('GET', `/kiosks/${kiosk._id}`, { token: owner().token });
    expect(JSON.stringify(listed.body)).not.toContain(kiosk.secret);
    const stored = await raw.getRaw(`KIOSK#${kiosk._id}`, 'credential');
    expect(JSON.stringify(stored)).not.toContain(kiosk.secret);
  });

  it('serves the kiosk its own building with its key, and its latest consumption', async () => {
    const { putRollups } = await import('../../functions/accounts/consumption-repository.ts');
    const assetId = world.demo.assets.get('Hardman Court') as string;
    await putRollups(world.demo.companyId, [
      {
        assetId,
        month: '2025-09',
        utilityType: 'electricity',
        consumption: 1000,
        unit: 'kWh',
        cost: 300,
        emissionsKg: 200,
      },
      {
        assetId,
        month: '2026-09',
        utilityType: 'electricity',
        consumption: 900,
        unit: 'kWh',
        cost: 280,
        emissionsKg: 170,
      },
      {
        assetId,
        month: '2026-09',
        utilityType: 'gas',
        consumption: 400,
        unit: 'kWh',
        cost: 40,
        emissionsKg: 73,
      },
    ]);
    const headers = { 'x-kiosk-key': kiosk.kioskKey };
    const live = await call('GET', '/kiosks/live', { headers });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({
      preview: false,
      kiosk: { name: 'Lobby screen' },
      asset: { siteName: 'Hardman Court' },
    });
    const consumption = await call('GET', '/kiosks/live/consumption', { headers });
    expect(consumption.body).toMatchObject({ month: '2026-09', sameMonthLastYear: { month: '2025-09' } });
    expect((consumption.body.data as { utilityType: string }[]).map((d) => d.utilityType).sort()).toEqual([
      'electricity',
      'gas',
    ]);
    expect(JSON.stringify(consumption.body)).not.toContain('cost');
    const preview = await call('GET', '/kiosks/live?preview=true', { headers });
    expect(preview.body.preview).toBe(true);
  });

  it('answers a missing, malformed or wrong kiosk key with 401 INVALID_AUTH', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'x-kiosk-key': 'no-separator' },
      { 'x-kiosk-key': `${kiosk._id}:` },
      { 'x-kiosk-key': `${kiosk._id}:wrong-secret` },
    ];
    for (const headers of cases) {
      const res = await call('GET', '/kiosks/live', { headers });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('INVALID_AUTH');
    }
    const withToken = await call('GET', '/kiosks/live', { token: owner().token });
    expect(withToken.status).toBe(401);
    expect(withToken.body.code).toBe('INVALID_AUTH');
  });

  it('keeps a kiosk to its own display: no user routes, no other kiosk', async () => {
    const headers = { 'x-kiosk-key': kiosk.kioskKey };
    expect((await call('GET', '/users/me', { headers })).status).toBe(401);
    expect((await call('GET', '/assets', { headers })).status).toBe(401);
    expect((await call('GET', `/kiosks/${kiosk._id}/preview`, { headers })).status).toBe(200);
    expect((await call('GET', `/kiosks/${world.demo.kioskId}/preview`, { headers })).status).toBe(404);
    // Company admins preview any kiosk of theirs.
    expect(
      (await call('GET', `/kiosks/${world.demo.kioskId}/preview`, { token: owner().token })).status,
    ).toBe(200);
  });

  it('stops the old secret when the secret is rotated, and a deleted kiosk altogether', async () => {
    const rotated = await call('POST', `/kiosks/${kiosk._id}/rotate-secret`, { token: owner().token });
    expect(rotated.status).toBe(200);
    expect((await call('GET', '/kiosks/live', { headers: { 'x-kiosk-key': kiosk.kioskKey } })).status).toBe(
      401,
    );
    const fresh = { 'x-kiosk-key': String(rotated.body.kioskKey) };
    expect((await call('GET', '/kiosks/live', { headers: fresh })).status).toBe(200);
    await call('DELETE', `/kiosks/${kiosk._id}`, { token: owner().token });
    // The credential cache holds a record for up to five seconds; a new process sees the deletion at once.
    const { forgetCredential } = await import('../../functions/core/access/credential-service.ts');
    forgetCredential('kiosk', kiosk._id);
    expect((await call('GET', '/kiosks/live', { headers: fresh })).status).toBe(401);
  });
});

describe('machines', () => {
  it('issues a machine key that reads like its permissions allow and never writes', async () => {
    const owner = world.user('owner@demo.test');
    const created = await call('POST', '/machines', { token: owner.token, body: { name: 'PDF renderer' } });
    expect(created.status).toBe(201);
    const xKey = String(created.body.xKey);
    const listed = await call('GET', '/machines', { token: owner.token });
    expect(JSON.stringify(listed.body)).not.toContain(String(created.body.key));
    const me = await call('GET', '/users/me', { headers: { 'x-key': xKey } });
    expect(me.body).toMatchObject({ isMachine: true, name: 'PDF renderer', companyId: world.demo.companyId });
    const assets = await call('GET', '/assets', { headers: { authorization: `xkey ${xKey}` } });
    expect(assets.status).toBe(200);
    expect(assets.body.total).toBe(world.demo.assets.size);
    const write = await call('POST', '/assets', { headers: { 'x-key': xKey }, body: { siteName: 'x' } });
    expect(write.status).toBe(401);
    expect(write.body.code).toBe('UNAUTHORISED');

    const revoked = await call('DELETE', `/machines/${created.body.machineId}`, { token: owner.token });
    expect(revoked.status).toBe(204);
    const after = await call('GET', '/users/me', { headers: { 'x-key': xKey } });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('AUTH_ERROR');
  });

  it('answers a bad machine key with 401 AUTH_ERROR', async () => {
    for (const key of [`${world.demo.machineId}:wrong`, 'garbage', `${world.demo.machineId}:`]) {
      const res = await call('GET', '/users/me', { headers: { 'x-key': key } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('AUTH_ERROR');
    }
    expect(
      (await call('GET', '/users/me', { headers: { 'x-key': `${world.demo.machineId}:probe-key` } })).status,
    ).toBe(200);
  });
});
