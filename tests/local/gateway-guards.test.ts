import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiThrottle } from '../../infra/local/api-throttle.ts';
import { createGateway, type GatewayParts } from '../../infra/local/http-gateway.ts';
import type { LoadedFunction } from '../../infra/local/lambda.ts';
import { FUNCTIONS, type FunctionName } from '../../shared/system/functions.ts';

/**
 * A gateway whose app, API functions and sign-in pages answer a fixed body, to see what it adds; each
 * caller may make 5 calls at once, then one a second.
 */
let origin: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const loaded = new Map<FunctionName, LoadedFunction>(
    FUNCTIONS.filter((f) => f.kind === 'http').map((decl) => [
      decl.name,
      { decl, handler: async () => ({ statusCode: 200, body: '{"ok":true}' }) },
    ]),
  );
  const parts: GatewayParts = {
    ready: true,
    health: () => ({ status: 200, body: { status: 'ok' } }),
    functions: { loaded, failed: new Map() },
    throttle: createApiThrottle({ ratePerSecond: 1, burst: 5 }),
    oidc: (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<form></form>'),
    web: async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<div id="root"></div>');
    },
  };
  const server = createGateway(parts, () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close?.());

describe('the local gateway security headers', () => {
  it('sends a content security policy, no framing and no sniffing with the app and the API', async () => {
    for (const path of ['/', '/assets/123/accounts', '/api/assets', '/api/no-such-prefix']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("connect-src 'self'");
      expect(csp, path).not.toContain("'unsafe-eval'");
    }
  });

  it('leaves the sign-in pages their own policy, but no sniffing', async () => {
    const res = await fetch(`${origin}/oidc/interaction/x`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the local gateway request budget', () => {
  const call = (token: string) =>
    fetch(`${origin}/api/assets`, { headers: { authorization: `Bearer ${token}` } });

  it('answers a caller past its burst 429 with Retry-After, and no other caller', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('token-of-a-busy-script')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const refused = answers.find((r) => r.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused?.json()).toEqual({ message: 'Too Many Requests' });
    expect((await call('token-of-someone-else')).status).toBe(200);
  });

  it('lets the caller go on at its rate once the wait has passed', async () => {
    for (let i = 0; i < 6; i++) await call('token-of-a-steady-caller');
    expect((await call('token-of-a-steady-caller')).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await call('token-of-a-steady-caller')).status).toBe(200);
  });
});
