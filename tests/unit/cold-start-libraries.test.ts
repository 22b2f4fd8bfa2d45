import { afterEach, describe, expect, it, vi } from 'vitest';

/** Imports `load` fresh and answers whether the package `specifier` was loaded meanwhile. */
async function loads(specifier: string, load: () => Promise<unknown>): Promise<boolean> {
  vi.resetModules();
  let loaded = false;
  vi.doMock(specifier, async (original) => {
    loaded = true;
    return await original();
  });
  try {
    await load();
  } finally {
    vi.doUnmock(specifier);
  }
  return loaded;
}

afterEach(() => {
  vi.resetModules();
});

describe('libraries a function reads at start', () => {
  // Every page asks the session function who is signed in; the authenticator app's calls are rare, and the
  // one-time-password code (~25 KB) would lengthen every cold start of it.
  it('starts the session function without the one-time-password library', async () => {
    expect(await loads('otplib', () => import('../../functions/handlers/http/session.ts'))).toBe(false);
  });

  it('still reaches it when an authenticator-app call loads the identity provider', async () => {
    expect(await loads('otplib', () => import('../../functions/core/adapters/identity.ts'))).toBe(true);
  });

  // Only a welcome e-mail to a new company user sends mail from these functions.
  it.each([
    ['session', () => import('../../functions/handlers/http/session.ts')],
    ['companies', () => import('../../functions/handlers/http/companies.ts')],
  ])('starts the %s function without the mailer', async (_name, load) => {
    expect(await loads('../../functions/core/adapters/mailer.ts', load)).toBe(false);
  });

  // zod's full build costs a cold start ~3 ms of parsing and set-up even when no schema is built.
  it.each([
    ['MFA', () => import('../../functions/profile/mfa-service.ts')],
    ['profile', () => import('../../functions/profile/profile-service.ts')],
    ['client error', () => import('../../functions/profile/client-error-service.ts')],
    ['API access', () => import('../../functions/profile/api-access-service.ts')],
    ['machine', () => import('../../functions/company/machine-service.ts')],
  ])("loads the %s service without zod's full build", async (_name, load) => {
    expect(await loads('zod', load)).toBe(false);
  });
});
