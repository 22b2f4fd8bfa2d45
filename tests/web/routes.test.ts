import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { canSeeCompanySettings, canUseRoute } from '../../shared/access/route-access.ts';
import { activeTarget, SIDEBAR, visibleRoutes, visibleSidebar } from '../../web/app/navigation.ts';
import { APP_ROUTES, type AppRoute } from '../../web/app/routes.ts';
import type { AccessSubject } from '../../web/lib/session.ts';
import {
  ADMIN,
  API_ONLY,
  ASSET_ONLY,
  COMPANY_USER,
  INTEGRATIONS_VIEWER,
  OWNER,
  VALIDATOR,
} from './access-fixtures.ts';

const labels = (access: AccessSubject) =>
  visibleSidebar(access).flatMap((s) => s.items.map((i) => `${s.title ?? ''}/${i.label}`));
const titles = (access: AccessSubject) => visibleSidebar(access).map((s) => s.title);

function routeFor(pathname: string): AppRoute | undefined {
  const matches = matchRoutes(
    APP_ROUTES.map((r) => ({ path: r.path, handle: r })),
    pathname,
  );
  return matches?.at(-1)?.route.handle as AppRoute | undefined;
}

const may = (access: AccessSubject, pathname: string) => {
  const route = routeFor(pathname);
  if (!route) throw new Error(`no route for ${pathname}`);
  return canUseRoute(route.permission, access);
};

describe('the sidebar', () => {
  it('marks one item current: the most specific that the path lies under', () => {
    expect(activeTarget(SIDEBAR, '/invoice-validation/invoice-captures')).toBe(
      '/invoice-validation/invoice-captures',
    );
    expect(activeTarget(SIDEBAR, '/invoice-validation/failed')).toBe('/invoice-validation');
    expect(activeTarget(SIDEBAR, '/assets/abc/overview')).toBe('/assets');
    expect(activeTarget(SIDEBAR, '/')).toBe('/');
    expect(activeTarget(SIDEBAR, '/nowhere')).toBeUndefined();
  });

  it('has the sections and items of the specification, in order', () => {
    expect(SIDEBAR.map((s) => [s.title, s.items.map((i) => i.label)])).toEqual([
      [null, ['Dashboard']],
      ['Management', ['Sites', 'Portfolios', 'Entities', 'Import Data']],
      ['Tools', ['Bill Validation', 'Bill Validation BETA', 'Data Coverage']],
      ['Insights', ['Consumption', 'Emissions', 'Costs', 'Benchmarks', 'Targets', 'Reports']],
      ['Automation', ['Connectors', 'Integrations']],
      ['Company admin', ['Users', 'Settings', 'Activity Log']],
      ['Admin', ['Admin Overview', 'Suppliers']],
    ]);
    const coverage = SIDEBAR.flatMap((s) => s.items).find((i) => i.label === 'Data Coverage');
    expect(coverage?.disabled).toBe(true);
  });

  it('shows an admin every item', () => {
    expect(labels(ADMIN)).toHaveLength(SIDEBAR.flatMap((s) => s.items).length);
  });

  it('hides Company admin and Admin from a user with asset grants only', () => {
    expect(titles(ASSET_ONLY)).not.toContain('Company admin');
    expect(titles(ASSET_ONLY)).not.toContain('Admin');
    expect(labels(ASSET_ONLY)).toContain('Management/Sites');
    expect(labels(ASSET_ONLY)).toContain('Insights/Emissions');
    expect(labels(ASSET_ONLY)).not.toContain('Management/Import Data');
    expect(labels(ASSET_ONLY)).not.toContain('Automation/Connectors');
  });

  it('shows an API-only user nothing', () => {
    expect(visibleSidebar(API_ONLY)).toEqual([]);
  });

  it('gives a company user the users list but not the company settings or the admin area', () => {
    expect(labels(COMPANY_USER)).toContain('Company admin/Users');
    expect(labels(COMPANY_USER)).not.toContain('Company admin/Settings');
    expect(titles(COMPANY_USER)).not.toContain('Admin');
  });

  it('shows a company owner the company admin section but not the staff admin section', () => {
    expect(labels(OWNER)).toEqual(
      expect.arrayContaining(['Company admin/Users', 'Company admin/Settings', 'Company admin/Activity Log']),
    );
    expect(titles(OWNER)).not.toContain('Admin');
  });

  it('shows bill validation to a validator, but not its BETA', () => {
    expect(labels(VALIDATOR)).toContain('Tools/Bill Validation');
    expect(labels(VALIDATOR)).not.toContain('Tools/Bill Validation BETA');
  });
});

describe('the route table', () => {
  it('lets an API-only user reach the profile page and nothing else', () => {
    expect(visibleRoutes(API_ONLY).map((r) => r.path)).toEqual(['/profile']);
  });

  it('lets an admin reach every route', () => {
    expect(visibleRoutes(ADMIN)).toHaveLength(APP_ROUTES.length);
  });

  it('names every route once and declares every path once', () => {
    expect(new Set(APP_ROUTES.map((r) => r.name)).size).toBe(APP_ROUTES.length);
    expect(new Set(APP_ROUTES.map((r) => r.path)).size).toBe(APP_ROUTES.length);
  });

  it.each([
    ['/', 'Home'],
    ['/profile', 'profile'],
    ['/notifications', 'notifications'],
    ['/new-entity', 'entity-wizard'],
    ['/new-account', 'account-wizard'],
    ['/accounts/abc', 'account-view'],
    ['/admin', 'admin-dashboard'],
    ['/admin/tools/gas-prediction', 'admin-tools-gas-prediction'],
    ['/admin/gridfetch/usage', 'admin-gridfetch-usage'],
    ['/analytics/costs', 'analytics-costs'],
    ['/assets', 'asset-list'],
    ['/assets/wizard', 'asset-wizard'],
    ['/assets/a1/overview', 'asset-overview'],
    ['/assets/a1/accounts/b2/credit-notes', 'asset-account-credit-notes'],
    ['/assets/a1/discussion', 'asset-discussion'],
    ['/assets/a1/discussion/m3', 'asset-discussion'],
    ['/assets/a1/reports/epc/download', 'asset-reports-reportType-download'],
    ['/assets/a1/projects/p1/edit', 'asset-projects-projectId-edit'],
    ['/assets/a1/documents/c1', 'asset-documents-certificateId'],
    ['/automation/runs', 'automation-runs'],
    ['/benchmarks/reeb', 'benchmarks-reeb'],
    ['/companies/create', 'company-create'],
    ['/company/log', 'company-log'],
    ['/company/users/u1/edit', 'company-users-userId-edit'],
    ['/company/permissions/create', 'company-permissions-create'],
    ['/entities/import', 'entity-import'],
    ['/entities/e1/structure', 'entity-structure'],
    ['/imports/i1/detail', 'import-detail'],
    ['/imports/wizard/i1/mapping', 'import-wizard-id-mapping'],
    ['/invoices/upload', 'invoice-upload'],
    ['/invoice-validation/invoice-captures', 'invoice-captures'],
    ['/invoice-validation/v1', 'invoice-validation-id'],
    ['/marketplace/carbon/c1', 'marketplace-carbon-id'],
    ['/portfolios/p1/reports/summary/download', 'portfolio-reports-reportType-download'],
    ['/reports/r1/chart', 'reports-id-chart'],
    ['/connectors/manage', 'connectors-manage'],
    ['/suppliers/s1/templates/waste', 'supplier-templates-waste'],
    ['/targets/manage', 'targets-manage'],
  ])('serves %s as %s', (pathname, name) => {
    expect(routeFor(pathname)?.name).toBe(name);
  });

  it('sends the bare area paths to their default sub-page', () => {
    const redirects = Object.fromEntries(
      APP_ROUTES.filter((r) => r.redirectTo).map((r) => [r.path, r.redirectTo]),
    );
    expect(redirects['/analytics']).toBe('/analytics/emissions');
    expect(redirects['/benchmarks']).toBe('/benchmarks/crrem');
    expect(redirects['/invoice-validation']).toBe('/invoice-validation/failed');
    expect(redirects['/connectors']).toBe('/connectors/dashboard');
    expect(redirects['/portfolios/:id']).toBe('/portfolios/:id/assets');
    expect(redirects['/entities/:id']).toBe('/entities/:id/structure');
    expect(redirects['/admin/tools']).toBe('/admin/tools/stats');
    expect(redirects['/admin/gridfetch']).toBe('/admin/gridfetch/loa');
  });

  it('applies the key route permissions of the specification', () => {
    expect(may(OWNER, '/company/manage')).toBe(true);
    expect(may(COMPANY_USER, '/company/manage')).toBe(false);
    expect(may(COMPANY_USER, '/company/users')).toBe(true);
    expect(may(ASSET_ONLY, '/company/users')).toBe(false);
    for (const path of ['/admin', '/suppliers']) {
      expect(may(OWNER, path)).toBe(false);
      expect(may(ADMIN, path)).toBe(true);
    }
    // Targets are for everyone who runs the portfolio; the API shows each the scopes they may read.
    expect(may(OWNER, '/targets/dashboard')).toBe(true);
    expect(may(ASSET_ONLY, '/targets/manage')).toBe(true);
    expect(may(COMPANY_USER, '/imports')).toBe(true);
    expect(may(ASSET_ONLY, '/imports')).toBe(false);
    expect(may(COMPANY_USER, '/marketplace/carbon')).toBe(true);
    expect(may(ASSET_ONLY, '/entities/import')).toBe(false);
    expect(may(OWNER, '/connectors/dashboard')).toBe(true);
    expect(may(COMPANY_USER, '/connectors/dashboard')).toBe(false);
    expect(may(INTEGRATIONS_VIEWER, '/automation/manage')).toBe(true);
    expect(may(COMPANY_USER, '/automation/manage')).toBe(false);
    expect(may(INTEGRATIONS_VIEWER, '/company/log')).toBe(true);
    expect(may(VALIDATOR, '/invoices/upload')).toBe(true);
    expect(may(COMPANY_USER, '/invoices/upload')).toBe(false);
  });

  it('gives the Company Settings link to company owners and admins only', () => {
    expect(canSeeCompanySettings(OWNER)).toBe(true);
    expect(canSeeCompanySettings(ADMIN)).toBe(true);
    expect(canSeeCompanySettings(COMPANY_USER)).toBe(false);
  });
});
