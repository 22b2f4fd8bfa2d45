import { describe, expect, it } from 'vitest';
import { EMPTY_GRANTS } from '../../shared/access/caller.ts';
import { canAccessItem } from '../../shared/access/item-access.ts';
import type { PermissionName } from '../../shared/access/permission-names.ts';
import { canUseRoute, derivePermissions } from '../../shared/access/route-access.ts';
import type { Grants } from '../../shared/schemas/company.ts';

const grants = (over: Partial<Grants>): Grants => ({ ...EMPTY_GRANTS, ...over });
const caller = (permissions: PermissionName[], g: Grants = EMPTY_GRANTS, isAdmin = false) => ({
  kind: 'user' as const,
  sub: 's',
  companyId: 'c',
  isAdmin,
  permissions,
  grants: g,
  roles: [],
});

describe('derived permissions (01 §6)', () => {
  it.each([
    [['company_user'], EMPTY_GRANTS, ['company_user', 'entity_user', 'asset_user', 'account_user']],
    [
      ['company_admin'],
      EMPTY_GRANTS,
      ['company_admin', 'company_user', 'entity_user', 'asset_user', 'account_user'],
    ],
    [[], grants({ entities: { read: ['e'], write: [] } }), ['entity_user', 'asset_user', 'account_user']],
    [[], grants({ assets: { read: [], write: ['a'] } }), ['asset_user', 'account_user']],
    [[], grants({ accounts: { read: ['x'], write: [] } }), ['account_user']],
    [['bill_validation'], EMPTY_GRANTS, ['bill_validation']],
  ] as const)('%j with %j gives %j', (held, g, expected) => {
    expect([...derivePermissions(held as readonly PermissionName[], g as Grants)].sort()).toEqual(
      [...expected].sort(),
    );
  });
});

describe('route access', () => {
  it('lets admins through every route, even one with no permissions', () => {
    expect(canUseRoute([], caller([], EMPTY_GRANTS, true))).toBe(true);
  });
  it('denies a route with no permissions to everyone else', () => {
    expect(canUseRoute([], caller(['company_owner', 'company_admin']))).toBe(false);
  });
  it("admits any signed-in user to '*' and any one matching permission to a list", () => {
    expect(canUseRoute('*', caller([]))).toBe(true);
    expect(canUseRoute(['company_admin', 'bill_validation'], caller(['bill_validation']))).toBe(true);
    expect(canUseRoute(['company_admin'], caller(['company_user']))).toBe(false);
  });
  it('admits derived permissions', () => {
    expect(canUseRoute(['asset_user'], caller([], grants({ assets: { read: ['a'], write: [] } })))).toBe(
      true,
    );
  });
  it("keeps API-only users to '*' routes", () => {
    expect(canUseRoute('*', caller(['api_access_only']))).toBe(true);
    expect(canUseRoute(['api_access_only'], caller(['api_access_only']))).toBe(false);
  });
});

describe('item access: account, then asset, then entity', () => {
  const account = { accountId: 'acc', assetId: 'ast', entityId: 'ent' };
  it('gives company users read and write on everything', () => {
    expect(canAccessItem(caller(['company_user']), 'write', account)).toBe(true);
  });
  it('grants through any level of the hierarchy', () => {
    expect(
      canAccessItem(caller([], grants({ entities: { read: [], write: ['ent'] } })), 'write', account),
    ).toBe(true);
    expect(canAccessItem(caller([], grants({ assets: { read: ['ast'], write: [] } })), 'read', account)).toBe(
      true,
    );
    expect(
      canAccessItem(caller([], grants({ accounts: { read: ['acc'], write: [] } })), 'read', account),
    ).toBe(true);
  });
  it('does not let a read grant write, nor a grant on another item read', () => {
    expect(
      canAccessItem(caller([], grants({ assets: { read: ['ast'], write: [] } })), 'write', account),
    ).toBe(false);
    expect(
      canAccessItem(caller([], grants({ assets: { read: ['other'], write: [] } })), 'read', account),
    ).toBe(false);
  });
});
