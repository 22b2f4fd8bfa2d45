/**
 * | pattern                              | key condition                           | index |
 * | ------------------------------------ | --------------------------------------- | ----- |
 * | a person's profile                   | pk = U#{sub}, sk = profile              | table |
 * | write a profile                      | pk = U#{sub}, sk = profile              | table |
 * | set a person's current company       | pk = U#{sub}, sk = profile (must exist) | table |
 * | end a person's sessions (time)       | pk = U#{sub}, sk = profile (must exist) | table |
 * | a person's membership of one company | pk = C#{companyId}#users, sk = sub      | table |
 * | every role of a company              | pk = C#{companyId}#roles                | table |
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type * as z from 'zod';
import type { roleSchema } from '../../../shared/schemas/role.ts';
import type { userSchema } from '../../../shared/schemas/user.ts';
import type { StoredItem } from '../data/item-repository.ts';
import {
  getItem,
  getRaw,
  putRaw,
  putRawIf,
  queryAll,
  REVISION_ATTRIBUTE,
  stripKeys,
  updateRaw,
} from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';
import { type Stored, storedRecord } from '../data/stored-record.ts';
import { conflict } from '../lib/errors.ts';

/**
 * A person's membership of one company as stored, keyed by their subject. Every field is optional: members
 * written by the seed, an import or an older release may lack what the user schema fills in today, and
 * readers fall back on defaults (no permissions, no grants). Permissions are read through `permissionList`,
 * which drops names no longer known, so they are typed as stored.
 */
type Membership = Partial<Omit<z.input<typeof userSchema>, 'permissions'>> & {
  permissions?: string[];
  entityId?: string;
};
export type StoredMembership = Stored<Membership>;

/** A company's role as stored; its permissions as stored, like a member's. */
type Role = Partial<Omit<z.input<typeof roleSchema>, 'permissions'>> & { permissions?: string[] };
export type StoredRole = Stored<Role>;

export const toMembership = (item: StoredItem): StoredMembership =>
  storedRecord<Membership>('membership', item, []);

const toRole = (item: StoredItem): StoredRole => storedRecord<Role>('role', item, []);

/** A person, across companies: keyed by the identity provider's subject. */
export interface UserProfile {
  sub: string;
  email: string;
  name: string;
  isAdmin: boolean;
  currentCompanyId?: string;
  companyIds: string[];
  picture?: string;
  settings?: Record<string, unknown>;
  /** When the person last signed out (seconds): their access tokens issued until then are refused. */
  sessionsEndedAt?: number;
}

export async function getProfile(sub: string): Promise<UserProfile | undefined> {
  const { pk, sk } = keys.userProfile(sub);
  const item = await getItem(pk, sk);
  return item ? (item as unknown as UserProfile & StoredItem) : undefined;
}

export async function putProfile(profile: UserProfile): Promise<void> {
  const { pk, sk } = keys.userProfile(profile.sub);
  await putRaw({ pk, sk, _id: profile.sub, ...profile });
}

/**
 * Changes a profile as stored when written, on condition that its revision is still the one read, and
 * again from a fresh read when another write came in between: a sign-out (its end of sessions), a company
 * joined or a name changed at the same moment all land. `change` gets undefined for no profile yet and
 * answers the profile to write, or undefined to write nothing; it may run more than once.
 */
export async function changeProfile(
  sub: string,
  change: (current: UserProfile | undefined) => UserProfile | undefined,
): Promise<UserProfile | undefined> {
  const { pk, sk } = keys.userProfile(sub);
  for (let attempt = 0; attempt < 60; attempt++) {
    const raw = await getRaw(pk, sk);
    const current = raw ? (stripKeys(raw) as unknown as UserProfile) : undefined;
    const next = change(current);
    if (!next) return current;
    const revision = raw?.[REVISION_ATTRIBUTE];
    const written = await putRawIf(
      { ...next, pk, sk, _id: sub },
      !raw
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : revision === undefined
          ? {
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#rev)',
              ExpressionAttributeNames: { '#rev': REVISION_ATTRIBUTE },
            }
          : {
              ConditionExpression: '#rev = :rev',
              ExpressionAttributeNames: { '#rev': REVISION_ATTRIBUTE },
              ExpressionAttributeValues: { ':rev': revision },
            },
    );
    if (written) return next;
    await sleep(Math.random() * Math.min(250, 5 * 2 ** Math.min(attempt, 6)));
  }
  throw conflict('This profile is being changed by someone else; please try again.');
}

export async function setCurrentCompany(sub: string, companyId: string): Promise<void> {
  const { pk, sk } = keys.userProfile(sub);
  await updateRaw(pk, sk, { currentCompanyId: companyId, updatedAt: new Date().toISOString() });
}

/** Ends every session of the person: tokens issued up to `atSeconds` are refused from now on. */
export async function endSessions(sub: string, atSeconds: number): Promise<void> {
  const { pk, sk } = keys.userProfile(sub);
  await updateRaw(pk, sk, { sessionsEndedAt: atSeconds, updatedAt: new Date().toISOString() });
}

/** A user's membership of one company: the `users` resource of that company, keyed by subject. */
export async function getMembership(companyId: string, sub: string): Promise<StoredMembership | undefined> {
  const item = await getItem(keys.collection({ companyId }, 'users'), sub);
  return item ? toMembership(item) : undefined;
}

export async function listRoles(companyId: string): Promise<StoredRole[]> {
  return (await queryAll(keys.collection({ companyId }, 'roles'))).map(toRole);
}
