/** Answers of the calls about the signed-in user (`/users/me…`), as the browser reads them. */

export interface GrantList {
  read: string[];
  write: string[];
}

/** GET /users/me, for a person (a machine's answer is its credential's). */
export interface Me {
  _id: string;
  sub: string;
  name?: string;
  email?: string;
  picture?: string;
  /** The user's own choices, such as the interface language. */
  settings?: { language?: string };
  isAdmin: boolean;
  companyId: string;
  /** The entity a user of an entity group belongs to. */
  entityId?: string;
  /** Staff looking into a company they are not a member of: they read it and change nothing. */
  staffView?: boolean;
  companies: string[];
  roles: readonly string[];
  /** A role name in the identity claims starts with 'entity' (01 §6). */
  isEntityGroupUser: boolean;
  permissions: string[];
  /** Its name is absent only on a role kept before names were required. */
  role: { _id: string; name?: string } | null;
  apiKey: { prefix: string; createdAt?: string } | null;
}

export interface CompanySettings {
  isDemo?: boolean;
  showLogo?: boolean;
  logoUrl?: string;
  hideCostData?: boolean;
  /** The categories a discussion may be filed under. */
  messageCategories?: string[];
}

/** GET /users/me/company and the items of GET /users/me/companies. */
export interface Company {
  _id: string;
  name: string;
  settings?: CompanySettings;
}

/** GET /users/me/permissions. */
export interface MyPermissions {
  permissions: string[];
  entities: GrantList;
  assets: GrantList;
  accounts: GrantList;
}
