import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { canChange, canUseRoute } from '../../shared/access/route-access.ts';
import { SYSTEM_TEMPLATES } from '../../shared/reports/report-templates.ts';
import type { AccountView } from '../../shared/schemas/account-views.ts';
import { StaffViewBanner } from '../../web/app/layout/staff-view-banner.tsx';
import { routeByPath } from '../../web/app/routes.ts';
import { accountTabs } from '../../web/components/account-frame.tsx';
import { AccountWizardPage } from '../../web/features/accounts/account-wizard-page.tsx';
import { AssetAccountsPage } from '../../web/features/accounts/asset-accounts-page.tsx';
import { StatusHistoryPanel } from '../../web/features/accounts/status-history-panel.tsx';
import { AssetDocuments } from '../../web/features/assets/asset-documents-page.tsx';
import { assetTabs } from '../../web/features/assets/asset-frame.tsx';
import { AssetPictures } from '../../web/features/assets/asset-pictures.tsx';
import { AutomationManagePage } from '../../web/features/automation/automation-manage-page.tsx';
import { CompanyManagePage } from '../../web/features/company/company-manage-page.tsx';
import { GrantSetListPage } from '../../web/features/company/grant-set-pages.tsx';
import { RoleCreatePage, RoleListPage } from '../../web/features/company/role-pages.tsx';
import { UserCreatePage } from '../../web/features/company/user-form-page.tsx';
import { UserListPage } from '../../web/features/company/user-list-page.tsx';
import { ConnectorManagePage } from '../../web/features/connectors/connector-manage-page.tsx';
import { EntityEditPage } from '../../web/features/entities/entity-edit-page.tsx';
import { EntityLayout } from '../../web/features/entities/entity-layout.tsx';
import { ImportListPage } from '../../web/features/imports/import-list-page.tsx';
import { ImportMappingPage } from '../../web/features/imports/import-mapping-page.tsx';
import { ImportPreviewPage } from '../../web/features/imports/import-preview-page.tsx';
import { ImportRunPage } from '../../web/features/imports/import-run-page.tsx';
import { ImportUploadPage } from '../../web/features/imports/import-upload-page.tsx';
import { AccountInvoicesPage } from '../../web/features/invoices/account-invoices-page.tsx';
import type { InvoiceView } from '../../web/features/invoices/api.ts';
import { InvoiceValuesForm } from '../../web/features/invoices/invoice-values-form.tsx';
import { ValidationNav } from '../../web/features/invoices/validation-nav.tsx';
import { PortfolioCreatePage } from '../../web/features/portfolios/portfolio-form-pages.tsx';
import { PortfolioManagePage } from '../../web/features/portfolios/portfolio-manage-page.tsx';
import { GlobalRecommendationsPage } from '../../web/features/recommendations/global-recommendations-page.tsx';
import type { ReportView } from '../../web/features/reports/api.ts';
import { SiteReportDownloadPage } from '../../web/features/reports/report-download-page.tsx';
import { ReportActions } from '../../web/features/reports/report-parts.tsx';
import { ReportTemplatesPage } from '../../web/features/reports/report-templates-page.tsx';
import { ReportHistoryPage, ReportsPage } from '../../web/features/reports/reports-page.tsx';
import { ReportSchedulePage } from '../../web/features/reports/schedule-page.tsx';
import type { Scopes } from '../../web/features/targets/api.ts';
import { TargetDashboardPage } from '../../web/features/targets/target-dashboard-page.tsx';
import { TargetManagePage } from '../../web/features/targets/target-manage-page.tsx';
import { ApiError } from '../../web/lib/api-client.ts';
import { type Services, ServicesProvider, SessionProvider } from '../../web/lib/app-context.tsx';
import type { AssetView } from '../../web/lib/asset-api.ts';
import { mayChangeItem } from '../../web/lib/may-change.ts';
import { accessOf, type Me, type MyPermissions, type Session } from '../../web/lib/session.ts';
import { renderHtml, textOf } from './render.tsx';

const EMPTY = { read: [], write: [] };
const mine: MyPermissions = { permissions: ['admin'], entities: EMPTY, assets: EMPTY, accounts: EMPTY };

function session(companyId: string): Session {
  const me: Me = {
    _id: 'staff',
    sub: 'staff',
    isAdmin: true,
    companyId,
    companies: ['demo'],
    staffView: companyId !== 'demo',
    roles: [],
    isEntityGroupUser: false,
    permissions: ['admin'],
    role: null,
    apiKey: null,
  };
  const name = companyId === 'demo' ? 'Demo Estates Ltd' : 'Northwind Property Co';
  return { me, company: { _id: companyId, name }, permissions: mine, access: accessOf(me, mine) };
}

const rendered = (s: Session, node: ReactNode) =>
  textOf(
    renderHtml(
      <MemoryRouter>
        <ServicesProvider services={{ api: {}, auth: {} } as unknown as Services}>
          <SessionProvider session={s}>{node}</SessionProvider>
        </ServicesProvider>
      </MemoryRouter>,
    ),
  );

const banner = (s: Session) => rendered(s, <StaffViewBanner />);

/** A user of the demo company who is not a company user: only the grants given. */
function granted(grants: {
  assets?: MyPermissions['assets'];
  entities?: MyPermissions['entities'];
}): Session {
  const me: Me = {
    _id: 'u',
    sub: 'u',
    isAdmin: false,
    companyId: 'demo',
    companies: ['demo'],
    roles: [],
    isEntityGroupUser: false,
    permissions: [],
    role: null,
    apiKey: null,
  };
  const mine: MyPermissions = {
    permissions: [],
    entities: grants.entities ?? EMPTY,
    assets: grants.assets ?? EMPTY,
    accounts: EMPTY,
  };
  return {
    me,
    company: { _id: 'demo', name: 'Demo Estates Ltd' },
    permissions: mine,
    access: accessOf(me, mine),
  };
}

const site = {
  _id: 'site-1',
  entityId: 'entity-1',
  siteName: 'Queen Street Arcade',
  status: 'active',
  images: [{ _id: 'img-1', url: 'https://img.test/1.jpg', isPrimary: false }],
} as unknown as AssetView;

const meter = {
  _id: 'meter-1',
  assetId: 'site-1',
  status: 'active',
  type: 'electricity',
} as unknown as AccountView;

describe('staff looking into another company', () => {
  it('are told under a banner that the company is read only to them', () => {
    const text = banner(session('northwind'));
    expect(text).toContain('Staff view, read only');
    expect(text).toContain('Northwind Property Co');
    expect(text).toContain('You can read its data but not change it');
    expect(banner(session('demo'))).toBe('');
  });

  it('are offered the pages but none of the changes: no Add a site, no import, no Manage tab', () => {
    const looking = session('northwind').access;
    const home = session('demo').access;
    const wizard = routeByPath('/assets/wizard');
    if (!wizard) throw new Error('No /assets/wizard route');
    expect(canUseRoute(wizard.permission, looking)).toBe(true);
    expect(canChange(wizard.permission, looking)).toBe(false);
    expect(canChange(['company_user'], looking)).toBe(false);
    expect(canChange(wizard.permission, home)).toBe(true);
    expect(assetTabs(false).map((t) => t.label)).not.toContain('Manage');
    expect(assetTabs(true).map((t) => t.label)).toContain('Manage');
  });

  it('are offered no change inside the site and meter tabs: pictures, documents, status history', () => {
    const looking = session('northwind');
    const home = session('demo');
    const pictures = (x: Session) => rendered(x, <AssetPictures asset={site} />);
    expect(pictures(home)).toContain('Upload a picture');
    expect(pictures(home)).toContain('Make primary');
    expect(pictures(looking)).not.toContain('Upload a picture');
    expect(pictures(looking)).not.toContain('Make primary');
    expect(pictures(looking)).not.toContain('Enhance');
    const documents = (x: Session) => rendered(x, <AssetDocuments asset={site} />);
    expect(documents(home)).toContain('Upload');
    expect(documents(looking)).not.toContain('Upload');
    const history = (x: Session) => rendered(x, <StatusHistoryPanel account={meter} />);
    expect(history(home)).toContain('Add status change');
    expect(history(looking)).toContain('Status history');
    expect(history(looking)).not.toContain('Add status change');
    expect(accountTabs(false).map((t) => t.label)).not.toContain('Edit');
    expect(accountTabs(true).map((t) => t.label)).toContain('Edit');
  });
});

describe('staff looking into another company, on the company-wide pages', () => {
  const pages: [string, ReactNode, string][] = [
    ['targets', <TargetManagePage key="t" />, 'Create target'],
    ['reports', <ReportsPage key="r" />, 'Generate a report'],
    ['scheduled reports', <ReportSchedulePage key="s" />, 'Schedule a report'],
    ['company recommendations', <GlobalRecommendationsPage key="g" />, 'Add a company recommendation'],
    ['imports', <ImportListPage key="i" />, 'New import'],
  ];
  it.each(pages)('are not offered the form of the %s page', (_, page, form) => {
    expect(rendered(session('demo'), page)).toContain(form);
    expect(rendered(session('northwind'), page)).not.toContain(form);
  });

  const writePages: [string, ReactNode][] = [
    ['entity edit', <EntityEditPage key="e" />],
    ['company settings', <CompanyManagePage key="c" />],
    ['new user', <UserCreatePage key="u" />],
    ['connectors', <ConnectorManagePage key="k" />],
    ['automation', <AutomationManagePage key="a" />],
    ['import upload', <ImportUploadPage key="iu" />],
    ['import mapping', <ImportMappingPage key="im" />],
    ['import preview', <ImportPreviewPage key="ip" />],
  ];
  it.each(writePages)('are told the %s page is not offered to them', (_, page) => {
    const notice = 'not change it, so this page is not offered';
    expect(rendered(session('northwind'), page)).toContain(notice);
    expect(rendered(session('demo'), page)).not.toContain(notice);
  });
});

describe('staff looking into another company, on one report or invoice', () => {
  it('may download a built report but neither send nor rebuild it', () => {
    const report = {
      _id: 'r1',
      name: 'Energy summary',
      status: 'ready',
      format: 'pdf',
      builtGeneration: 1,
      createdAt: '2026-11-01T09:00:00.000Z',
    } as unknown as ReportView;
    const home = rendered(session('demo'), <ReportActions report={report} />);
    const looking = rendered(session('northwind'), <ReportActions report={report} />);
    expect(home).toContain('Regenerate');
    expect(looking).toContain('Download');
    expect(looking).not.toContain('Regenerate');
    expect(looking).not.toContain('Send');
  });

  it("read an invoice's values without a Save", () => {
    const invoice = {
      _id: 'i1',
      values: { grossTotal: 120 },
      results: { values: {} },
    } as unknown as InvoiceView;
    const form = (readOnly: boolean) =>
      rendered(
        session('demo'),
        <InvoiceValuesForm
          invoice={invoice}
          focused={undefined}
          onFocus={() => undefined}
          onSave={async () => ({ ok: true })}
          saving={false}
          onDirty={() => undefined}
          readOnly={readOnly}
        />,
      );
    expect(form(false)).toContain('Save values');
    expect(form(true)).not.toContain('Save values');
    expect(form(true)).not.toContain('completed');
  });
});

describe('users who may only read a site', () => {
  it('are offered no change to it; those who may write it are', () => {
    const reader = granted({ assets: { read: ['site-1'], write: [] } });
    const writer = granted({ assets: { read: [], write: ['site-1'] } });
    const lineage = { assetId: 'site-1', entityId: 'entity-1' };
    expect(mayChangeItem(reader.access, lineage)).toBe(false);
    expect(mayChangeItem(writer.access, lineage)).toBe(true);
    expect(mayChangeItem(writer.access, { assetId: 'site-2', entityId: 'entity-1' })).toBe(false);
    // A write grant on an entity may reach the site through a parent the browser does not know of.
    expect(mayChangeItem(granted({ entities: { read: [], write: ['entity-9'] } }).access, lineage)).toBe(
      true,
    );
    expect(rendered(reader, <AssetPictures asset={site} />)).not.toContain('Upload a picture');
    expect(rendered(writer, <AssetPictures asset={site} />)).toContain('Upload a picture');
    expect(rendered(reader, <StatusHistoryPanel account={meter} />)).not.toContain('Add status change');
  });

  it('are not offered the company-wide pages and forms the API refuses them', () => {
    const reader = granted({ assets: { read: ['site-1'], write: [] } });
    const schedule = routeByPath('/reports/schedule');
    if (!schedule) throw new Error('No /reports/schedule route');
    expect(canUseRoute(schedule.permission, reader.access)).toBe(false);
    expect(canUseRoute(schedule.permission, session('demo').access)).toBe(true);
    expect(rendered(reader, <PortfolioManagePage />)).not.toContain('Create portfolio');
    expect(rendered(session('demo'), <PortfolioManagePage />)).toContain('Create portfolio');
    expect(rendered(reader, <PortfolioCreatePage />)).toContain('You can read portfolios but not create');
    expect(rendered(session('northwind'), <PortfolioManagePage />)).not.toContain('Create portfolio');
  });

  it('are offered target changes only on the scopes the API lets them change', () => {
    const target = (id: string, name: string, scope: string, scopeId?: string) => ({
      _id: id,
      name,
      scope,
      ...(scopeId ? { scopeId } : {}),
      measure: 'energy',
      emissionScope: 'all',
      normalisation: 'absolute',
      baselineYear: 2024,
      targetYear: 2030,
      reductionPercent: 20,
      linearPath: true,
      milestones: [],
    });
    const targets = {
      data: [target('t1', 'Company cut', 'company'), target('t2', 'Writable cut', 'site', 'site-2')],
      total: 2,
    };
    const none: Scopes = { company: false, entities: [], portfolios: [], sites: [] };
    const mine = { ...none, sites: [{ _id: 'site-2', name: 'Writable House' }] };
    const page = (s: Session, scopes: Scopes) =>
      renderHtml(
        <MemoryRouter>
          <ServicesProvider services={{ api: {}, auth: {} } as unknown as Services}>
            <SessionProvider session={s}>
              <SWRConfig value={{ fallback: { '/targets': targets, '/targets/scopes': scopes } }}>
                <TargetManagePage />
              </SWRConfig>
            </SessionProvider>
          </ServicesProvider>
        </MemoryRouter>,
      );
    const edits = (html: string) => textOf(html).match(/\bEdit\b/g)?.length ?? 0;
    // Reading a site sets no target on it: no form, no Edit or Delete.
    const reader = page(granted({ assets: { read: ['site-1'], write: [] } }), none);
    expect(textOf(reader)).toContain('Company cut');
    expect(textOf(reader)).not.toContain('Create target');
    expect(edits(reader)).toBe(0);
    expect(textOf(reader)).not.toContain('Delete');
    // Changing one site: a form for sites only, and Edit on that site's target, not the company's.
    const writer = page(granted({ assets: { read: ['site-1'], write: ['site-2'] } }), mine);
    expect(textOf(writer)).toContain('Create target');
    expect(writer).not.toContain('value="company"');
    expect(writer).toMatch(/<option value="site"[^>]*selected/);
    expect(textOf(writer)).toContain('Writable House');
    expect(edits(writer)).toBe(1);
  });

  it('are invited to set a first target only when they may set one', () => {
    const none: Scopes = { company: false, entities: [], portfolios: [], sites: [] };
    const mine = { ...none, sites: [{ _id: 'site-2', name: 'Writable House' }] };
    const page = (s: Session, scopes: Scopes) =>
      textOf(
        renderHtml(
          <MemoryRouter>
            <ServicesProvider services={{ api: {}, auth: {} } as unknown as Services}>
              <SessionProvider session={s}>
                <SWRConfig
                  value={{
                    fallback: { '/targets/progress': { data: [], total: 0 }, '/targets/scopes': scopes },
                  }}
                >
                  <TargetDashboardPage />
                </SWRConfig>
              </SessionProvider>
            </ServicesProvider>
          </MemoryRouter>,
        ),
      );
    const reader = page(granted({ assets: { read: ['site-1'], write: [] } }), none);
    expect(reader).toContain('No targets yet.');
    expect(reader).not.toContain('Set one');
    expect(page(granted({ assets: { read: ['site-1'], write: ['site-2'] } }), mine)).toContain('Set one');
    expect(page(session('northwind'), none)).not.toContain('Set one');
  });

  it('are offered only the sites they may change when adding a meter', () => {
    const user = granted({ assets: { read: ['site-1', 'site-2'], write: ['site-2'] } });
    const sites = {
      data: [
        { _id: 'site-1', siteName: 'Read Only House', entityId: 'entity-1' },
        { _id: 'site-2', siteName: 'Writable House', entityId: 'entity-1' },
      ],
      total: 2,
    };
    const wizard = rendered(
      user,
      <SWRConfig value={{ fallback: { '/assets?limit=1000': sites } }}>
        <AccountWizardPage />
      </SWRConfig>,
    );
    expect(wizard).toContain('Writable House');
    expect(wizard).not.toContain('Read Only House');
  });
});

/** A page at `path`, under the route pattern `pattern` (for its ids), with the reads it makes answered. */
const routed = (
  s: Session,
  pattern: string,
  path: string,
  node: ReactNode,
  fallback: Record<string, unknown>,
) =>
  textOf(
    renderHtml(
      <MemoryRouter initialEntries={[path]}>
        <ServicesProvider services={{ api: {}, auth: {} } as unknown as Services}>
          <SessionProvider session={s}>
            <SWRConfig value={{ fallback }}>
              <Routes>
                <Route path={pattern} element={node} />
              </Routes>
            </SWRConfig>
          </SessionProvider>
        </ServicesProvider>
      </MemoryRouter>,
    ),
  );

describe('the changes a page offers are those the API accepts', () => {
  const billing = (assets: MyPermissions['assets']): Session => {
    const base = granted({ assets });
    const me = { ...base.me, permissions: ['bill_validation' as const] };
    const permissions = { ...base.permissions, permissions: ['bill_validation' as const] };
    return { ...base, me, permissions, access: accessOf(me, permissions) };
  };
  const account = { ...meter, name: 'Main supply', companyId: 'demo', entityId: 'entity-1' };
  const invoices = {
    data: [{ _id: 'inv-1', accountId: 'meter-1', fileName: 'march.pdf', status: 'completed', values: {} }],
    total: 1,
  };

  it("a bill validator who only reads a meter is offered none of its invoices' changes", () => {
    const page = (s: Session) =>
      routed(
        s,
        '/assets/:id/accounts/:accountId/invoices',
        '/assets/site-1/accounts/meter-1/invoices',
        <AccountInvoicesPage />,
        {
          '/accounts/meter-1': account,
          '/invoices?accountId=meter-1&isCreditNote=false&$sort=-createdAt&limit=1000': invoices,
        },
      );
    const reader = page(billing({ read: ['site-1'], write: [] }));
    expect(reader).toContain('march.pdf');
    expect(reader).not.toContain('Delete');
    expect(reader).not.toContain('Upload an invoice by hand');
    const writer = page(billing({ read: [], write: ['site-1'] }));
    expect(writer).toContain('Delete');
    expect(writer).toContain('Upload an invoice by hand');
  });

  it('a site reader is not offered Add meter, and the new meter page tells them why', () => {
    const reader = granted({ assets: { read: ['site-1'], write: [] } });
    const writer = granted({ assets: { read: [], write: ['site-1'] } });
    const meters = (s: Session) =>
      routed(s, '/assets/:id/accounts', '/assets/site-1/accounts', <AssetAccountsPage />, {
        '/assets/site-1': site,
        '/accounts?assetId=site-1&limit=1000': { data: [meter], total: 1 },
      });
    expect(meters(reader)).toContain('Meters');
    expect(meters(reader)).not.toContain('Add meter');
    expect(meters(writer)).toContain('Add meter');
    expect(meters(session('northwind'))).not.toContain('Add meter');
    const wizard = rendered(
      reader,
      <SWRConfig value={{ fallback: { '/assets?limit=1000': { data: [site], total: 1 } } }}>
        <AccountWizardPage />
      </SWRConfig>,
    );
    expect(wizard).toContain('adding a meter is not offered');
    expect(wizard).not.toContain('Create account');
  });

  it("staff looking in may send a member's welcome e-mail but not add, edit or remove members, roles or sets", () => {
    const users = {
      data: [{ userSub: 'u1', name: 'Hannah Clarke', email: 'h@nw.test', permissions: [], grants: {} }],
      total: 1,
    };
    const list = (s: Session, companyId: string) =>
      rendered(
        s,
        <SWRConfig value={{ fallback: { [`/companies/${companyId}/users`]: users } }}>
          <UserListPage />
        </SWRConfig>,
      );
    const looking = list(session('northwind'), 'northwind');
    expect(looking).toContain('Send welcome e-mail');
    expect(looking).not.toContain('New user');
    expect(looking).not.toContain('Delete');
    expect(looking).not.toContain('Edit');
    const home = list(session('demo'), 'demo');
    expect(home).toContain('New user');
    expect(home).toContain('Delete');
    expect(rendered(session('northwind'), <RoleListPage />)).not.toContain('New role');
    expect(rendered(session('demo'), <RoleListPage />)).toContain('New role');
    expect(rendered(session('northwind'), <RoleCreatePage />)).toContain('this page is not offered');
    expect(rendered(session('northwind'), <GrantSetListPage />)).not.toContain('New permission set');
  });

  it('staff looking in are offered no report builds and no bill uploads', () => {
    const templates = { '/report-templates/system': { data: [...SYSTEM_TEMPLATES] } };
    const tpl = (s: Session) =>
      rendered(
        s,
        <SWRConfig value={{ fallback: templates }}>
          <ReportTemplatesPage />
        </SWRConfig>,
      );
    expect(tpl(session('northwind'))).toContain('SECR');
    expect(tpl(session('northwind'))).not.toContain('Generate');
    expect(tpl(session('demo'))).toContain('Generate');
    expect(rendered(session('northwind'), <ReportHistoryPage />)).not.toContain('Generate a report');
    expect(rendered(session('demo'), <ReportHistoryPage />)).toContain('Generate a report');
    expect(rendered(session('northwind'), <ValidationNav tab="failed" />)).not.toContain('Upload');
    expect(rendered(session('demo'), <ValidationNav tab="failed" />)).toContain('Upload');
  });

  it("an entity's Edit tab is offered only to those who may change the entity", () => {
    const entity = { _id: 'entity-1', legalName: 'Demo Estates Retail Ltd' };
    const tabs = (s: Session) =>
      routed(
        s,
        '/entities/:id/structure',
        '/entities/entity-1/structure',
        <EntityLayout tab="structure">{() => null}</EntityLayout>,
        { '/entities/entity-1': entity },
      );
    expect(tabs(session('demo'))).toContain('Edit');
    expect(tabs(session('northwind'))).toContain('Structure');
    expect(tabs(session('northwind'))).not.toContain('Edit');
    expect(tabs(granted({ entities: { read: ['entity-1'], write: [] } }))).not.toContain('Edit');
  });

  it("staff looking in are not told a site's report is being built, which the API refuses them", () => {
    const page = (s: Session) =>
      routed(
        s,
        '/assets/:id/reports/:reportType/download',
        '/assets/site-1/reports/site/download',
        <SiteReportDownloadPage />,
        {
          '/assets/site-1': { _id: 'site-1', siteName: 'Hardman Court' },
          '/reports?$sort=-createdAt&limit=50&scopeId=site-1': { data: [], total: 0 },
        },
      );
    expect(page(session('demo'))).toContain('queued to be built');
    const looking = page(session('northwind'));
    expect(looking).not.toContain('queued to be built');
    expect(looking).toContain('not build reports in it');
  });

  it("another company's import opened by its id is said not to be found", () => {
    const text = textOf(
      renderHtml(
        <MemoryRouter initialEntries={['/imports/imp-1/detail']}>
          <ServicesProvider services={{ api: {}, auth: {} } as unknown as Services}>
            <SessionProvider session={session('northwind')}>
              <SWRConfig
                value={{
                  provider: () =>
                    new Map([['/imports/imp-1', { error: new ApiError(404, 'not-found', 'Not found') }]]),
                }}
              >
                <Routes>
                  <Route path="/imports/:id/detail" element={<ImportRunPage />} />
                </Routes>
              </SWRConfig>
            </SessionProvider>
          </ServicesProvider>
        </MemoryRouter>,
      ),
    );
    expect(text).toContain('This import was not found');
  });
});
