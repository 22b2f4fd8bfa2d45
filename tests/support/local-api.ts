import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import type { LocalStackHandle } from './local-stack.ts';

export type Json = Record<string, unknown>;

/** A demo user's access token from the local OpenID provider, signed in as a person would. */
export async function demoToken(local: LocalStackHandle, email = 'owner@demo.test'): Promise<string> {
  return (await signInForToken({ baseUrl: local.origin, email, password: DEMO_PASSWORD })).accessToken;
}

/**
 * JSON calls to the local API with a bearer token. Both are read on each call, because the stack and the
 * token only exist once the suite's `beforeAll` has run.
 */
export function jsonApi(apiUrl: () => string, token: () => string) {
  const api = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${apiUrl()}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json', ...init.headers },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const post = (path: string, body: unknown) => api(path, { method: 'POST', body: JSON.stringify(body) });
  return { api, post };
}

/** Drains the queues until the report is no longer waiting or being built. */
export async function reportBuilt(
  local: LocalStackHandle,
  get: (path: string) => Promise<{ body: Json }>,
  id: string,
  timeoutMs: number,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await local.drainQueues(20_000);
    const report = (await get(`/reports/${id}`)).body;
    if (report.status === 'ready' || report.status === 'failed') return report;
    if (Date.now() > deadline) throw new Error(`Report ${id} still ${String(report.status)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
