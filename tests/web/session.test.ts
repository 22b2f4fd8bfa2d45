import { describe, expect, it, vi } from 'vitest';
import { type ApiClient, ApiError } from '../../web/lib/api-client.ts';
import { createSessionLoader } from '../../web/lib/session.ts';

const ANSWERS: Record<string, unknown> = {
  '/users/me': {
    _id: 's1',
    sub: 's1',
    name: 'Olive Owner',
    isAdmin: false,
    companyId: 'c1',
    companies: ['c1'],
    roles: [],
    permissions: ['company_owner', 'company_admin'],
    role: null,
    apiKey: null,
  },
  '/users/me/company': { _id: 'c1', name: 'Demo Estates', settings: { isDemo: true } },
  '/users/me/permissions': {
    permissions: ['company_admin', 'company_owner', 'not_a_permission'],
    entities: { read: [], write: [] },
    assets: { read: ['a1'], write: [] },
    accounts: { read: [], write: [] },
  },
};

function fakeApi(failing?: string): ApiClient {
  const get = async <T>(path: string): Promise<T> => {
    if (path === failing)
      throw new ApiError(500, 'INTERNAL_ERROR', 'Something went wrong. Please try again.');
    return ANSWERS[path] as T;
  };
  const unused = () => Promise.reject(new Error('not expected'));
  return { get, request: unused, post: unused, put: unused, patch: unused, del: unused };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('loading the session after sign-in', () => {
  it('combines the user, the company and the permissions', async () => {
    const signOut = vi.fn(async () => undefined);
    const session = await createSessionLoader({ api: fakeApi(), signOut })();
    expect(session.company.name).toBe('Demo Estates');
    expect(session.access).toEqual({
      isAdmin: false,
      permissions: ['company_admin', 'company_owner'],
      grants: {
        entities: { read: [], write: [] },
        assets: { read: ['a1'], write: [] },
        accounts: { read: [], write: [] },
      },
      staffView: false,
    });
    expect(signOut).not.toHaveBeenCalled();
  });

  it.each(['/users/me', '/users/me/company', '/users/me/permissions'])(
    'signs the user out when %s fails',
    async (failing) => {
      const signOut = vi.fn(async () => undefined);
      const outcome = vi.fn();
      createSessionLoader({ api: fakeApi(failing), signOut })().then(outcome, outcome);
      await settled();
      expect(signOut).toHaveBeenCalledTimes(1);
      // The browser is leaving for the provider: the page must not render with half a session.
      expect(outcome).not.toHaveBeenCalled();
    },
  );

  it('asks the API once per page load', async () => {
    const api = fakeApi();
    const get = vi.spyOn(api, 'get');
    const load = createSessionLoader({ api, signOut: async () => undefined });
    await Promise.all([load(), load(), load()]);
    expect(get).toHaveBeenCalledTimes(3);
  });

  it('asks the API again once told to forget, e.g. after the user changed their name', async () => {
    const api = fakeApi();
    const get = vi.spyOn(api, 'get');
    const load = createSessionLoader({ api, signOut: async () => undefined });
    await load();
    await load();
    expect(get).toHaveBeenCalledTimes(3);
    load.forget();
    await load();
    expect(get).toHaveBeenCalledTimes(6);
  });
});
