import { describe, expect, it } from 'vitest';
import { canAccessItem, type ItemLineage } from '../../../shared/access/item-access.ts';
import type { Grants } from '../../../shared/schemas/company.ts';
import { grants, subject } from './subjects.ts';

const ACCOUNT: ItemLineage = {
  accountId: 'acc',
  assetId: 'ast',
  entityId: 'sub',
  entityAncestors: ['group'],
};
const ASSET: ItemLineage = { assetId: 'ast', entityId: 'sub', entityAncestors: ['group'] };
const ENTITY: ItemLineage = { entityId: 'sub', entityAncestors: ['group'] };

const g = (kind: keyof Grants, list: 'read' | 'write', id: string) =>
  grants({ [kind]: { read: list === 'read' ? [id] : [], write: list === 'write' ? [id] : [] } });

describe('write access: account, then asset, then entity (01 §6)', () => {
  const rows: [string, ReturnType<typeof subject>, 'read' | 'write', ItemLineage, boolean][] = [
    ['company users write anything', subject(['company_user']), 'write', ACCOUNT, true],
    ['company_user_full users write anything', subject(['company_user_full']), 'write', ASSET, true],
    ['admins write anything', subject([], { isAdmin: true }), 'write', ENTITY, true],
    [
      'a write grant on the account',
      subject([], { grants: g('accounts', 'write', 'acc') }),
      'write',
      ACCOUNT,
      true,
    ],
    [
      'a write grant on the asset reaches its accounts',
      subject([], { grants: g('assets', 'write', 'ast') }),
      'write',
      ACCOUNT,
      true,
    ],
    [
      'a write grant on the entity reaches its accounts',
      subject([], { grants: g('entities', 'write', 'sub') }),
      'write',
      ACCOUNT,
      true,
    ],
    [
      'a write grant on a parent entity reaches subsidiaries',
      subject([], { grants: g('entities', 'write', 'group') }),
      'write',
      ASSET,
      true,
    ],
    [
      'a read grant does not write',
      subject([], { grants: g('assets', 'read', 'ast') }),
      'write',
      ASSET,
      false,
    ],
    ['a read grant reads', subject([], { grants: g('assets', 'read', 'ast') }), 'read', ACCOUNT, true],
    [
      'a write grant also reads',
      subject([], { grants: g('accounts', 'write', 'acc') }),
      'read',
      ACCOUNT,
      true,
    ],
    [
      'an account grant does not reach up to its asset',
      subject([], { grants: g('accounts', 'write', 'acc') }),
      'read',
      ASSET,
      false,
    ],
    [
      'an asset grant does not reach up to its entity',
      subject([], { grants: g('assets', 'read', 'ast') }),
      'read',
      ENTITY,
      false,
    ],
    ['a grant on another item', subject([], { grants: g('assets', 'read', 'other') }), 'read', ASSET, false],
    ['asset_user without grants', subject(['asset_user']), 'read', ASSET, false],
    ['bill validators are not company-wide', subject(['bill_validation']), 'read', ASSET, false],
  ];
  it.each(rows)('%s', (_name, caller, access, lineage, expected) => {
    expect(canAccessItem(caller, access, lineage)).toBe(expected);
  });
});
