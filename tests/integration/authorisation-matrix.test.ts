import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/core/lib/ids.ts';
import { findResource } from '../../shared/system/resources.ts';
import { HTTP_ROUTES, type HttpRoute, type ItemCheck } from '../../shared/system/routes.ts';
import type { TestResponse } from '../support/http-events.ts';
import {
  type AccessFixture,
  areaReads,
  type CompanyWorld,
  type DemoUser,
  type DemoWorld,
  oneSiteMember,
  seedDemoWorld,
  startAccessFixture,
  walkReads,
} from './access-support.ts';

/**
 * Every declared route, called by every demo user (and with no credential, a kiosk key and a machine
 * key), against the outcome the rules of 01 §6 and 02 §6 predict. The prediction below is written from
 * those rules, not from the product's code; a route added anywhere is covered without being listed here.
 */

/**
 * `reached`: the caller may read (and, for a write, write) the real item the route is aimed at, so the
 * operation must answer about it: anything but 401, 403, 500 or the 404 that hides an item. `allowed`:
 * past authorisation on a route whose ids name nothing real, where a 404 is the operation's own answer.
 */
type Outcome = 401 | 403 | 404 | 'allowed' | 'reached';

const COMPANY_WIDE = ['company_user', 'company_admin', 'company_owner', 'company_user_full'];

/** The derivation rules of 01 §6. */
function held(u: Pick<DemoUser, 'permissions' | 'grants'>): Set<string> {
  const out = new Set(u.permissions);
  const any = (k: 'entities' | 'assets' | 'accounts') =>
    u.grants[k].read.length + u.grants[k].write.length > 0;
  if (out.has('company_user') || out.has('company_admin')) {
    for (const p of ['company_user', 'entity_user', 'asset_user', 'account_user']) out.add(p);
  } else if (any('entities')) {
    for (const p of ['entity_user', 'asset_user', 'account_user']) out.add(p);
  }
  if (any('assets')) for (const p of ['asset_user', 'account_user']) out.add(p);
  if (any('accounts')) out.add('account_user');
  return out;
}

/**
 * Route access (01 §6): admins pass; an API-only user's session reaches the profile page's calls and
 * nothing else (their API key is tested on its own); '*' is any signed-in user; a list needs one of it.
 */
function permits(route: HttpRoute, u: Pick<DemoUser, 'isAdmin' | 'permissions' | 'grants'>): boolean {
  if (u.isAdmin) return true;
  if (u.permissions.includes('api_access_only')) return route.profile === true;
  if (route.permission === '*') return true;
  const h = held(u);
  return route.permission.some((p) => h.has(p));
}

/**
 * A grant on the item or any parent of it (account, then asset, then entity and its parents). An item
 * that hangs off nothing (a global recommendation) is for company users only.
 */
function reaches(world: DemoWorld, u: DemoUser, itemId: string, access: 'read' | 'write'): boolean {
  if (u.isAdmin || u.permissions.some((p) => COMPANY_WIDE.includes(p))) return true;
  const granted = new Set(
    (['entities', 'assets', 'accounts'] as const).flatMap((k) =>
      access === 'write' ? u.grants[k].write : [...u.grants[k].read, ...u.grants[k].write],
    ),
  );
  for (let id: string | undefined = itemId; id; id = world.parents.get(id)) if (granted.has(id)) return true;
  return false;
}

const companyOf = (u: DemoUser) => (u.companyId === world.demo.companyId ? world.demo : world.northwind);

/** The real item an item-checked route is aimed at. */
function probeFor(company: CompanyWorld, route: HttpRoute): string {
  const item = route.item as ItemCheck;
  if (!item.resource) return company.probeItems[item.type];
  const name = route.path.startsWith('/recommendations/global/') ? 'recommendations/global' : item.resource;
  const id = company.probes.get(name);
  if (!id) throw new Error(`No probe for ${name}`);
  return id;
}

/**
 * Fills a route's path for a caller of a company: the item check's parameter with the probe, a company
 * parameter with the caller's own, a sub-item and an asset or account named beside the item with real
 * ones. `exact` says whether every id names something real, so a 404 can only be the hidden item's.
 */
function aim(route: HttpRoute, company: CompanyWorld, companyId: string) {
  let exact = true;
  const resource = route.resource ? findResource(route.resource) : resourceUnder(route.path);
  const path = fill(route, (param) => {
    if (route.item?.param === param) return probeFor(company, route);
    if (route.companyParam === param) return companyId;
    const sub = route.subResource ?? route.path.split('/')[3];
    const subProbe = resource && company.subProbes.get(`${resource.name}/${sub}`);
    if (param === 'subId' && subProbe) return subProbe;
    if (param === 'assetId' || param === 'assetIds') return company.probeItems.assets;
    if (param === 'accountId') return company.probeItems.accounts;
    // `invoiceId`, `recommendationId`: the probe of that resource, which hangs off the same site or account.
    const named = company.probes.get(`${param.replace(/Id$/, '')}s`);
    if (named) return named;
    exact = false;
    return newId();
  });
  return { path, exact: exact && route.item !== undefined };
}

/**
 * Calls that change a thread's post or a sub-item for its author alone: the probe, written by no demo
 * user, is nobody's own.
 */
const AUTHOR_ONLY = new Set([
  'POST /messages/{id}/attachments',
  'PATCH /messages/{id}/replies/{subId}',
  'DELETE /messages/{id}/replies/{subId}',
]);

function expectedFor(world: DemoWorld, route: HttpRoute, u: DemoUser, exact: boolean): Outcome {
  // A link from an e-mail (unsubscribe) is its own credential: it answers whoever follows it, alike.
  if (route.auth?.includes('link')) return 'allowed';
  if (!(route.auth ?? ['user']).includes('user')) return 401;
  if (!permits(route, u)) return 403;
  if (!route.item) return 'allowed';
  const id = probeFor(companyOf(u), route);
  if (!reaches(world, u, id, 'read')) return 404;
  if (route.item.access === 'write' && !reaches(world, u, id, 'write')) return 403;
  if (AUTHOR_ONLY.has(`${route.method} ${route.path}`)) return 403;
  return exact ? 'reached' : 'allowed';
}

/** The resource a path is under, by its longest matching leading segments (`/marketplace/carbon/...`). */
function resourceUnder(path: string) {
  const segments = path.split('/').filter(Boolean);
  for (let n = segments.length; n > 0; n--) {
    const found = findResource(segments.slice(0, n).join('/'));
    if (found) return found;
  }
  return undefined;
}

function fill(route: HttpRoute, values: (param: string) => string): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values(name)));
}

/** The answer that hides an item: the same as for one that does not exist (02 §6). */
const hidden = (res: TestResponse) =>
  res.status === 404 && res.body.code === 'NOT_FOUND' && res.body.message === 'Not found';

/**
 * Past authorisation, what an operation answers is its own business: 2xx, 400 for the empty body sent
 * here, 409 or 422 for a state it refuses, 404 with its own message (a reading without a photo), 502 when
 * an outside service the test does not run is unreachable. Never 401 or 403, never a 500, and on a real
 * item it may read, never the hiding 404.
 */
function matches(outcome: Outcome, res: TestResponse): boolean {
  if (outcome === 'allowed') return ![401, 403, 500].includes(res.status);
  if (outcome === 'reached') return ![401, 403, 500].includes(res.status) && !hidden(res);
  if (outcome === 404) return res.status === 404 && res.body.code === 'NOT_FOUND';
  return res.status === outcome;
}

let fx: AccessFixture;
let world: DemoWorld;
const covered = new Map<string, number>();
const mark = (route: HttpRoute) => {
  const key = `${route.method} ${route.path}`;
  covered.set(key, (covered.get(key) ?? 0) + 1);
};

async function send(route: HttpRoute, path: string, headers: Record<string, string>, token?: string) {
  const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
  return fx.api({ method: route.method, path, token, headers, body });
}

beforeAll(async () => {
  fx = await startAccessFixture({ aws: true });
  world = await seedDemoWorld(fx);
});
afterAll(async () => fx?.stop());

describe('authorisation matrix', () => {
  it('answers 401 on every route without credentials', async () => {
    const wrong: string[] = [];
    for (const route of HTTP_ROUTES) {
      const res = await send(
        route,
        fill(route, () => newId()),
        {},
      );
      // Only a link from an e-mail answers without credentials, and then as to anyone: never a 401 or 500.
      const open = route.auth?.includes('link') === true;
      if (open ? [401, 403, 500].includes(res.status) : res.status !== 401)
        wrong.push(`${route.method} ${route.path}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('gives every demo user exactly what the rules allow, on every route', { timeout: 300_000 }, async () => {
    const wrong: string[] = [];
    const outcomes = new Map<Outcome, number>();
    // Route by route, deletes last, and the probes a call changed or deleted written back after it: every
    // caller meets the same items.
    // Signing out (DELETE /sessions) ends every token the caller holds, so it comes last of all.
    const rank = (r: HttpRoute) => (r.method === 'DELETE' ? (r.path === '/sessions' ? 2 : 1) : 0);
    const order = [...HTTP_ROUTES].sort((a, b) => rank(a) - rank(b));
    const seededIds = new Set(
      [world.demo, world.northwind].flatMap((c) => [
        ...Object.values(c.probeItems),
        ...c.probes.values(),
        ...c.subProbes.values(),
      ]),
    );
    for (const route of order) {
      for (const u of world.users) {
        const company = companyOf(u);
        const { path, exact } = aim(route, company, u.companyId);
        const expected = expectedFor(world, route, u, exact);
        outcomes.set(expected, (outcomes.get(expected) ?? 0) + 1);
        const res = await send(route, path, {}, u.token);
        mark(route);
        if (!matches(expected, res)) {
          wrong.push(
            `${u.email} ${route.method} ${path}: expected ${expected}, got ${res.status} ${String(res.body.code ?? '')} ${String(res.body.message ?? '')}`,
          );
        }
        if (route.method !== 'GET' && res.status < 300) {
          for (const id of path.split('/')) if (seededIds.has(id)) await world.reseed(id);
        }
      }
    }
    // Tokens count whole seconds: the next second's token outlives the sign-out the matrix just made.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const u of world.users) u.token = fx.fx.issuer.accessToken(u.sub);
    expect(wrong).toEqual([]);
    expect(covered.size).toBe(HTTP_ROUTES.length);
    expect([...covered.values()].every((n) => n === world.users.length)).toBe(true);
    // The item checks are tested both ways: on items their callers really reach, and on items hidden from them.
    expect(outcomes.get('reached')).toBeGreaterThan(500);
    expect(outcomes.get(404)).toBeGreaterThan(250);
  });

  it("never lets one company reach another's items: Northwind's owner on Demo Estates ids", async () => {
    const outsider = world.user('owner@northwind.test');
    const demoMember = world.user('owner@demo.test');
    const wrong: string[] = [];
    let probed = 0;
    for (const route of HTTP_ROUTES) {
      if (!route.path.includes('{')) continue;
      // Company data: an item check, a company in the path, or a path under a company resource. Reference
      // data (suppliers, countries, EPC certificates) is shared by every company by design.
      const resource = route.resource ? findResource(route.resource) : resourceUnder(route.path);
      const companyData = route.item || route.companyParam || resource?.scope === 'company';
      if (!companyData && !['/users/', '/kiosks/', '/machines/'].some((p) => route.path.startsWith(p)))
        continue;
      const path = fill(route, (param) => {
        if (route.item?.param === param) return probeFor(world.demo, route);
        if (route.companyParam === param || (route.resource === 'companies' && param === 'id'))
          return world.demo.companyId;
        if (param === 'userSub' || (route.resource === 'users' && param === 'id')) return demoMember.sub;
        if (param === 'id' && route.path.startsWith('/machines/')) return world.demo.machineId;
        if (param === 'id' && route.path.startsWith('/kiosks/')) return world.demo.kioskId;
        if (param === 'id' && resource?.itemType) return world.demo.probeItems[resource.itemType];
        if (param === 'id' && resource) return world.demo.probes.get(resource.name) ?? newId();
        if (param === 'assetId' || param === 'assetIds') return world.demo.probeItems.assets;
        if (param === 'accountId') return world.demo.probeItems.accounts;
        return newId();
      });
      const expected: Outcome = !(route.auth ?? ['user']).includes('user')
        ? 401
        : permits(route, outsider)
          ? 404
          : 403;
      const res = await send(route, path, {}, outsider.token);
      probed++;
      if (!matches(expected, res))
        wrong.push(
          `${route.method} ${path}: expected ${expected}, got ${res.status} ${String(res.body.code ?? '')}`,
        );
    }
    expect(wrong).toEqual([]);
    expect(probed).toBeGreaterThan(100);
  });

  it('lets a kiosk key reach only the routes that name kiosks, and a machine key only machine reads', async () => {
    const kiosk = { 'x-kiosk-key': `${world.demo.kioskId}:probe-secret` };
    const machine = { 'x-key': `${world.demo.machineId}:probe-key` };
    const machineCaller = {
      isAdmin: false,
      permissions: ['company_user'],
      grants: world.user('user@demo.test').grants,
    };
    const wrong: string[] = [];
    for (const route of HTTP_ROUTES) {
      const auth = route.auth ?? ['user'];
      const path = fill(route, (param) =>
        param === 'id' && route.path.startsWith('/kiosks/') ? world.demo.kioskId : newId(),
      );
      const k = await send(route, path, kiosk);
      const link = auth.includes('link');
      if (
        link
          ? [401, 403, 500].includes(k.status)
          : auth.includes('kiosk')
            ? k.status !== 200
            : k.status !== 401
      )
        wrong.push(`kiosk ${route.method} ${path}: ${k.status}`);
      const m = await send(
        route,
        fill(route, () => newId()),
        machine,
      );
      const expected: Outcome = link
        ? 'allowed'
        : !auth.includes('machine')
          ? 401
          : permits(route, machineCaller)
            ? 'allowed'
            : 403;
      if (!matches(expected, m))
        wrong.push(`machine ${route.method} ${route.path}: expected ${expected}, got ${m.status}`);
    }
    expect(wrong).toEqual([]);
  });
});

/** The areas whose every read is walked as a caller granted one site. */
const GRANTED_AREAS = ['invoices', 'accounts', 'assets'];

/** Read routes that answer nothing without their query: the query a page sends them with. */
const QUERIES: Record<string, string> = {
  '/invoice-validation/queue': 'group=open',
  '/invoices/search': 'query=grant',
  '/invoice-validation/search': 'query=grant',
  '/accounts/search': 'query=grant',
  '/assets/search': 'query=grant',
  '/projects/search': 'query=grant',
  '/readings/search': 'query=grant',
};

describe('grants inside a company: a caller granted one site', () => {
  it('meets no item of another site on any read of bills, meters and sites', {
    timeout: 300_000,
  }, async () => {
    const { putItem, declaredRef } = await import('../../functions/core/data/item-repository.ts');
    const { putCapture } = await import('../../functions/invoices/invoice-repository.ts');
    const { saveContract } = await import('../../functions/accounts/contract-store.ts');
    const { childRef } = await import('../../functions/core/resources/resource-refs.ts');
    const demo = world.demo;
    const companyId = demo.companyId;
    const now = new Date().toISOString();

    // The granted site holds none of the probes, so every probe hangs off a site out of reach.
    const probeSites = new Set([demo.probeItems.assets, world.parents.get(demo.probeItems.accounts)]);
    const site = [...demo.assets.values()].find((id) => !probeSites.has(id)) as string;
    expect(site).toBeDefined();
    const offSite = (id: string | undefined): boolean => {
      let onSomeSite = false;
      for (let at = id; at; at = world.parents.get(at)) {
        if (at === site) return false;
        if ([...demo.assets.values()].includes(at)) onSomeSite = true;
      }
      return onSomeSite;
    };

    // A meter with a bill (captured, validated, with a contract) on the granted site, and its twin on a
    // site out of reach, on the probe meter.
    const bill = async (accountId: string, number: string) => {
      const id = newId();
      const common = { _id: id, companyId, accountId, invoiceNumber: number, createdAt: now, updatedAt: now };
      const key = `invoices/${companyId}/${id}/${number}.pdf`;
      await putItem(declaredRef('invoices', { companyId }), {
        ...common,
        fileName: `${number}.pdf`,
        key,
        captureId: id,
        status: 'captured',
        completed: false,
        source: 'upload',
        values: { grossTotal: 120 },
        rates: [],
      });
      await putItem(declaredRef('invoice-validation', { companyId }), {
        ...common,
        invoiceId: id,
        status: 'failed',
        completed: false,
        hold: false,
        tags: ['grant'],
        displayName: number,
      });
      await putCapture(companyId, {
        ...common,
        batchId: id,
        fileName: `${number}.pdf`,
        key,
        source: 'upload',
        status: 'done',
        invoiceIds: [id],
      });
      const contract = newId();
      await saveContract(companyId, accountId, {
        _id: contract,
        companyId,
        accountId,
        name: `Grant contract ${number}`,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        createdAt: now,
        updatedAt: now,
        file: { key: `contracts/${companyId}/${contract}.pdf`, fileName: `${number}.pdf` },
      });
      return { id, contract };
    };
    /** A project, a reading and documents on a site and its meter. */
    const onSite = async (assetId: string, accountId: string, name: string) => {
      const project = newId();
      const reading = newId();
      const document = newId();
      const projectDocument = newId();
      const item = { companyId, createdAt: now, updatedAt: now };
      await putItem(declaredRef('projects', { companyId }), {
        ...item,
        _id: project,
        name: `${name} project`,
        assetId,
        status: 'in-progress',
      });
      await putItem(declaredRef('readings', { companyId }), {
        ...item,
        _id: reading,
        accountId,
        date: '2026-01-15',
        value: 100,
        photo: { key: `readings/${companyId}/${reading}.jpg` },
      });
      await putItem(childRef(companyId, 'assets', assetId, 'documents'), {
        ...item,
        _id: document,
        assetId,
        name: `${name} lease`,
        key: `assets/${assetId}/documents/${document}/lease.pdf`,
        fileName: 'lease.pdf',
      });
      await putItem(childRef(companyId, 'projects', project, 'documents'), {
        ...item,
        _id: projectDocument,
        projectId: project,
        name: `${name} quote`,
        key: `projects/${project}/documents/${projectDocument}/quote.pdf`,
        fileName: 'quote.pdf',
      });
      return { project, reading, document, projectDocument };
    };
    const meter = newId();
    await putItem(declaredRef('accounts', { companyId }), {
      _id: meter,
      companyId,
      name: 'Grant meter',
      type: 'electricity',
      assetId: site,
      status: 'active',
      tags: ['grant-visible'],
      createdAt: now,
      updatedAt: now,
    });
    world.parents.set(meter, site);
    const { id: mine } = await bill(meter, 'GRANT-MINE');
    world.parents.set(mine, meter);
    const { id: theirs, contract: theirContract } = await bill(demo.probeItems.accounts, 'GRANT-THEIRS');
    world.parents.set(theirs, demo.probeItems.accounts);
    world.parents.set(theirContract, demo.probeItems.accounts);
    const ours = await onSite(site, meter, 'Granted');
    for (const id of [ours.project, ours.document]) world.parents.set(id, site);
    world.parents.set(ours.reading, meter);
    world.parents.set(ours.projectDocument, ours.project);
    const other = await onSite(demo.probeItems.assets, demo.probeItems.accounts, 'Hidden');
    for (const id of [other.project, other.document]) world.parents.set(id, demo.probeItems.assets);
    world.parents.set(other.reading, demo.probeItems.accounts);
    world.parents.set(other.projectDocument, other.project);

    const token = await oneSiteMember(fx, companyId, site, {
      email: 'one-site@demo.test',
      permissions: ['bill_validation'],
    });

    // Every item of the company that hangs off a site other than the granted one.
    const subProbeParent = (key: string) => {
      const name = key.slice(0, key.lastIndexOf('/'));
      const decl = findResource(name);
      return decl?.itemType ? demo.probeItems[decl.itemType] : demo.probes.get(name);
    };
    const outOfReach = new Set(
      [
        ...demo.assets.values(),
        ...demo.accounts.values(),
        ...demo.probes.values(),
        theirs,
        theirContract,
        ...Object.values(other),
      ].filter(offSite),
    );
    for (const [key, id] of demo.subProbes) if (offSite(subProbeParent(key))) outOfReach.add(id);
    expect(outOfReach.has(theirs)).toBe(true);
    expect(outOfReach.has(demo.probeItems.assets)).toBe(true);

    // What a route's id names: on the granted site, or (for every id beside the item's) out of reach.
    const granted: Record<string, string> = {
      assets: site,
      accounts: meter,
      invoices: mine,
      'invoice-validation': mine,
      projects: ours.project,
      readings: ours.reading,
    };
    const hidden: Record<string, string> = {
      invoices: theirs,
      'invoice-validation': theirs,
      projects: other.project,
      readings: other.reading,
    };
    const hiddenFor = (param: string, route: HttpRoute): string => {
      if (param === 'invoiceId' || param === 'creditNoteId') return theirs;
      if (param === 'contractId') return theirContract;
      if (param === 'documentId')
        return route.path.startsWith('/projects/') ? other.projectDocument : other.document;
      if (param === 'subId') {
        const resource = route.resource ?? route.path.split('/')[1];
        return demo.subProbes.get(`${resource}/${route.subResource ?? route.path.split('/')[3]}`) ?? newId();
      }
      return demo.probes.get(`${param.replace(/Id$/, '')}s`) ?? theirs;
    };
    const aimAt = (route: HttpRoute, reach: 'granted' | 'hidden') =>
      fill(route, (param) => {
        if (route.item?.param === param) {
          const kind = route.item.resource ?? route.item.type;
          if (reach === 'hidden') return hidden[kind] ?? probeFor(demo, route);
          return granted[kind] ?? newId();
        }
        if (!route.item && param === 'id') return reach === 'hidden' ? theirs : mine;
        return hiddenFor(param, route);
      });

    const reads = await areaReads(GRANTED_AREAS);
    expect(reads.length).toBeGreaterThan(50);

    const mustSee = [site, meter, mine, ours.project, ours.reading];
    const { leaks, answered, seen } = await walkReads(fx, token, reads, {
      aimAt: (route, reach) => {
        const query = QUERIES[route.path];
        return `${aimAt(route, reach)}${query ? `?${query}` : ''}`;
      },
      mustSee,
      leaksIn: (path, res, text) => {
        const found = [...outOfReach].filter((id) => text.includes(id)).map((id) => `${path}: ${id}`);
        if (text.includes('GRANT-THEIRS')) found.push(`${path}: the bill out of reach`);
        const data = res.body.data;
        if (Array.isArray(data) && typeof res.body.total === 'number' && res.body.total !== data.length)
          found.push(`${path}: total ${res.body.total} for ${data.length} items`);
        return found;
      },
    });
    expect(leaks).toEqual([]);
    // The walk read the granted site's own items: the caller was not simply refused everything.
    expect([...seen].sort()).toEqual([...mustSee].sort());
    expect(answered.get(200)).toBeGreaterThan(30);

    // The counts of bills are those of the granted meter alone.
    const stats = await fx.api({ method: 'GET', path: '/invoices/validation-stats', token });
    expect(stats.body.total).toBe(1);
    for (const path of ['/invoices/validation', '/invoices', '/invoice-validation']) {
      const list = await fx.api({ method: 'GET', path, token });
      expect(
        (list.body.data as { _id: string }[]).map((i) => i._id),
        path,
      ).toEqual([mine]);
    }
  });
});
