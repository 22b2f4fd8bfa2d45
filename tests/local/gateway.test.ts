import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banner } from '../../infra/local/cli.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { REPO_ROOT } from '../../infra/local/options.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;
let ownerToken: string;

beforeAll(async () => {
  local = await startLocalStack({ seed: true });
  ownerToken = (
    await signInForToken({ baseUrl: local.origin, email: 'owner@demo.test', password: DEMO_PASSWORD })
  ).accessToken;
});
afterAll(() => local?.stop());

/** Raw HTTP, for what fetch hides (bodies larger than the gateway takes, accept-encoding). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${local.origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the HTTP gateway', () => {
  it('reports healthy once everything is up', async () => {
    const res = await fetch(`${local.apiUrl}/health`);
    const body = (await res.json()) as { status: string; services: Record<string, { status: string }> };
    expect(res.status).toBe(200);
    expect(body.status).toBe('ok');
    for (const name of ['dynamodb', 'sqs+s3', 'table', 'functions', 'oidc', 'websocket', 'smtp', 'seed']) {
      expect(body.services[name]?.status, name).toBe('up');
    }
  });

  it('answers an unknown API path with the API own 404 ROUTE_NOT_FOUND', async () => {
    const res = await fetch(`${local.apiUrl}/no-such-thing/here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await res.json()) as { code: string }).code).toBe('ROUTE_NOT_FOUND');
  });

  it('refuses a request without a token with 401 JSON', async () => {
    const res = await fetch(`${local.apiUrl}/assets`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('UNAUTHORISED');
  });

  it('serves a signed-in user the seeded data through function, token check and DynamoDB', async () => {
    const res = await fetch(`${local.apiUrl}/assets?limit=2`, {
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[]; total: number };
    expect(body.data).toHaveLength(2);
    expect(body.total).toBeGreaterThan(2);
  });

  it('prints a demo kiosk page and machine key that the API accepts', async () => {
    const text = await banner(local.stack, 'start', REPO_ROOT);
    const kioskPage = new URL(/^ {2}Demo kiosk +(\S+)$/m.exec(text)?.[1] ?? 'http://missing');
    expect(kioskPage.origin).toBe(local.origin);
    const [id, secret] = (kioskPage.searchParams.get('kioskAuth') ?? '').split('|');
    expect(kioskPage.pathname).toBe(`/kiosk/${id}`);
    const live = await fetch(`${local.apiUrl}/kiosks/live`, {
      headers: { 'X-Kiosk-Key': `${id}:${secret}` },
    });
    expect(live.status).toBe(200);
    const screen = (await live.json()) as { kiosk: { _id: string }; asset: { siteName: string } | null };
    expect(screen.kiosk._id).toBe(id);
    expect(screen.asset?.siteName).toBe('Temple Quay Point');
    const forged = await fetch(`${local.apiUrl}/kiosks/live`, { headers: { 'X-Kiosk-Key': `${id}:not-it` } });
    expect(forged.status).toBe(401);

    const xKey = /^ {2}Demo machine +X-Key: (\S+)/m.exec(text)?.[1] ?? '';
    expect(text).toContain(`curl -H 'X-Key: ${xKey}' ${local.apiUrl}/users/me`);
    const machine = await fetch(`${local.apiUrl}/users/me`, { headers: { 'X-Key': xKey } });
    expect(machine.status).toBe(200);
    expect(((await machine.json()) as { name: string }).name).toBe('Demo report renderer');
  });

  it('passes the body through, so malformed JSON is the API 400 MALFORMED_JSON', async () => {
    const res = await fetch(`${local.apiUrl}/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
      body: '{"siteName": ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('MALFORMED_JSON');
  });

  it('refuses a body over 10 MB with 413, as API Gateway does', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'a');
    const res = await raw(
      'POST',
      '/api/assets',
      { 'content-type': 'application/json', 'content-length': big.byteLength },
      big,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString())).toEqual({ message: 'Request Entity Too Large' });
  });

  it('answers /ws without an upgrade with 426', async () => {
    expect((await fetch(`${local.origin}/ws`)).status).toBe(426);
  });
});

describe('the web app', () => {
  beforeAll(async () => {
    const dir = local.stack.webDir;
    await mkdir(join(dir, 'assets'), { recursive: true });
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>Voltfolio test build</title>');
    await writeFile(
      join(dir, 'assets', 'main-ABCD1234.js'),
      `console.log(${JSON.stringify('x'.repeat(5000))});`,
    );
  });

  it('answers client-side routes with index.html, revalidated on every load', async () => {
    const res = await fetch(`${local.origin}/portfolio/assets/123`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('Voltfolio test build');
  });

  it('serves hashed assets gzipped and cached for a year', async () => {
    const res = await raw('GET', '/assets/main-ABCD1234.js', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(gunzipSync(res.body).toString()).toContain('console.log');
  });

  it('answers a missing file (not a route) with 404', async () => {
    expect((await fetch(`${local.origin}/assets/missing-ABCD1234.js`)).status).toBe(404);
  });
});
