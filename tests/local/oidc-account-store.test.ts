import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccountStore } from '../../infra/local/oidc/account-store.ts';
import { generateTotpSecret, totpUri, verifyTotp } from '../../infra/local/oidc/totp.ts';

let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'voltfolio-accounts-'));
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe('OpenID account store', () => {
  it('keeps the subject when an account is seeded again, and the new password replaces the old', async () => {
    const store = openAccountStore(stateDir);
    const first = await store.upsert({ email: 'Owner@Demo.test', name: 'Olive', password: 'first-pass' });
    expect(first.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.email).toBe('owner@demo.test');

    const again = await store.upsert({
      email: 'owner@demo.test',
      name: 'Olive Owner',
      password: 'second-pass',
    });
    expect(again.sub).toBe(first.sub);
    expect(await store.findBySub(first.sub)).toMatchObject({ name: 'Olive Owner', email: 'owner@demo.test' });
    expect(await store.verifyPassword('OWNER@demo.test', 'second-pass')).toMatchObject({ sub: first.sub });
    expect(await store.verifyPassword('owner@demo.test', 'first-pass')).toBeUndefined();
    expect(await store.verifyPassword('nobody@demo.test', 'second-pass')).toBeUndefined();
  });

  it('uses a given subject and refuses to give one subject to two e-mails', async () => {
    const store = openAccountStore(stateDir);
    const sub = '0b5f3c1e-1111-4222-8333-944455556666';
    await expect(
      store.upsert({ email: 'a@demo.test', name: 'A', password: 'pw', sub }),
    ).resolves.toMatchObject({
      sub,
    });
    await expect(store.upsert({ email: 'b@demo.test', name: 'B', password: 'pw', sub })).rejects.toThrow(sub);
    expect(await store.findByEmail('b@demo.test')).toBeUndefined();
  });

  it('stores salted scrypt hashes, never the password, in <stateDir>/oidc/accounts.json', async () => {
    const store = openAccountStore(stateDir);
    await store.upsert({ email: 'a@demo.test', name: 'A', password: 'Voltfolio-demo-2026!', roles: ['r1'] });
    await store.upsert({ email: 'b@demo.test', name: 'B', password: 'Voltfolio-demo-2026!' });
    const raw = await readFile(join(stateDir, 'oidc', 'accounts.json'), 'utf8');
    expect(raw).not.toContain('Voltfolio-demo-2026!');
    const stored = JSON.parse(raw) as { email: string; passwordHash: string; roles?: string[] }[];
    expect(stored.map((a) => a.email).sort()).toEqual(['a@demo.test', 'b@demo.test']);
    expect(stored[0]?.passwordHash).toMatch(/^scrypt\$/);
    expect(stored[0]?.passwordHash).not.toBe(stored[1]?.passwordHash);
    expect(await store.findByEmail('a@demo.test')).not.toHaveProperty('passwordHash');
    expect((await store.findByEmail('a@demo.test'))?.roles).toEqual(['r1']);
  });

  it('sees accounts written by another process and loses none to concurrent writes', async () => {
    const reader = openAccountStore(stateDir);
    expect(await reader.findByEmail('x0@demo.test')).toBeUndefined();
    const writer = openAccountStore(stateDir);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        writer.upsert({ email: `x${i}@demo.test`, name: `X${i}`, password: 'pw' }),
      ),
    );
    for (let i = 0; i < 6; i++) {
      expect(await reader.findByEmail(`x${i}@demo.test`)).toMatchObject({ name: `X${i}` });
    }
  });

  it('enrols and removes the authenticator secret, which a re-seed keeps', async () => {
    const store = openAccountStore(stateDir);
    const { sub } = await store.upsert({ email: 'mfa@demo.test', name: 'M', password: 'pw' });
    const secret = generateTotpSecret();
    expect((await store.setTotpSecret(sub, secret)).totpSecret).toBe(secret);
    await store.upsert({ email: 'mfa@demo.test', name: 'M', password: 'pw2' });
    expect((await store.findBySub(sub))?.totpSecret).toBe(secret);
    await store.setTotpSecret(sub, undefined);
    expect(await store.findBySub(sub)).not.toHaveProperty('totpSecret');
    await expect(store.setTotpSecret('no-such-sub', secret)).rejects.toThrow('no-such-sub');
  });
});

describe('authenticator codes', () => {
  it('gives an otpauth URI an authenticator app can enrol', () => {
    const secret = generateTotpSecret();
    const uri = new URL(totpUri('mfa@demo.test', secret));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Voltfolio:mfa@demo.test');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Voltfolio');
  });

  it('accepts the current code and one a step either side, but not older ones or junk', async () => {
    const secret = generateTotpSecret();
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyTotp(secret, await generate({ secret }))).toBe(true);
    expect(await verifyTotp(secret, await generate({ secret, epoch: now - 30 }))).toBe(true);
    expect(await verifyTotp(secret, await generate({ secret, epoch: now + 30 }))).toBe(true);
    const stale = await generate({ secret, epoch: now - 120 });
    const nearby = await Promise.all([-30, 0, 30].map((d) => generate({ secret, epoch: now + d })));
    if (!nearby.includes(stale)) expect(await verifyTotp(secret, stale)).toBe(false);
    expect(await verifyTotp(secret, 'abcdef')).toBe(false);
    expect(await verifyTotp(secret, '12345')).toBe(false);
    expect(await verifyTotp(generateTotpSecret(), await generate({ secret }))).toBe(false);
  });
});
