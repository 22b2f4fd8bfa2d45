/**
 * | pattern                                  | key condition                                           | index |
 * | ---------------------------------------- | ------------------------------------------------------- | ----- |
 * | every member of a company                | pk = C#{companyId}#users                                | table |
 * | write / remove a member                  | pk = C#{companyId}#users, sk = sub                      | table |
 * | join / leave a company (the profile)     | pk = U#{sub}, sk = profile                              | table |
 * | a page of every company                  | generic list of G#companies (counter, bookmarks)        | table |
 * | write a company (create: must not exist) | pk = G#companies, sk = companyId                        | table |
 * | write a role                             | pk = C#{companyId}#roles, sk = id                       | table |
 * | a company's validation rule changes      | pk = C#{companyId}#invoice-validation-rules, sk = rules | table |
 */

import { changeItem } from '../data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  deleteRaw,
  getRaw,
  listItems,
  putItem,
  putRaw,
  queryAll,
  type StoredItem,
} from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';
import { changeProfile, type StoredMembership, toMembership, type UserProfile } from './user-repository.ts';

const collectionRef = (name: 'users' | 'companies' | 'roles', companyId?: string): CollectionRef =>
  declaredRef(name, companyId ? { companyId } : {});

/** A company's members: its `users` items, keyed by subject. */
export async function listMemberships(companyId: string): Promise<StoredMembership[]> {
  return (await queryAll(collectionRef('users', companyId).pk)).map(toMembership);
}

export async function putMembership(companyId: string, item: StoredMembership): Promise<void> {
  await putItem(collectionRef('users', companyId), item);
}

/**
 * Changes a member as stored when written, retried if another write lands in between: two admins changing
 * one person's role and grants at once both land, and a member removed meanwhile is not written back.
 * Answers undefined when there is no such member.
 */
export async function changeMembership(
  companyId: string,
  sub: string,
  change: (current: StoredMembership) => StoredMembership | Promise<StoredMembership>,
): Promise<StoredMembership | undefined> {
  const after = (
    await changeItem(collectionRef('users', companyId), sub, (item) => change(toMembership(item)))
  )?.after;
  return after ? toMembership(after) : undefined;
}

export async function deleteMembership(companyId: string, sub: string): Promise<void> {
  await deleteRaw(collectionRef('users', companyId).pk, sub);
}

/** Adds a company to a person's profile, creating the profile for someone new. */
export async function joinCompany(
  person: { sub: string; email: string; name: string },
  companyId: string,
): Promise<void> {
  await changeProfile(person.sub, (profile) => {
    const next: UserProfile = profile
      ? { ...profile, companyIds: [...new Set([...profile.companyIds, companyId])] }
      : { ...person, isAdmin: false, currentCompanyId: companyId, companyIds: [companyId] };
    next.currentCompanyId ??= companyId;
    return next;
  });
}

/** Takes a company off a person's profile; if it was their current one, they land in another. */
export async function leaveCompany(sub: string, companyId: string): Promise<void> {
  await changeProfile(sub, (profile) => {
    if (!profile) return undefined;
    const companyIds = profile.companyIds.filter((id) => id !== companyId);
    const currentCompanyId =
      profile.currentCompanyId === companyId ? companyIds[0] : profile.currentCompanyId;
    return { ...profile, companyIds, currentCompanyId };
  });
}

export async function listAllCompanies(limit: number, skip: number) {
  return listItems(collectionRef('companies'), { filters: {}, limit, skip });
}

export async function putCompany(item: StoredItem, opts: { mustNotExist?: boolean } = {}): Promise<void> {
  await putItem(collectionRef('companies'), item, opts);
}

export async function putRole(companyId: string, item: StoredItem): Promise<void> {
  await putItem(collectionRef('roles', companyId), item);
}

const rulesKey = (companyId: string) => ({
  pk: `${keys.collection({ companyId }, 'invoice-validation-rules')}`,
  sk: 'rules',
});

/** A company's changes to the bill validation checks; the defaults fill in the rest. */
export async function getValidationRuleChanges(companyId: string): Promise<Record<string, unknown>> {
  const { pk, sk } = rulesKey(companyId);
  const item = await getRaw(pk, sk);
  return item && typeof item.rules === 'object' && item.rules !== null
    ? (item.rules as Record<string, unknown>)
    : {};
}

export async function putValidationRuleChanges(
  companyId: string,
  rules: Record<string, unknown>,
): Promise<void> {
  await putRaw({
    ...rulesKey(companyId),
    _id: 'rules',
    companyId,
    rules,
    updatedAt: new Date().toISOString(),
  });
}
