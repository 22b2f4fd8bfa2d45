/**
 * A probe sweep of every declared HTTP route against a seeded local stack, called as four callers who
 * should be refused most of it: no token, the owner of another company, a user granted two sites of Demo
 * Estates, a user granted one site only, and a read-only (entity viewer) user. A route's id is filled with an item of Demo Estates the
 * caller does not see in its own list where there is one, so a 2xx there is a leak. Prints the counts by
 * outcome and lists every unexpected 2xx and every 5xx.
 */
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';
import { startLocalStack } from '../support/local-stack.ts';

type Caller = 'no token' | 'other company' | 'two-site grant' | 'one-site grant' | 'read-only';
type Outcome = 'refused' | 'expected 2xx' | 'unexpected 2xx' | 'other 4xx' | '5xx';

const FILLER = 'ffffffffffffffffffffffff';
const local = await startLocalStack({ seed: true });
const tokenOf = async (email: string) =>
  (await signInForToken({ baseUrl: local.origin, email, password: DEMO_PASSWORD })).accessToken;

/** Answers the gateway throttled (429) and waited out, so each probe reaches the function. */
let throttled = 0;

async function call(method: string, path: string, token?: string) {
  for (let attempt = 0; ; attempt++) {
    const answer = await callOnce(method, path, token);
    if (answer.status !== 429 || attempt === 10) return answer;
    throttled++;
    await new Promise((r) => setTimeout(r, 1000 * Math.max(1, answer.retryAfter)));
  }
}

async function callOnce(method: string, path: string, token?: string) {
  const write = method !== 'GET' && method !== 'DELETE';
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(write ? { 'content-type': 'application/json' } : {}),
    },
    body: write ? '{}' : undefined,
    redirect: 'manual',
  });
  const text = await res.text();
  const retryAfter = Number(res.headers.get('retry-after') ?? 1) || 1;
  try {
    return { status: res.status, retryAfter, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, retryAfter, body: text.slice(0, 120) as unknown };
  }
}

/** The ids of a list answer (an array, or `{ data: [...] }`). */
function idsIn(body: unknown): string[] {
  const list = Array.isArray(body) ? body : (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(list)) return [];
  return (list as { _id?: unknown }[]).map((i) => i._id).filter((id): id is string => typeof id === 'string');
}

const segmentOf = (route: HttpRoute) => route.path.split('/')[1] ?? '';

try {
  const owner = await tokenOf('owner@demo.test');
  const demoId = ((await call('GET', '/users/me/company', owner)).body as { _id: string })._id;

  // Demo Estates' ids, by the first segment of the path that lists them.
  const ids = new Map<string, string[]>([['companies', [demoId]]]);
  for (const route of HTTP_ROUTES) {
    const segment = segmentOf(route);
    if (route.method !== 'GET' || route.path.includes('{') || ids.has(segment)) continue;
    const { status, body } = await call('GET', `${route.path}?limit=1000`, owner);
    const found = status === 200 ? idsIn(body) : [];
    if (found.length > 0) ids.set(segment, found);
  }

  /** What a caller sees in its own list of a segment: theirs to reach (a shared catalogue, a granted site). */
  const seen = new Map<string, Set<string>>();
  async function visible(caller: Caller, token: string | undefined, segment: string): Promise<Set<string>> {
    const key = `${caller} ${segment}`;
    let found = seen.get(key);
    if (!found) {
      const answer = token ? await call('GET', `/${segment}?limit=1000`, token) : undefined;
      found = new Set(answer?.status === 200 ? idsIn(answer.body) : []);
      seen.set(key, found);
    }
    return found;
  }

  /** The route's path with its first id filled by Demo's item (one the caller does not see, if any). */
  async function pathOf(route: HttpRoute, caller: Caller, token: string | undefined) {
    if (!route.path.includes('{')) return { path: route.path, real: undefined };
    const known = ids.get(segmentOf(route)) ?? [];
    const mine = await visible(caller, token, segmentOf(route));
    const real = known.find((id) => !mine.has(id)) ?? known[0];
    let first = true;
    const path = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const id = first ? real : undefined;
      first = false;
      return id ?? (name === 'userSub' ? 'owner' : FILLER);
    });
    return { path, real, theirs: real !== undefined && mine.has(real) };
  }

  const callers: [Caller, string | undefined][] = [
    ['no token', undefined],
    ['other company', await tokenOf('owner@northwind.test')],
    ['two-site grant', await tokenOf('asset@demo.test')],
    ['one-site grant', await tokenOf('site@demo.test')],
    ['read-only', await tokenOf('entity@demo.test')],
  ];
  const counts = new Map<Caller, Record<Outcome, number>>();
  const others = new Map<string, number>();
  const flagged: string[] = [];
  const started = performance.now();
  for (const [caller, token] of callers) {
    const tally: Record<Outcome, number> = {
      refused: 0,
      'expected 2xx': 0,
      'unexpected 2xx': 0,
      'other 4xx': 0,
      '5xx': 0,
    };
    counts.set(caller, tally);
    for (const route of HTTP_ROUTES) {
      const { path, real, theirs } = await pathOf(route, caller, token);
      const { status, body } = await call(route.method, path, token);
      // The credential of a link route (an unsubscribe link) is in the link, not a token.
      const linkRoute = route.auth?.includes('link') === true;
      const open = theirs === true || linkRoute || route.permission === '*' || route.profile === true;
      const write = route.method !== 'GET';
      let outcome: Outcome;
      if (status >= 500) outcome = '5xx';
      else if (status >= 200 && status < 300) {
        const unexpected =
          (caller === 'no token' && !linkRoute) ||
          (caller === 'other company' && real !== undefined && theirs !== true) ||
          ((caller === 'two-site grant' || caller === 'one-site grant') && real !== undefined && !open) ||
          (caller === 'read-only' && ((write && !open) || (real !== undefined && !open)));
        outcome = unexpected ? 'unexpected 2xx' : 'expected 2xx';
      } else if ([401, 403, 404].includes(status)) outcome = 'refused';
      else {
        outcome = 'other 4xx';
        others.set(`${caller} ${status}`, (others.get(`${caller} ${status}`) ?? 0) + 1);
      }
      tally[outcome]++;
      if (outcome === 'unexpected 2xx' || outcome === '5xx')
        flagged.push(`${caller}: ${route.method} ${path} → ${status} ${JSON.stringify(body).slice(0, 120)}`);
    }
  }
  const total = [...counts.values()].reduce((n, t) => n + Object.values(t).reduce((a, b) => a + b, 0), 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${HTTP_ROUTES.length} routes × ${callers.length} callers = ${total} calls in ${seconds} s (${throttled} throttled answers waited out and retried)`,
  );
  console.table(Object.fromEntries(counts));
  console.log('other 4xx by caller and status:', Object.fromEntries(others));
  console.log(flagged.length === 0 ? 'No unexpected 2xx or 5xx.' : flagged.join('\n'));
} finally {
  await local.stop();
}
