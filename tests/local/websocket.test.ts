import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { publishToCompany } from '../../functions/core/adapters/live.ts';
import { createLogger } from '../../functions/core/lib/logger.ts';
import { connectionsOfCompany } from '../../functions/core/live/live-connection-repository.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;
let token: string;
let companyId: string;
let management: ApiGatewayManagementApiClient;

beforeAll(async () => {
  local = await startLocalStack({ seed: true });
  token = (await signInForToken({ baseUrl: local.origin, email: 'owner@demo.test', password: DEMO_PASSWORD }))
    .accessToken;
  const summary = local.stack.seed?.summary as { companies: { id: string; name: string }[] };
  companyId = summary.companies.find((c) => c.name === 'Demo Estates Ltd')?.id ?? '';
  management = new ApiGatewayManagementApiClient({ region: 'eu-west-2', endpoint: local.env.LIVE_ENDPOINT });
});
afterAll(() => local?.stop());

/** Opens a socket and collects what arrives; resolves once open, rejects with the refusal status. */
function connect(query: string): Promise<{ ws: WebSocket; received: string[]; next(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${local.wsUrl}${query}`);
    const received: string[] = [];
    const waiters: ((m: string) => void)[] = [];
    ws.on('message', (data) => {
      const text = data.toString();
      const waiter = waiters.shift();
      if (waiter) waiter(text);
      else received.push(text);
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        received,
        next: () => {
          const queued = received.shift();
          return queued !== undefined ? Promise.resolve(queued) : new Promise((r) => waiters.push(r));
        },
      }),
    );
  });
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('Timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the WebSocket gateway', () => {
  it('refuses the upgrade when $connect answers 401 (no token)', async () => {
    await expect(connect('')).rejects.toThrow('refused with 401');
    await expect(connect('?token=not-a-jwt')).rejects.toThrow('refused with 401');
  });

  it('answers 410 Gone for a connection that does not exist, as the management API does', async () => {
    await expect(
      management.send(
        new PostToConnectionCommand({ ConnectionId: 'NoSuchConn0AAA=', Data: new TextEncoder().encode('x') }),
      ),
    ).rejects.toBeInstanceOf(GoneException);
  });

  it('refuses unsigned management calls', async () => {
    const res = await fetch(`${local.origin}/@connections/abc`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(403);
  });

  it('closes a connection that sends a message over 128 KB, as API Gateway does', async () => {
    const client = await connect(`?token=${encodeURIComponent(token)}`);
    const closed = new Promise<number>((r) => client.ws.on('close', (code) => r(code)));
    client.ws.send(JSON.stringify({ action: 'ping', pad: 'x'.repeat(130 * 1024) }));
    expect(await closed).toBe(1009);
    // The gateway is still there for the next connection.
    const again = await connect(`?token=${encodeURIComponent(token)}`);
    again.ws.send(JSON.stringify({ action: 'ping' }));
    expect(JSON.parse(await again.next())).toMatchObject({ type: 'pong' });
    again.ws.close();
    await waitFor(async () => ((await connectionsOfCompany(companyId)).length === 0 ? true : undefined));
  });

  it('routes actions, delivers what functions publish, and runs $disconnect on close', async () => {
    const client = await connect(`?token=${encodeURIComponent(token)}`);
    client.ws.send(JSON.stringify({ action: 'ping' }));
    expect(JSON.parse(await client.next())).toMatchObject({ type: 'pong' });

    client.ws.send(JSON.stringify({ action: 'something-else' }));
    expect(JSON.parse(await client.next())).toMatchObject({ type: 'error' });

    const [connection] = await waitFor(async () => {
      const list = await connectionsOfCompany(companyId);
      return list.length > 0 ? list : undefined;
    });
    const connectionId = connection?.connectionId ?? '';

    const info = await management.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(info.ConnectedAt).toBeInstanceOf(Date);
    expect(info.Identity?.SourceIp).toBe('127.0.0.1');

    const sent = await publishToCompany(
      companyId,
      { type: 'email.received', keys: ['/emails'] },
      createLogger(),
    );
    expect(sent).toBe(1);
    expect(JSON.parse(await client.next())).toEqual({ type: 'email.received', keys: ['/emails'] });

    const closed = new Promise<number>((r) => client.ws.on('close', (code) => r(code)));
    await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect(await closed).toBe(1000);
    await waitFor(async () => ((await connectionsOfCompany(companyId)).length === 0 ? true : undefined));
    await expect(
      management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array([1]) })),
    ).rejects.toBeInstanceOf(GoneException);
  });
});
