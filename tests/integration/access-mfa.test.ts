import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountStore } from '../../infra/local/oidc/account-store.ts';
import { verifyTotp } from '../../infra/local/oidc/totp.ts';
import { type AccessFixture, type DemoWorld, seedDemoWorld, startAccessFixture } from './access-support.ts';

let fx: AccessFixture;
let world: DemoWorld;

beforeAll(async () => {
  fx = await startAccessFixture();
  world = await seedDemoWorld(fx);
});
afterAll(async () => fx?.stop());

const call = (method: string, path: string, token: string, body?: unknown) =>
  fx.api({ method, path, token, body });

describe('authenticator app (TOTP) with the local provider', () => {
  it('enrols only after a code from the app is confirmed, and the provider then checks codes with it', async () => {
    const user = world.user('user@demo.test');
    const store = openAccountStore(join(fx.accountsDir, '..'));
    expect((await call('GET', '/users/me/mfa', user.token)).body).toEqual({ totp: { enabled: false } });

    const started = await call('POST', '/users/me/mfa/totp', user.token);
    expect(started.status).toBe(201);
    const secret = String(started.body.secret);
    expect(String(started.body.otpauthUri)).toMatch(
      /^otpauth:\/\/totp\/Voltfolio:user%40demo\.test\?.*secret=/,
    );
    // Pending: the provider does not ask for a code yet.
    expect((await store.findBySub(user.sub))?.totpSecret).toBeUndefined();

    const wrong = await call('POST', '/users/me/mfa/totp/verify', user.token, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.formMessages).toHaveProperty('code');
    expect((await call('POST', '/users/me/mfa/totp/verify', user.token, {})).body.formMessages).toEqual({
      code: 'This field is required',
    });

    const code = await generate({ secret });
    const ok = await call('POST', '/users/me/mfa/totp/verify', user.token, { code });
    expect(ok.body).toEqual({ totp: { enabled: true } });
    const account = await store.findBySub(user.sub);
    expect(account?.totpSecret).toBe(secret);
    expect(await verifyTotp(account?.totpSecret as string, await generate({ secret }))).toBe(true);
    expect((await call('GET', '/users/me/mfa', user.token)).body).toEqual({ totp: { enabled: true } });
    expect((await call('POST', '/users/me/mfa/totp', user.token)).status).toBe(409);

    // Removing the app takes a code it shows now; without one, or with a wrong one, it stays on.
    const noCode = await call('DELETE', '/users/me/mfa/totp', user.token);
    expect(noCode.status).toBe(400);
    expect(noCode.body.formMessages).toEqual({ code: 'This field is required' });
    const wrongCode = await call('DELETE', '/users/me/mfa/totp', user.token, { code: '000000' });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.formMessages).toEqual({
      code: 'That code is not right. Enter the code your app shows now.',
    });
    const otherApp = await generate({ secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    expect((await call('DELETE', '/users/me/mfa/totp', user.token, { code: otherApp })).status).toBe(400);
    expect((await store.findBySub(user.sub))?.totpSecret).toBe(secret);
    expect((await call('GET', '/users/me/mfa', user.token)).body).toEqual({ totp: { enabled: true } });

    const removed = await call('DELETE', '/users/me/mfa/totp', user.token, {
      code: await generate({ secret }),
    });
    expect(removed.body).toEqual({ totp: { enabled: false } });
    expect((await store.findBySub(user.sub))?.totpSecret).toBeUndefined();
  });

  it('forgets an enrolment that was never confirmed, so an old code cannot finish it', async () => {
    const user = world.user('owner@demo.test');
    const started = await call('POST', '/users/me/mfa/totp', user.token);
    const { deletePendingTotp } = await import('../../functions/core/access/credential-repository.ts');
    await deletePendingTotp(user.sub);
    const code = await generate({ secret: String(started.body.secret) });
    expect((await call('POST', '/users/me/mfa/totp/verify', user.token, { code })).status).toBe(400);
  });

  it('answers 404 for someone without a sign-in account', async () => {
    const { putProfile } = await import('../../functions/core/access/user-repository.ts');
    const { putItem } = await import('../../functions/core/data/item-repository.ts');
    await putProfile({
      sub: 'ghost',
      email: 'ghost@demo.test',
      name: 'Ghost',
      isAdmin: false,
      companyIds: [world.demo.companyId],
    });
    await putItem(
      { pk: `C#${world.demo.companyId}#users`, indexes: [], searchFields: [] },
      { _id: 'ghost', permissions: [] },
    );
    expect((await call('POST', '/users/me/mfa/totp', fx.fx.issuer.accessToken('ghost'))).status).toBe(404);
  });
});
