import { describe, expect, it } from 'vitest';
import { findResource, RESOURCES, type ResourceDecl } from '../../shared/system/resources.ts';
import { HTTP_ROUTES, type HttpRoute } from '../../shared/system/routes.ts';

/**
 * Every route that names something by a path parameter says how the caller's reach to it is checked:
 * an item check (02 §6), the company in the path, or one of the reasons below. A route added without any
 * of them fails here.
 */

/**
 * Company resources that no grant narrows: whoever holds the route's permission reaches every item of
 * their company, and another company's id is not in the caller's partition, so it answers 404.
 */
const UNNARROWED_COMPANY_RESOURCES: Record<string, string> = {
  users: 'company members: company admins administer them, owners and company users list them',
  roles: 'company roles: company admins only',
  permissions: 'grants themselves: company admins only',
  settings: 'company settings: company admins only',
  notifications: "the company's notices, read by every member",
  logs: 'the activity log: company admins and company_log',
  emails: "the capture inbox's mail: bill validation roles see all of it",
  'scraper-runs': 'connector runs: company admins only',
  imports: 'imports: company_user only, who reaches every item anyway',
  'import-templates': 'import templates: company_user only',
  automations: 'automations: company admins and view_integrations',
  'automation-runs': 'automation runs: company admins and view_integrations',
  dashboards: "the company's dashboards; their widgets filter data by the read lists (02 §6)",
  widgets: 'widgets: their data is filtered by the read lists when refreshed (02 §6)',
  'report-templates': 'report layouts, holding no portfolio data',
  'scheduled-reports': 'company users only',
  targets:
    'each target is judged by the scope it covers, in its operations (functions/targets/target-access.ts)',
};

/** Reference data of no company: staff change it, everyone (or staff) reads it. */
const GLOBAL_RESOURCES: Record<string, string> = {
  suppliers: 'energy suppliers, shared by every company',
  countries: 'countries, shared by every company',
  companies: 'the company list: staff only; members reach their own through /users/me/company',
  templates: 'supplier bill templates: staff only',
  benchmarks: 'published benchmarks, shared by every company',
  'marketplace/carbon': 'carbon offers, shared by every company',
};

/** Single routes whose parameter names no item a grant could narrow. */
const ROUTE_EXEMPTIONS: Record<string, string> = {
  'PUT /users/{userSub}/company-id':
    "the caller's own record: another user's sub answers 404 in the operation",
  'DELETE /machines/{id}': "a machine credential of the caller's company: company admins only",
  'GET /certificates/{id}': 'a public EPC certificate, of no company',
  'GET /analytics/v1/{id}':
    'an analytics name, not an item: the operation counts only the sites and meters the caller may read',
  'GET /analytics/v2/{id}':
    'an analytics name, not an item: the operation counts only the sites and meters the caller may read',
  'POST /kiosks/{id}/rotate-secret': 'company admins only, who reach every kiosk of their company',
  'DELETE /kiosks/optisigns/screens/{deviceId}':
    "a signage screen, found among the caller's company's kiosks: company admins only",
  'GET /kiosks/{id}/preview':
    'company admins, or the kiosk itself: its operation lets a kiosk show only itself',
  // A document belongs to no account until captured, and may then hold several accounts' bills: the
  // operation hides one that holds a bill the caller may not read (services/capture-access.ts).
  'GET /invoice-capture/{id}/download': 'a document is judged by every bill in it, in the operation',
  'POST /invoice-capture/{id}/start-capture': 'a document is judged by every bill in it, in the operation',
  'PUT /invoice-capture/{id}/start-validation': 'a document is judged by every bill in it, in the operation',
  // The type names a system template; a company-wide report is for company-wide users, checked in the operation.
  'GET /reports/generate/{type}': 'the parameter names a template, not an item',
  'POST /automation/{id}/run':
    "an automation of the caller's company; automations are not narrowed (company admins and view_integrations)",
  'GET /util/asset-finder/{id}': "staff only: any company's site, shown read-only",
  'GET /util/emails/{id}/attachments/{attachmentId}/download': "staff only: every company's mail",
  'GET /analytics/factor-sets/restatements/{jobId}':
    "a restatement job of the caller's company, keyed under it: company admins only",
};

const key = (r: HttpRoute) => `${r.method} ${r.path}`;
const params = (r: HttpRoute) => [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
const narrowed = (r: ResourceDecl) => r.itemType !== undefined || r.parent !== undefined;

/** The resource a path is under, by its longest matching leading segments (`/marketplace/carbon/...`). */
function resourceOf(route: HttpRoute): ResourceDecl | undefined {
  if (route.resource) return findResource(route.resource);
  const segments = route.path.split('/').filter(Boolean);
  for (let n = segments.length; n > 0; n--) {
    const found = findResource(segments.slice(0, n).join('/'));
    if (found) return found;
  }
  return undefined;
}

function exemption(route: HttpRoute): string | undefined {
  const name = resourceOf(route)?.name;
  return (
    ROUTE_EXEMPTIONS[key(route)] ??
    (name ? (UNNARROWED_COMPANY_RESOURCES[name] ?? GLOBAL_RESOURCES[name]) : undefined)
  );
}

describe('item checks on routes (02 §6)', () => {
  it('are declared on every route with a path parameter, unless the company or a stated reason decides', () => {
    const missing = HTTP_ROUTES.filter(
      (r) => params(r).length > 0 && !r.item && !r.companyParam && exemption(r) === undefined,
    ).map(key);
    expect(missing).toEqual([]);
  });

  it('exempt no resource that grants narrow, and no route that is gone or checks its item', () => {
    for (const name of [...Object.keys(UNNARROWED_COMPANY_RESOURCES), ...Object.keys(GLOBAL_RESOURCES)]) {
      const r = findResource(name);
      expect(r, name).toBeDefined();
      expect(r && narrowed(r), name).toBe(false);
    }
    for (const name of Object.keys(UNNARROWED_COMPANY_RESOURCES))
      expect(findResource(name)?.scope, name).toBe('company');
    for (const name of Object.keys(GLOBAL_RESOURCES)) expect(findResource(name)?.scope, name).toBe('global');
    const routes = new Map(HTTP_ROUTES.map((r) => [key(r), r]));
    for (const k of Object.keys(ROUTE_EXEMPTIONS)) {
      expect(routes.has(k), k).toBe(true);
      expect(routes.get(k)?.item, k).toBeUndefined();
    }
  });

  it('name a parameter of their path, and an item that hangs off the type they name', () => {
    const wrong: string[] = [];
    for (const r of HTTP_ROUTES) {
      if (!r.item) continue;
      if (!params(r).includes(r.item.param)) wrong.push(`${key(r)}: no {${r.item.param}}`);
      if (r.item.resource !== undefined) {
        const parent = findResource(r.item.resource)?.parent;
        if (parent?.type !== r.item.type)
          wrong.push(`${key(r)}: ${r.item.resource} does not hang off ${r.item.type}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('check the item of a narrowed resource on every route under /{resource}/{id}', () => {
    const wrong: string[] = [];
    for (const r of RESOURCES.filter(narrowed)) {
      for (const route of HTTP_ROUTES.filter((x) => x.path.startsWith(`/${r.name}/{id}`))) {
        const expected = r.itemType
          ? { type: r.itemType, param: 'id' }
          : { type: r.parent?.type, resource: r.name, param: 'id' };
        const got = route.item && {
          type: route.item.type,
          ...(route.item.resource ? { resource: route.item.resource } : {}),
          param: route.item.param,
        };
        if (JSON.stringify(got) !== JSON.stringify(expected) && exemption(route) === undefined)
          wrong.push(`${key(route)}: ${JSON.stringify(got)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['GET /readings/{id}', 'read'],
    ['PUT /readings/{id}/edit-submission', 'write'],
    ['PATCH /accounts/{id}', 'write'],
    ['GET /asset-groups/{id}/floor-area', 'read'],
    ['PUT /asset-groups/{id}/asset/{assetId}', 'write'],
    ['GET /invoices/{id}/download', 'read'],
    // Validating stores its result: a GET that writes.
    ['GET /invoices/{id}/validate', 'write'],
    ['GET /projects/{id}', 'read'],
    ['DELETE /recommendations/global/{id}', 'write'],
  ])('%s needs %s access to its item', (route, access) => {
    expect(HTTP_ROUTES.find((r) => key(r) === route)?.item?.access).toBe(access);
  });
});
