/**
 * A probe sweep of every declared HTTP route against a seeded local stack, called as four callers who
 * should be refused most of it: no token, the owner of another company, a user granted two sites of Demo
 * Estates, a user granted one site only, and a read-only (entity viewer) user. A route's id is filled with an item of Demo Estates the
 * caller does not see in its own list where there is one, so a 2xx there is a leak. A list answered to a
 * caller with grants is also read item by item: an item of a site or meter outside the caller's own sites and
 * meters lists is a leak too. Prints the counts by outcome and lists every unexpected 2xx and every 5xx.
 */
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';
import { startLocalStack } from '../support/local-stack.ts';

type Caller =
  | 'no token'
  | 'other company'
  | 'two-site grant'
  | 'one-site grant'
  | 'read-only'
  | 'bill validator';
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
      // A member's own company is theirs to reach whatever the companies list (staff's) answers them.
      if (segment === 'companies' && token) {
        const own = await call('GET', '/users/me/company', token);
        const id = (own.body as { _id?: unknown } | undefined)?._id;
        if (own.status === 200 && typeof id === 'string') found.add(id);
      }
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
    ['bill validator', await tokenOf('validator@demo.test')],
  ];
  const restricted = new Set<Caller>(['two-site grant', 'one-site grant', 'read-only', 'bill validator']);

  /**
   * The sites and meters an item of a list names that the caller does not see in its own lists: a list
   * filtered by grants names none. Lists that are the caller's own sites and meters are those lists.
   */
  async function outsideGrants(caller: Caller, token: string, route: HttpRoute, body: unknown) {
    const segment = segmentOf(route);
    if (segment === 'assets' || segment === 'accounts') return [];
    const list = Array.isArray(body) ? body : (body as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(list)) return [];
    const sites = await visible(caller, token, 'assets');
    const meters = await visible(caller, token, 'accounts');
    const outside = new Set<string>();
    for (const item of list as Record<string, unknown>[]) {
      if (typeof item?.assetId === 'string' && !sites.has(item.assetId)) outside.add(`site ${item.assetId}`);
      if (typeof item?.accountId === 'string' && !meters.has(item.accountId))
        outside.add(`meter ${item.accountId}`);
    }
    return [...outside];
  }
  let listsRead = 0;
  /** Lists whose owner's answer the check would flag: lists where a leak would have been seen. */
  let controlsCaught = 0;
  let listItemsRead = 0;
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
          ((caller === 'two-site grant' || caller === 'one-site grant' || caller === 'bill validator') &&
            real !== undefined &&
            !open) ||
          (caller === 'read-only' && ((write && !open) || (real !== undefined && !open)));
        outcome = unexpected ? 'unexpected 2xx' : 'expected 2xx';
      } else if ([401, 403, 404].includes(status)) outcome = 'refused';
      else {
        outcome = 'other 4xx';
        others.set(`${caller} ${status}`, (others.get(`${caller} ${status}`) ?? 0) + 1);
      }
      let leak: string | undefined;
      if (
        outcome === 'expected 2xx' &&
        token &&
        restricted.has(caller) &&
        route.method === 'GET' &&
        !route.path.includes('{')
      ) {
        // Asked again with a page as large as lists answer, as the empty-bodied probe may be a small page.
        const full = await call('GET', `${route.path}?limit=1000`, token);
        const listed = Array.isArray(full.body) ? full.body : (full.body as { data?: unknown })?.data;
        if (full.status === 200 && Array.isArray(listed)) {
          listsRead++;
          listItemsRead += listed.length;
          const outside = await outsideGrants(caller, token, route, full.body);
          // The check's control: the owner's answer to the same list, judged by this caller's grants.
          const owners = await call('GET', `${route.path}?limit=1000`, owner);
          if ((await outsideGrants(caller, token, route, owners.body)).length > 0) controlsCaught++;
          if (outside.length > 0) {
            outcome = 'unexpected 2xx';
            leak = `lists ${outside.length} outside grants: ${outside.slice(0, 3).join(', ')}`;
          }
        }
      }
      tally[outcome]++;
      if (outcome === 'unexpected 2xx' || outcome === '5xx')
        flagged.push(
          `${caller}: ${route.method} ${path} → ${status} ${leak ?? JSON.stringify(body).slice(0, 120)}`,
        );
    }
  }
  const total = [...counts.values()].reduce((n, t) => n + Object.values(t).reduce((a, b) => a + b, 0), 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${HTTP_ROUTES.length} routes × ${callers.length} callers = ${total} calls in ${seconds} s (${throttled} throttled answers waited out and retried)`,
  );
  console.log(
    `${listsRead} lists read item by item as restricted callers (${listItemsRead} items); the owner's answer to ${controlsCaught} of them would have been flagged`,
  );
  console.table(Object.fromEntries(counts));
  console.log('other 4xx by caller and status:', Object.fromEntries(others));
  console.log(flagged.length === 0 ? 'No unexpected 2xx or 5xx.' : flagged.join('\n'));
} finally {
  await local.stop();
}
