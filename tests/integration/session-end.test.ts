import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type AccessFixture,
  type DemoUser,
  type DemoWorld,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

/**
 * Signing out ends the person's sessions at once (not when their tokens expire), a member removed from a
 * company stops receiving its live updates, and an API-only user's session cannot open the live connection.
 */

let fx: AccessFixture;
let world: DemoWorld;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  fx = await startAccessFixture();
  world = await seedDemoWorld(fx);
});
afterAll(async () => fx?.stop());

const tokenOf = (user: DemoUser, issuedAt: number) =>
  fx.fx.issuer.accessToken(user.sub, { claims: { iat: issuedAt } });
const me = (token: string) => fx.api({ method: 'GET', path: '/users/me', token });

/** The live function's answer to a browser connecting with `token`. */
async function connect(token: string, connectionId: string) {
  const { handler } = await import('../../functions/handlers/ws/live.ts');
  const event = {
    requestContext: { routeKey: '$connect', connectionId, eventType: 'CONNECT' },
    queryStringParameters: { token },
  } as unknown as Parameters<typeof handler>[0];
  return (await handler(event)) as { statusCode: number };
}

const liveOf = async (companyId: string) => {
  const { connectionsOfCompany } = await import('../../functions/core/live/live-connection-repository.ts');
  return connectionsOfCompany(companyId);
};

describe('ending sessions', () => {
  it('refuses a token issued before DELETE /sessions, and takes one issued after', async () => {
    const user = world.user('user@demo.test');
    const before = tokenOf(user, now() - 60);
    // Another tab's token, the same person's session.
    const otherTab = tokenOf(user, now() - 30);
    expect((await me(before)).status).toBe(200);
    expect((await me(otherTab)).status).toBe(200);
    expect((await connect(otherTab, 'conn-other-tab')).statusCode).toBe(200);

    expect((await fx.api({ method: 'DELETE', path: '/sessions', token: before })).status).toBe(204);
    for (const token of [before, otherTab]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(String(res.body.message)).toMatch(/session has ended/i);
    }
    expect((await connect(otherTab, 'conn-after-sign-out')).statusCode).toBe(401);
    // Its open connection was closed with the session.
    expect((await liveOf(world.demo.companyId)).map((c) => c.connectionId)).not.toContain('conn-other-tab');

    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await me(tokenOf(user, now()))).status).toBe(200);
  });

  it('closes the live connections of a member removed from the company', async () => {
    const admin = world.user('owner@demo.test');
    const member = world.user('validator@demo.test');
    expect((await connect(member.token, 'conn-of-removed-member')).statusCode).toBe(200);
    expect((await liveOf(world.demo.companyId)).map((c) => c.sub)).toContain(member.sub);
    const removed = await fx.api({
      method: 'DELETE',
      path: `/companies/${world.demo.companyId}/users/${member.sub}`,
      token: admin.token,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    expect((await liveOf(world.demo.companyId)).map((c) => c.sub)).not.toContain(member.sub);
  });

  it('refuses the live connection to an API-only user', async () => {
    const api = world.user('api@demo.test');
    expect((await connect(api.token, 'conn-of-api-user')).statusCode).toBe(403);
    expect((await liveOf(world.demo.companyId)).map((c) => c.sub)).not.toContain(api.sub);
  });
});

describe("a change of one's own details while signing out", () => {
  it('does not bring the ended session back', async () => {
    const user = world.user('asset@demo.test');
    const token = tokenOf(user, now() - 60);
    const send = DynamoDBDocumentClient.prototype.send;
    let pending = true;
    // Signing out lands between the details change reading the profile and writing it.
    const spy = vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation(async function (
      this: DynamoDBDocumentClient,
      command: Parameters<DynamoDBDocumentClient['send']>[0],
    ) {
      const item = command instanceof PutCommand ? command.input.Item : undefined;
      if (pending && item?.pk === `U#${user.sub}` && item.sk === 'profile') {
        pending = false;
        expect((await fx.api({ method: 'DELETE', path: '/sessions', token })).status).toBe(204);
      }
      return (send as (c: typeof command) => Promise<unknown>).call(this, command);
    } as DynamoDBDocumentClient['send']);
    try {
      const renamed = await fx.api({
        method: 'PATCH',
        path: '/users/me',
        token,
        body: { name: 'Val Idator' },
      });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(pending).toBe(false);
    expect((await me(token)).status).toBe(401);
  });
});
