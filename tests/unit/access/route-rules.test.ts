import { describe, expect, it } from 'vitest';
import {
  acceptsCredential,
  type CredentialKind,
  type RouteRule,
  routeDecision,
  STAFF_READ_ONLY,
  unauthorisedCode,
} from '../../../shared/access/route-rules.ts';
import { HTTP_ROUTES } from '../../../shared/system/routes.ts';
import { subject } from './subjects.ts';

const USER_ROUTE: RouteRule = { permission: ['company_admin'] };
const KIOSK_ROUTE: RouteRule = { permission: [], auth: ['kiosk'] };
const PREVIEW_ROUTE: RouteRule = { permission: ['company_admin'], auth: ['user', 'kiosk'] };
const MACHINE_READ: RouteRule = { permission: ['company_user'], auth: ['user', 'machine'] };
const OWN_ROUTE: RouteRule = { permission: '*', sessionOnly: true };
const COMPANY_ROUTE: RouteRule = { permission: ['company_admin'], companyParam: 'id' };
const SEARCH_ROUTE: RouteRule = { permission: '*', op: 'generic.search' };
const PROFILE_ROUTE: RouteRule = { permission: '*', profile: true };
const ANYONE_ROUTE: RouteRule = { permission: '*' };
const DATA_ROUTE: RouteRule = { permission: ['company_user', 'asset_user'] };
const API_ONLY_KEY = subject(['api_access_only'], { via: 'apiKey' });

describe('which credentials a route accepts', () => {
  const rows: [string, RouteRule, CredentialKind, boolean][] = [
    ['user routes take tokens', USER_ROUTE, 'token', true],
    ['user routes take API keys, which act as their user', USER_ROUTE, 'apiKey', true],
    ['user routes refuse kiosk keys', USER_ROUTE, 'kiosk', false],
    ['user routes refuse machine keys', USER_ROUTE, 'machine', false],
    ['kiosk routes take kiosk keys', KIOSK_ROUTE, 'kiosk', true],
    ['kiosk-only routes refuse tokens', KIOSK_ROUTE, 'token', false],
    ['kiosk-only routes refuse API keys', KIOSK_ROUTE, 'apiKey', false],
    ['a route naming user and kiosk takes both', PREVIEW_ROUTE, 'kiosk', true],
    ['machine reads take machine keys', MACHINE_READ, 'machine', true],
  ];
  it.each(rows)('%s', (_name, route, kind, expected) => {
    expect(acceptsCredential(route, kind)).toBe(expected);
  });

  it.each([
    [USER_ROUTE, undefined, 'UNAUTHORISED'],
    [KIOSK_ROUTE, undefined, 'INVALID_AUTH'],
    [KIOSK_ROUTE, 'kiosk', 'INVALID_AUTH'],
    [{ permission: '*', auth: ['machine'] } as RouteRule, undefined, 'AUTH_ERROR'],
    [MACHINE_READ, 'machine', 'AUTH_ERROR'],
    [USER_ROUTE, 'apiKey', 'UNAUTHORISED'],
  ] as const)('a refused credential on %j (%s) is %s', (route, kind, code) => {
    expect(unauthorisedCode(route, kind)).toBe(code);
  });
});

describe('route decisions', () => {
  const kiosk = subject([], { kind: 'kiosk', via: undefined, kioskId: 'k1' });
  const machine = subject(['company_user'], { kind: 'machine', via: undefined });
  const rows: [string, RouteRule, ReturnType<typeof subject>, Record<string, string>, 'ok' | 403 | 404][] = [
    ['a kiosk on a kiosk route, without user permissions', KIOSK_ROUTE, kiosk, {}, 'ok'],
    ['a kiosk on a user route', USER_ROUTE, kiosk, {}, 403],
    ['a machine on a machine read', MACHINE_READ, machine, {}, 'ok'],
    ['a machine on a user-only route', { permission: '*' }, machine, {}, 403],
    [
      'a machine still needs the permission',
      { permission: ['company_admin'], auth: ['machine'] },
      machine,
      {},
      403,
    ],
    ['a signed-in user on their own credential route', OWN_ROUTE, subject(), {}, 'ok'],
    ['an API key on a credential route', OWN_ROUTE, subject([], { via: 'apiKey' }), {}, 403],
    ['their own company named in the path', COMPANY_ROUTE, subject(['company_admin']), { id: 'c1' }, 'ok'],
    ['another company named in the path', COMPANY_ROUTE, subject(['company_admin']), { id: 'c2' }, 404],
    ['an admin naming any company', COMPANY_ROUTE, subject([], { isAdmin: true }), { id: 'c2' }, 'ok'],
    [
      'without the permission, another company is 403, not 404: ids are not probed',
      COMPANY_ROUTE,
      subject(['company_user']),
      { id: 'c2' },
      403,
    ],
    ['search by an API-only user', SEARCH_ROUTE, subject(['api_access_only']), {}, 403],
    ['search by anyone else', SEARCH_ROUTE, subject([]), {}, 'ok'],
    // API-only users (01 §6): their session reaches the profile page's calls and nothing else.
    ['an API-only session on a profile call', PROFILE_ROUTE, subject(['api_access_only']), {}, 'ok'],
    ["an API-only session on any other '*' call", ANYONE_ROUTE, subject(['api_access_only']), {}, 403],
    [
      'an API-only session that also holds company_user, on a data call',
      DATA_ROUTE,
      subject(['api_access_only', 'company_user']),
      {},
      403,
    ],
    ['an API key of an API-only user on a profile call', PROFILE_ROUTE, API_ONLY_KEY, {}, 'ok'],
    ["an API key of an API-only user on a '*' call", ANYONE_ROUTE, API_ONLY_KEY, {}, 'ok'],
    [
      'an API key of an API-only user holding company_user, on a data call',
      DATA_ROUTE,
      subject(['api_access_only', 'company_user'], { via: 'apiKey' }),
      {},
      'ok',
    ],
    ['an API key of an API-only user on a call their permissions lack', DATA_ROUTE, API_ONLY_KEY, {}, 403],
    [
      'an admin flagged API-only, with a session',
      ANYONE_ROUTE,
      subject(['api_access_only'], { isAdmin: true }),
      {},
      'ok',
    ],
    ['anyone else on a profile call', PROFILE_ROUTE, subject(['company_user']), {}, 'ok'],
  ];
  it.each(rows)('%s', (_name, route, caller, params, expected) => {
    const decision = routeDecision(route, caller, params);
    expect(decision.ok ? 'ok' : decision.status).toBe(expected);
  });
});

describe("an API-only user's session (01 §6: the profile page only, no search)", () => {
  it('reaches exactly the calls of the profile page and of signing in and out', () => {
    const session = subject(['api_access_only']);
    const reachable = HTTP_ROUTES.filter((r) => routeDecision(r, session, {}).ok)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    expect(reachable).toEqual(
      [
        'GET /users/me',
        'PATCH /users/me',
        'GET /users/me/company',
        'GET /users/me/permissions',
        'DELETE /sessions',
        'POST /client-errors',
        'POST /users/me/api-setup',
        'POST /users/me/api-key',
        'GET /users/me/api-usage',
        'GET /users/me/mfa',
        'POST /users/me/mfa/totp',
        'POST /users/me/mfa/totp/verify',
        'DELETE /users/me/mfa/totp',
      ].sort(),
    );
  });

  it("with their API key, reaches every '*' call but the session's own", () => {
    const key = subject(['api_access_only'], { via: 'apiKey' });
    const open = HTTP_ROUTES.filter((r) => r.permission === '*' && (r.auth ?? ['user']).includes('user'));
    const refused = open.filter((r) => !routeDecision(r, key, {}).ok).map((r) => `${r.method} ${r.path}`);
    expect(refused.sort()).toEqual(
      open
        .filter((r) => r.sessionOnly)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    expect(open.length - refused.length).toBeGreaterThan(10);
  });
});

describe('staff looking into a company they are not a member of', () => {
  const looking = subject([], { isAdmin: true, staffView: true });
  const decide = (method: string, path: string) => {
    const route = HTTP_ROUTES.find((r) => r.method === method && r.path === path);
    if (!route) throw new Error(`No route ${method} ${path}`);
    const decision = routeDecision(route, looking, { id: 'c1' });
    return decision.ok ? 'ok' : `${decision.status} ${decision.reason}`;
  };

  it("reads the company's data and changes none of it", () => {
    expect(decide('GET', '/assets/{id}')).toBe('ok');
    expect(decide('GET', '/invoices')).toBe('ok');
    const calls: [string, string][] = [
      ['PATCH', '/assets/{id}'],
      ['POST', '/assets'],
      ['DELETE', '/assets/{id}'],
      ['POST', '/invoices/{id}/confirm'],
      ['PATCH', '/companies/{id}'],
      ['POST', '/companies/{id}/users'],
      ['POST', '/messages'],
    ];
    for (const [method, path] of calls) expect(decide(method, path)).toBe(`403 ${STAFF_READ_ONLY}`);
  });

  it('keeps the staff-only calls, their own account and the kiosk displays', () => {
    const calls: [string, string][] = [
      ['PUT', '/util/product-settings'],
      ['POST', '/companies'],
      ['PATCH', '/emails/{id}'],
      ['PATCH', '/users/me'],
      ['PUT', '/users/{userSub}/company-id'],
      ['DELETE', '/sessions'],
      ['POST', '/kiosks'],
      ['POST', '/kiosks/{id}/rotate-secret'],
      ['POST', '/kiosks/optisigns/screens'],
    ];
    for (const [method, path] of calls) expect(decide(method, path)).toBe('ok');
  });

  it('lets staff preview a report and check a site as the wizard does, since those POSTs only read', () => {
    expect(decide('POST', '/report-templates/preview')).toBe('ok');
    expect(decide('POST', '/assets/wizard-check')).toBe('ok');
    expect(decide('POST', '/companies/{id}/users/{userSub}/welcome-email')).toBe('ok');
    expect(decide('POST', '/report-templates')).toBe(`403 ${STAFF_READ_ONLY}`);
  });

  it('refuses staff in their own company a change to another company named in the path', () => {
    const home = subject([], { isAdmin: true });
    const route = HTTP_ROUTES.find((r) => r.method === 'PATCH' && r.path === '/companies/{id}');
    if (!route) throw new Error('No PATCH /companies/{id}');
    expect(routeDecision(route, home, { id: 'c2' })).toMatchObject({ ok: false, status: 403 });
    expect(routeDecision(route, home, { id: 'c1' }).ok).toBe(true);
  });
});
