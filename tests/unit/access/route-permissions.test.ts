import { describe, expect, it } from 'vitest';
import { EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import type { PermissionName, RoutePermission } from '../../../shared/access/permission-names.ts';
import {
  canSearch,
  canSeeCompanySettings,
  canUseRoute,
  derivePermissions,
  isEntityGroupUser,
} from '../../../shared/access/route-access.ts';
import type { Grants } from '../../../shared/schemas/company.ts';
import { grants, subject } from './subjects.ts';

describe('route permissions (01 §6)', () => {
  const rows: [string, RoutePermission, ReturnType<typeof subject>, boolean][] = [
    ["'*' admits a user with no permissions", '*', subject(), true],
    [
      'a list admits a holder of any one of it',
      ['company_admin', 'bill_validation'],
      subject(['bill_validation']),
      true,
    ],
    ['a list refuses someone holding none of it', ['company_admin'], subject(['company_user']), false],
    ['an empty list refuses a company owner', [], subject(['company_owner', 'company_admin']), false],
    ['an empty list admits an admin', [], subject([], { isAdmin: true }), true],
    ['admins pass any list', ['bill_validation_v2'], subject([], { isAdmin: true }), true],
    ['company_admin admits through derived company_user', ['company_user'], subject(['company_admin']), true],
    [
      'an asset grant admits to account_user routes',
      ['account_user'],
      subject([], { grants: grants({ assets: { read: ['a'], write: [] } }) }),
      true,
    ],
    [
      'an account grant does not admit to asset_user routes',
      ['asset_user'],
      subject([], { grants: grants({ accounts: { read: ['x'], write: [] } }) }),
      false,
    ],
    ['api_access_only reaches profile routes', '*', subject(['api_access_only']), true],
    ['api_access_only is refused everything else', ['api_access_only'], subject(['api_access_only']), false],
    [
      'api_access_only with another permission is still refused in the app',
      ['company_user'],
      subject(['api_access_only', 'company_user']),
      false,
    ],
    [
      'with their API key, an API-only user has their other permissions',
      ['company_user'],
      subject(['api_access_only', 'company_user'], { via: 'apiKey' }),
      true,
    ],
  ];
  it.each(rows)('%s', (_name, permission, caller, expected) => {
    expect(canUseRoute(permission, caller)).toBe(expected);
  });
});

describe('derived permissions (01 §6)', () => {
  const rows: [string, PermissionName[], Grants, PermissionName[]][] = [
    [
      'company_user',
      ['company_user'],
      EMPTY_GRANTS,
      ['company_user', 'entity_user', 'asset_user', 'account_user'],
    ],
    [
      'company_admin',
      ['company_admin'],
      EMPTY_GRANTS,
      ['company_admin', 'company_user', 'entity_user', 'asset_user', 'account_user'],
    ],
    [
      'an entity read grant',
      [],
      grants({ entities: { read: ['e'], write: [] } }),
      ['entity_user', 'asset_user', 'account_user'],
    ],
    [
      'an entity write grant',
      [],
      grants({ entities: { read: [], write: ['e'] } }),
      ['entity_user', 'asset_user', 'account_user'],
    ],
    ['an asset grant', [], grants({ assets: { read: [], write: ['a'] } }), ['asset_user', 'account_user']],
    ['an account grant', [], grants({ accounts: { read: ['x'], write: [] } }), ['account_user']],
    ['company_owner alone', ['company_owner'], EMPTY_GRANTS, ['company_owner']],
    [
      'bill_validation with an asset grant',
      ['bill_validation'],
      grants({ assets: { read: ['a'], write: [] } }),
      ['bill_validation', 'asset_user', 'account_user'],
    ],
    ['nothing', [], EMPTY_GRANTS, []],
  ];
  it.each(rows)('%s', (_name, held, g, expected) => {
    expect([...derivePermissions(held, g)].sort()).toEqual([...expected].sort());
  });
});

describe('other rules (01 §6)', () => {
  it.each([
    [subject(['company_user']), true],
    [subject(['api_access_only']), false],
    [subject(['api_access_only'], { via: 'apiKey' }), true],
    [subject(['api_access_only'], { isAdmin: true }), true],
  ])('search for %j is %s', (caller, expected) => {
    expect(canSearch(caller)).toBe(expected);
  });

  it.each([
    [['entity viewer'], true],
    [['Owner', 'entityGroup'], true],
    [['Entity viewer'], false],
    [['Owner', 'Company user'], false],
    [[], false],
  ])('roles %j mark an entity-group user: %s', (roles, expected) => {
    expect(isEntityGroupUser(roles)).toBe(expected);
  });

  it.each([
    [subject(['company_owner']), true],
    [subject([], { isAdmin: true }), true],
    [subject(['company_admin']), false],
    [subject(['company_user']), false],
  ])('the Company Settings link for %j: %s', (caller, expected) => {
    expect(canSeeCompanySettings(caller)).toBe(expected);
  });
});
