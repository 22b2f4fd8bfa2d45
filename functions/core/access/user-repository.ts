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
import type { StoredItem } from '../data/item-repository.ts';
import { getItem, putRaw, queryAll, updateRaw } from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';

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
export async function getMembership(companyId: string, sub: string): Promise<StoredItem | undefined> {
  return getItem(keys.collection({ companyId }, 'users'), sub);
}

export async function listRoles(companyId: string): Promise<StoredItem[]> {
  return queryAll(keys.collection({ companyId }, 'roles'));
}
