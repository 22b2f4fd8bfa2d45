import { type Caller, EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import { type PermissionName, permissionList } from '../../../shared/access/permission-names.ts';
import { grantsSchema } from '../../../shared/schemas/grants.ts';
import { type AccessStamp, readAccessStamp } from '../data/access-version.ts';
import { unauthorized } from '../lib/errors.ts';
import {
  getMembership,
  getProfile,
  listRoles,
  type StoredMembership,
  type StoredRole,
} from './user-repository.ts';

const NOT_VERIFIED = 'Your account is not verified.';
/**
 * Short enough that a company switch shows within seconds on every instance. A changed grant, role or
 * membership shows on the next call: a cached caller is kept only while the company's access version
 * (one small read per call) is the one it was built at.
 */
const CACHE_MS = 5000;
const cache = new Map<
  string,
  { caller: Caller; until: number; version: number; sessionsEndedAt: number | undefined }
>();
const SESSION_ENDED = 'Your session has ended. Sign in again.';

const siteListOf = (stamp: AccessStamp): NonNullable<Caller['siteList']> =>
  stamp.lastSite === undefined ? { mark: stamp.sites } : { mark: stamp.sites, lastSite: stamp.lastSite };

/** A token issued no later than the person's last sign-out belongs to a session that has ended. */
function refuseEnded(issuedAt: number | undefined, sessionsEndedAt: number | undefined): void {
  if (issuedAt !== undefined && sessionsEndedAt !== undefined && issuedAt <= sessionsEndedAt)
    throw unauthorized(SESSION_ENDED);
}

/**
 * The caller behind a verified subject: their current company, permissions (own and role's) and grants,
 * all read from the table. The company comes from the user's stored choice, never from the request; an
 * API key instead names the company it was issued in (`opts.companyId`), which the user must still be in.
 */
export async function loadCaller(
  sub: string,
  roles: readonly string[] = [],
  opts: { companyId?: string; issuedAt?: number } = {},
): Promise<Caller> {
  // The token's role claims are part of the key: a new token with other roles must not get the old ones.
  const cacheKey = [sub, opts.companyId ?? '', ...roles].join('|');
  const hit = cache.get(cacheKey);
  if (hit && hit.until > Date.now()) {
    // Signing out moves the access version too, so a cached sign-out time is as fresh as the grants.
    const stamp = await readAccessStamp(hit.caller.companyId);
    if (stamp.version === hit.version) {
      refuseEnded(opts.issuedAt, hit.sessionsEndedAt);
      return { ...hit.caller, siteList: siteListOf(stamp) };
    }
  }

  const profile = await getProfile(sub);
  if (!profile) throw unauthorized(NOT_VERIFIED);
  refuseEnded(opts.issuedAt, profile.sessionsEndedAt);
  const companyId = opts.companyId
    ? profile.companyIds.includes(opts.companyId) || profile.isAdmin
      ? opts.companyId
      : undefined
    : profile.currentCompanyId && (profile.companyIds.includes(profile.currentCompanyId) || profile.isAdmin)
      ? profile.currentCompanyId
      : profile.companyIds[0];
  if (!companyId) throw unauthorized(NOT_VERIFIED);

  // Read before what it guards, so a change made while this caller is built is seen by the next call.
  const stamp = await readAccessStamp(companyId);
  const version = stamp.version;
  const membership = await getMembership(companyId, sub);
  if (!membership && !profile.isAdmin) throw unauthorized(NOT_VERIFIED);

  const companyRoles = typeof membership?.roleId === 'string' ? await listRoles(companyId) : [];
  const caller: Caller = {
    ...memberCaller(companyId, sub, membership, companyRoles, roles),
    email: profile.email,
    name: profile.name,
    isAdmin: profile.isAdmin === true,
    // Staff in a company they are not a member of only look: the route rules refuse their writes there.
    staffView: profile.isAdmin === true && !profile.companyIds.includes(companyId),
    accessVersion: version,
  };
  cache.set(cacheKey, {
    caller,
    until: Date.now() + CACHE_MS,
    version,
    sessionsEndedAt: profile.sessionsEndedAt,
  });
  return { ...caller, siteList: siteListOf(stamp) };
}

/**
 * A member of a company as a caller, from their membership and the company's roles: their own and their
 * role's permissions, and their grants. Serves the request's caller and the work done for members when
 * nobody is calling (a notification only for those who may read what it names).
 */
export function memberCaller(
  companyId: string,
  sub: string,
  membership: StoredMembership | undefined,
  companyRoles: readonly StoredRole[],
  roles: readonly string[] = [],
): Caller {
  const permissions = new Set<PermissionName>(permissionList(membership?.permissions));
  const roleNames = [...roles];
  if (typeof membership?.roleId === 'string') {
    const role = companyRoles.find((r) => r._id === membership.roleId);
    for (const p of permissionList(role?.permissions)) permissions.add(p);
    // The token's role claim and the membership usually name the same role; list it once.
    if (typeof role?.name === 'string' && !roleNames.includes(role.name)) roleNames.push(role.name);
  }
  const grants = grantsSchema.safeParse(membership?.grants ?? EMPTY_GRANTS);
  return {
    kind: 'user',
    sub,
    companyId,
    isAdmin: false,
    permissions: [...permissions],
    grants: grants.success ? grants.data : EMPTY_GRANTS,
    roles: roleNames,
  };
}

/** After a change to a person's record (company switch, new grants), this process must not serve the old one. */
export function forgetCaller(sub: string): void {
  for (const key of cache.keys()) if (key.startsWith(`${sub}|`)) cache.delete(key);
}
