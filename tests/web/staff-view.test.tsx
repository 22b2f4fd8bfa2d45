import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { canChange, canUseRoute } from '../../shared/access/route-access.ts';
import { StaffViewBanner } from '../../web/app/layout/staff-view-banner.tsx';
import { routeByPath } from '../../web/app/routes.ts';
import { assetTabs } from '../../web/features/assets/asset-frame.tsx';
import { type Services, ServicesProvider, SessionProvider } from '../../web/lib/app-context.tsx';
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

const banner = (s: Session) =>
  textOf(
    renderHtml(
      <MemoryRouter>
        <ServicesProvider services={{ api: {}, auth: {} } as unknown as Services}>
          <SessionProvider session={s}>
            <StaffViewBanner />
          </SessionProvider>
        </ServicesProvider>
      </MemoryRouter>,
    ),
  );

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
    expect(assetTabs(true).map((t) => t.label)).not.toContain('Manage');
    expect(assetTabs(false).map((t) => t.label)).toContain('Manage');
  });
});
