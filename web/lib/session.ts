import type { Caller } from '../../shared/access/caller.ts';
import { isPermissionName, type PermissionName } from '../../shared/access/permission-names.ts';
import type { Company, Me, MyPermissions } from '../../shared/schemas/responses/session.ts';
import type { ApiClient } from './api-client.ts';

export type {
  Company,
  CompanySettings,
  GrantList,
  Me,
  MyPermissions,
} from '../../shared/schemas/responses/session.ts';

/** What the route rules of shared/access need to know about the user. */
export type AccessSubject = Pick<Caller, 'isAdmin' | 'permissions' | 'grants' | 'staffView'>;

export interface Session {
  me: Me;
  company: Company;
  permissions: MyPermissions;
  access: AccessSubject;
}

export function accessOf(me: Me, mine: MyPermissions): AccessSubject {
  const permissions = mine.permissions.filter(isPermissionName);
  return {
    isAdmin: me.isAdmin === true || permissions.includes('admin'),
    permissions,
    grants: { entities: mine.entities, assets: mine.assets, accounts: mine.accounts },
    staffView: me.staffView === true,
  };
}

export function hasPermission(access: AccessSubject, permission: PermissionName): boolean {
  return access.permissions.includes(permission);
}

/** The user, company and permissions that every signed-in page needs (01 §4). */
export async function fetchSession(api: ApiClient): Promise<Session> {
  const [me, company, permissions] = await Promise.all([
    api.get<Me>('/users/me'),
    api.get<Company>('/users/me/company'),
    api.get<MyPermissions>('/users/me/permissions'),
  ]);
  return { me, company, permissions, access: accessOf(me, permissions) };
}

export interface SessionLoaderDeps {
  api: ApiClient;
  /** Signs the user out when their data cannot be loaded. */
  signOut: () => Promise<void>;
}

export interface SessionLoader {
  (): Promise<Session>;
  /** The next call asks the API again, e.g. after the user changed their own details. */
  forget(): void;
}

/**
 * Loads the session once per page load. If any of the three calls fails the user is signed out and
 * the promise never settles: the browser is on its way to the provider's sign-out page.
 */
export function createSessionLoader(deps: SessionLoaderDeps): SessionLoader {
  let pending: Promise<Session> | undefined;
  const load = () => {
    pending ??= fetchSession(deps.api).catch(async () => {
      await deps.signOut();
      return new Promise<Session>(() => undefined);
    });
    return pending;
  };
  return Object.assign(load, {
    forget: () => {
      pending = undefined;
    },
  });
}
