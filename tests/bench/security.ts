/**
 * A probe sweep of every declared HTTP route against a seeded local stack, called as four callers who
 * should be refused most of it: no token, the owner of another company, a user granted two sites of Demo
 * Estates, a user granted one site only, and a read-only (entity viewer) user. A route's id is filled with an item of Demo Estates the
 * caller does not see in its own list where there is one, so a 2xx there is a leak. Every list answered to
 * a caller with grants is also read item by item against what their grants let them see, worked out from
 * the owner's register (security-lists.ts), the owner's answer to the same list serving as the check's
 * control. Before the sweep the owner adds what the demo lacks (security-world.ts): targets, reports, a
 * project and recommendations outside every restricted caller's grants, and mail taken in through the
 * SMTP inbox, whose mails, attachments and bills are then probed as each caller. Prints the counts by
 * outcome and lists every unexpected 2xx and every 5xx.
 */
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';
import { startLocalStack } from '../support/local-stack.ts';
import { type Api, judgeList, type Reader, Register, readerOf } from './security-lists.ts';
import { furnish, sendMail } from './security-world.ts';

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

async function call(method: string, path: string, token?: string, sent?: unknown) {
  for (let attempt = 0; ; attempt++) {
    const answer = await callOnce(method, path, token, sent);
    if (answer.status !== 429 || attempt === 10) return answer;
    throttled++;
    await new Promise((r) => setTimeout(r, 1000 * Math.max(1, answer.retryAfter)));
  }
}

async function callOnce(method: string, path: string, token?: string, sent?: unknown) {
  const write = method !== 'GET' && method !== 'DELETE';
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(write ? { 'content-type': 'application/json' } : {}),
    },
    body: write ? JSON.stringify(sent ?? {}) : undefined,
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

  const emails: [Caller, string | undefined][] = [
    ['no token', undefined],
    ['other company', 'owner@northwind.test'],
    ['two-site grant', 'asset@demo.test'],
    ['one-site grant', 'site@demo.test'],
    ['read-only', 'entity@demo.test'],
    ['bill validator', 'validator@demo.test'],
  ];
  const callers: [Caller, string | undefined][] = [];
  for (const [caller, email] of emails) callers.push([caller, email ? await tokenOf(email) : undefined]);
  const emailOf = new Map(emails);
  const restricted = new Set<Caller>(['two-site grant', 'one-site grant', 'read-only', 'bill validator']);
  // Each member's home board is made on their first visit: made now, so each lists one.
  for (const token of [owner, ...callers.map(([, t]) => t)])
    if (token) await call('GET', '/users/me/dashboard-data', token);
  const api: Api = call;
  const register = await new Register(api, owner).load();
  const readers = new Map<Caller, Reader>();
  for (const [caller, token] of callers)
    if (token && restricted.has(caller)) readers.set(caller, await readerOf(api, token, owner, register));
  const validator = readers.get('bill validator') as Reader;

  // Items of every kind outside all the restricted callers' grants, so the owner's answer to their
  // lists holds something none of them may see.
  const outside = [...register.assetEntity.keys()].find((site) =>
    [...readers.values()].every((r) => !r.site(site)),
  );
  if (!outside) throw new Error('Every site of Demo Estates is granted to some restricted caller');
  const unmade = await furnish(api, owner, outside);
  const mail = await sendMail(local, api, owner, register, validator, [...readers.values()]);
  await register.load();

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

  const flagged: string[] = [];
  // Each mail, each attachment and each attachment's bill, as every caller: a caller may open a mail
  // when they may read every bill it brought, an attachment and its bill when they may read that bill.
  const mailTally = {
    probes: 0,
    allowed: 0,
    refused: 0,
    leaks: 0,
    overRefused: 0,
    errors: 0,
    ownerAllowed: 0,
  };
  const billOf = async (captureId: string) => register.captureInvoices.get(captureId)?.[0] ?? captureId;
  for (const [caller, token] of callers) {
    const reader = readers.get(caller);
    const billing = reader?.billing === true;
    for (const m of mail) {
      const probes: [string, boolean][] = [];
      let every = true;
      for (const a of m.attachments) {
        const invoice = await billOf(a.captureId);
        const mayBill = reader ? await reader.bill(invoice) : false;
        every &&= mayBill;
        probes.push([`/emails/${m.emailId}/attachments/${a._id}/download`, billing && mayBill]);
        probes.push([`/invoices/${invoice}/download`, mayBill]);
      }
      probes.unshift([`/emails/${m.emailId}`, billing && every]);
      for (const [path, may] of probes) {
        // The control: the owner opens every one, so a refusal above is the grants', not a broken probe.
        if (caller === 'no token') {
          const control = await call('GET', path, owner);
          if (control.status === 200) mailTally.ownerAllowed++;
          else flagged.push(`owner: GET ${path} → ${control.status}, so the probe proves nothing`);
        }
        const { status, body } = await call('GET', path, token);
        mailTally.probes++;
        const ok = status >= 200 && status < 300;
        if (status >= 500) mailTally.errors++;
        else if (ok && may) mailTally.allowed++;
        else if (!ok && !may) mailTally.refused++;
        else if (ok) mailTally.leaks++;
        else mailTally.overRefused++;
        if (status >= 500 || ok !== may)
          flagged.push(
            `${caller}: GET ${path} (${m.what}) → ${status} ${JSON.stringify(body).slice(0, 120)}`,
          );
      }
    }
  }

  let listsRead = 0;
  /** Lists whose owner's answer the check would flag: lists where a leak would have been seen. */
  let controlsCaught = 0;
  let listItemsRead = 0;
  /** Lists read, by the rule that judged them; lists with items that no rule judges. */
  const byRule = new Map<string, number>();
  const unjudged = new Set<string>();
  const controlled = new Set<string>();
  const counts = new Map<Caller, Record<Outcome, number>>();
  const others = new Map<string, number>();
  const started = performance.now();
  /** Routes after which the caller's token no longer works (signing out): the caller signs in again. */
  const sessionEnders = new Set<string>();
  for (const [caller, first] of callers) {
    let token = first;
    let previous: HttpRoute | undefined;
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
      let { status, body } = await call(route.method, path, token);
      const email = emailOf.get(caller);
      if (status === 401 && token && email && (await call('GET', '/users/me', token)).status === 401) {
        // The route before ended the session: sign in again and ask once more.
        sessionEnders.add(
          `${previous ? `${previous.method} ${previous.path}` : '(before the sweep)'} (${caller})`,
        );
        // Sessions end by the second a token was issued in: one issued the same second is ended too.
        await new Promise((r) => setTimeout(r, 1100));
        token = await tokenOf(email);
        ({ status, body } = await call(route.method, path, token));
      }
      previous = route;
      // The credential of a link route (an unsubscribe link) is in the link, not a token.
      const linkRoute = route.auth?.includes('link') === true;
      // A signed-in member's own (their calendar feed's link): anyone who may call it changes only theirs.
      const own = route.sessionOnly === true && !route.path.includes('{');
      const open = theirs === true || linkRoute || own || route.permission === '*' || route.profile === true;
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
      const reader = readers.get(caller);
      if (
        outcome === 'expected 2xx' &&
        token &&
        reader &&
        route.method === 'GET' &&
        !route.path.includes('{')
      ) {
        // Asked again with a page as large as lists answer, as the empty-bodied probe may be a small page.
        const full = await call('GET', `${route.path}?limit=1000`, token);
        const verdict =
          full.status === 200 ? await judgeList(route.path, full.body, reader, register) : undefined;
        if (verdict) {
          listsRead++;
          listItemsRead += verdict.items;
          const name = verdict.rule ?? 'no rule';
          byRule.set(name, (byRule.get(name) ?? 0) + 1);
          if (verdict.rule === undefined && verdict.items > 0) unjudged.add(route.path);
          // The check's control: the owner's answer to the same list, judged by this caller's grants.
          const owners = await call('GET', `${route.path}?limit=1000`, owner);
          const control = await judgeList(route.path, owners.body, reader, register);
          if (control && control.leaks.length > 0) {
            controlsCaught++;
            controlled.add(route.path);
          }
          if (verdict.leaks.length > 0) {
            outcome = 'unexpected 2xx';
            leak = `lists ${verdict.leaks.length} it may not see: ${verdict.leaks.slice(0, 3).join(', ')}`;
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
  console.log('lists read, by the rule that judged them:', Object.fromEntries(byRule));
  console.log(
    `lists whose owner's answer the check flags (${controlled.size}): ${[...controlled].join(', ')}`,
  );
  console.log(
    `routes that end the caller's session (signed in again after each): ${[...sessionEnders].join(', ')}`,
  );
  if (unjudged.size > 0) console.log(`LISTS NO RULE JUDGES: ${[...unjudged].join(', ')}`);
  if (unmade.length > 0) console.log(`NOT MADE before the sweep: ${unmade.join('; ')}`);
  console.log(
    `mail: ${mail.length} mails (${mail.map((m) => m.what).join('; ')}), ${mailTally.probes} probes of mails, attachments and their bills:`,
    mailTally,
  );
  console.table(Object.fromEntries(counts));
  console.log('other 4xx by caller and status:', Object.fromEntries(others));
  console.log(flagged.length === 0 ? 'No unexpected 2xx or 5xx.' : flagged.join('\n'));
} finally {
  await local.stop();
}
