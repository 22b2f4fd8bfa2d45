import { type Caller, EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import type { PermissionName } from '../../../shared/access/permission-names.ts';
import type { Grants } from '../../../shared/schemas/company.ts';

export const grants = (over: Partial<Grants> = {}): Grants => ({ ...EMPTY_GRANTS, ...over });

/** A caller as the server builds it, with only what a test row cares about set. */
export function subject(
  permissions: PermissionName[] = [],
  over: Partial<Omit<Caller, 'permissions'>> = {},
): Caller {
  return {
    kind: 'user',
    sub: 's',
    companyId: 'c1',
    isAdmin: false,
    permissions,
    grants: EMPTY_GRANTS,
    roles: [],
    via: 'token',
    ...over,
  };
}
