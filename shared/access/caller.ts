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
  /**
   * Staff looking into a company they are not a member of: they may read it, and change none of its data
   * (see `staffMayWrite`).
   */
  staffView?: boolean;
  /** Permission strings held directly (role and user), before derivation. */
  permissions: readonly PermissionName[];
  grants: Grants;
  /** Role names from the identity claims; a name starting with 'entity' marks an entity-group user. */
  roles: readonly string[];
  /** How a user proved who they are: a signed-in session's token, or an API key that acts as them. */
  via?: 'token' | 'apiKey' | 'link';
  /** Kiosk callers: the kiosk, the asset it shows, and whether this is a preview rather than the screen. */
  kioskId?: string;
  assetId?: string;
  preview?: boolean;
  /** The company's access version the caller was checked against on this call (see access-version.ts). */
  accessVersion?: number;
  /**
   * The company's site list mark read with the access version on this call, and the one site whose write
   * moved it there, when known (see access-version.ts).
   */
  siteList?: { mark: number; lastSite?: string };
  /** Machine callers: the stored machine credential. */
  machineId?: string;
}

export const EMPTY_GRANTS: Grants = {
  entities: { read: [], write: [] },
  assets: { read: [], write: [] },
  accounts: { read: [], write: [] },
};
