import type { Grants } from '../schemas/company.ts';
import type { PermissionName } from './permission-names.ts';

/** Who is calling, as the server established it from verified credentials: never from the request body. */
export interface Caller {
  kind: 'user' | 'kiosk' | 'machine';
  sub: string;
  email?: string;
  name?: string;
  companyId: string;
  isAdmin: boolean;
  /** Permission strings held directly (role and user), before derivation. */
  permissions: readonly PermissionName[];
  grants: Grants;
  /** Role names from the identity claims; a name starting with 'entity' marks an entity-group user. */
  roles: readonly string[];
}

export const EMPTY_GRANTS: Grants = {
  entities: { read: [], write: [] },
  assets: { read: [], write: [] },
  accounts: { read: [], write: [] },
};
