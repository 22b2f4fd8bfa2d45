import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../web/lib/api-client.ts';

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(input), init };
    calls.push(call);
    return respond(call);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function client(respond: (call: Call) => Response | Promise<Response>, token: string | null = 'tok-1') {
  const fake = fakeFetch(respond);
  const onUnauthorized = vi.fn();
  const api = createApiClient({
    baseUrl: 'http://localhost:3000/api/',
    getToken: async () => token,
    onUnauthorized,
    fetch: fake.fetch,
  });
  return { api, onUnauthorized, calls: fake.calls };
}

describe('the API client', () => {
  it('sends the bearer token and reads the JSON answer', async () => {
    const { api, calls } = client(() => json(200, { name: 'Demo' }));
    await expect(api.get('/users/me/company')).resolves.toEqual({ name: 'Demo' });
    expect(calls[0]?.url).toBe('http://localhost:3000/api/users/me/company');
    expect(new Headers(calls[0]?.init.headers).get('authorization')).toBe('Bearer tok-1');
  });

  it('sends no authorization header when signed out', async () => {
    const { api, calls } = client(() => json(200, {}), null);
    await api.get('/users/me');
    expect(new Headers(calls[0]?.init.headers).has('authorization')).toBe(false);
  });

  it('sends bodies as JSON and adds query parameters', async () => {
    const { api, calls } = client(() => json(200, { updated: 3 }));
    await api.post('/users/me/seen-notification', { all: true }, { query: { limit: 1, skip: undefined } });
    expect(calls[0]?.url).toBe('http://localhost:3000/api/users/me/seen-notification?limit=1');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe('{"all":true}');
    expect(new Headers(calls[0]?.init.headers).get('content-type')).toBe('application/json');
  });

  it('answers undefined for 204 No Content', async () => {
    const { api } = client(() => new Response(null, { status: 204 }));
    await expect(api.del('/sessions')).resolves.toBeUndefined();
  });

  it('signs the user out on a 401 and rejects with the error', async () => {
    const { api, onUnauthorized } = client(() =>
      json(401, { status: 401, code: 'UNAUTHORISED', message: 'Unauthorised' }),
    );
    const error = await api.get('/assets?limit=1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORISED', message: 'Unauthorised' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith(error);
  });

  it('keeps the user signed in on other errors and carries their form messages', async () => {
    const { api, onUnauthorized } = client(() =>
      json(400, {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'Form validation error',
        formMessages: { name: 'This field is required' },
      }),
    );
    const error = await api.patch('/assets/1', { name: '' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Form validation error',
      formMessages: { name: 'This field is required' },
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('does not sign out on a 403', async () => {
    const { api, onUnauthorized } = client(() => json(403, { code: 'FORBIDDEN', message: 'No' }));
    await expect(api.get('/admin')).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('turns an answer without a JSON error body into an error with the status', async () => {
    const { api } = client(() => new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    await expect(api.get('/assets')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'Bad Gateway',
    });
  });

  it('reports an unreachable server as a network error', async () => {
    const { api, onUnauthorized } = client(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/users/me')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
