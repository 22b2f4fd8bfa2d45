import type { Caller } from '../../../shared/access/caller.ts';
import { findResource, type ResourceDecl } from '../../../shared/system/resources.ts';
import { getCollectionItems } from '../data/batch-reads.ts';
import {
  type CollectionRef,
  declaredRef,
  type StoredItem,
  subCollectionRef,
} from '../data/item-repository.ts';
import { formError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { objectOf } from '../lib/stored-values.ts';

export function declaredResource(name: string): ResourceDecl {
  const r = findResource(name);
  if (!r) throw new Error(`Resource ${name} is not declared`);
  return r;
}

/** The company's collection of a declared resource, with its indexes and search fields. */
export const resourceRef = (companyId: string, name: string): CollectionRef =>
  declaredRef(name, { companyId });

/** Items that belong to one item (a site's documents, a project's files): no indexes, no search. */
export function childRef(companyId: string, resource: string, parentId: string, sub: string): CollectionRef {
  return subCollectionRef({ companyId }, resource, parentId, sub);
}

export function stampNew(caller: Caller, data: Record<string, unknown>): StoredItem {
  const now = new Date().toISOString();
  return {
    ...data,
    _id: newId(),
    companyId: caller.companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
}

/**
 * Fields that name another item of the same company, and the resource it is in. A map: a field of a
 * caller's body is looked up here, and `constructor` must name nothing.
 */
const REFERENCE_FIELDS: ReadonlyMap<string, { resource: string; what: string }> = new Map([
  ['assetId', { resource: 'assets', what: 'site' }],
  ['assetIds', { resource: 'assets', what: 'site' }],
  ['accountId', { resource: 'accounts', what: 'meter' }],
  ['accountIds', { resource: 'accounts', what: 'meter' }],
  ['parentAccountId', { resource: 'accounts', what: 'meter' }],
  ['entityId', { resource: 'entities', what: 'entity' }],
  ['parentEntityId', { resource: 'entities', what: 'entity' }],
  ['dashboardId', { resource: 'dashboards', what: 'dashboard' }],
  ['reportTemplateId', { resource: 'report-templates', what: 'report template' }],
  ['importTemplateId', { resource: 'import-templates', what: 'import template' }],
  ['automationId', { resource: 'automations', what: 'automation' }],
  ['recommendationId', { resource: 'recommendations', what: 'recommendation' }],
  ['invoiceId', { resource: 'invoices', what: 'invoice' }],
  ['invoiceValidationId', { resource: 'invoice-validation', what: 'invoice' }],
]);

const idsIn = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.filter((v): v is string => typeof v === 'string')
      : [];

/**
 * Refuses an item whose reference fields name what the caller's company does not hold: another
 * company's id reads as no item at all ("not found"), as its routes answer. Only fields the write sets
 * or changes are checked (`before` is the stored item of an update), so an item pointing at something
 * since deleted can still be edited otherwise. With the caller's `sub`, another member's own item (of a
 * resource with an owner) reads as no item too.
 */
export async function refuseUnknownRefs(
  companyId: string,
  item: Readonly<Record<string, unknown>>,
  before?: Readonly<Record<string, unknown>>,
  prefix = '',
  sub?: string,
): Promise<void> {
  const errors: Record<string, string> = {};
  for (const [field, ref] of REFERENCE_FIELDS) {
    if (!Object.hasOwn(item, field)) continue;
    const known = new Set(before && Object.hasOwn(before, field) ? idsIn(before[field]) : []);
    const ids = idsIn(item[field]).filter((id) => !known.has(id));
    if (ids.length === 0) continue;
    const found = await getCollectionItems({ companyId }, ref.resource, ids);
    // Another member's own item (their dashboard) is, to the caller, no item at all.
    const owner = sub === undefined ? undefined : findResource(ref.resource)?.owner;
    const missing = ids.find((id) => {
      const hit = found.get(id);
      return (
        !hit ||
        hit.deleted === true ||
        (owner !== undefined && hit[owner] !== undefined && hit[owner] !== sub)
      );
    });
    if (missing !== undefined) errors[`${prefix}${field}`] = `No such ${ref.what} was found`;
  }
  await refuseUnknownGrants(companyId, item.grants, before?.grants, `${prefix}grants.`, errors);
  const people = Object.fromEntries(
    MEMBER_FIELDS.filter((f) => Object.hasOwn(item, f) && !(before && before[f] === item[f])).map((f) => [
      `${prefix}${f}`,
      item[f],
    ]),
  );
  Object.assign(errors, await unknownMembers(companyId, people));
  if (Object.keys(errors).length > 0) throw formError(errors);
}

/** Fields that name a person: a member of the same company (a subject), never someone elsewhere. */
const MEMBER_FIELDS = ['userSub', 'assignedUserId'];
const MAX_SUBJECT_LENGTH = 256;

async function unknownMembers(
  companyId: string,
  fields: Record<string, unknown>,
): Promise<Record<string, string>> {
  const named = Object.entries(fields).filter(
    (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
  );
  if (named.length === 0) return {};
  // A subject is a short id; one too long to be a key names nobody, and is not sent to the table.
  const members = await getCollectionItems(
    { companyId },
    'users',
    named.map(([, sub]) => sub).filter((sub) => sub.length <= MAX_SUBJECT_LENGTH),
  );
  return Object.fromEntries(
    named.filter(([, sub]) => !members.has(sub)).map(([field]) => [field, 'No such user was found']),
  );
}

/**
 * Refuses, with a field error, people named by these fields (a subject each; null or empty names
 * nobody) who are not members of the company: another company's user reads as nobody.
 */
export async function refuseUnknownMembers(
  companyId: string,
  fields: Record<string, string | null | undefined>,
): Promise<void> {
  const errors = await unknownMembers(companyId, fields);
  if (Object.keys(errors).length > 0) throw formError(errors);
}

/** What each list of a grant (a user's, a grant set's) names: the company's own items only. */
const GRANT_KINDS: ReadonlyMap<string, { resource: string; what: string }> = new Map([
  ['entities', { resource: 'entities', what: 'entity' }],
  ['assets', { resource: 'assets', what: 'site' }],
  ['accounts', { resource: 'accounts', what: 'meter' }],
]);

const grantIds = (grants: unknown, kind: string, list: string): string[] => {
  const lists = objectOf(grants);
  if (!Object.hasOwn(lists, kind)) return [];
  const ids = objectOf(lists[kind]);
  return Object.hasOwn(ids, list) ? idsIn(ids[list]) : [];
};

/**
 * Adds to `errors` each list of `grants` naming what the company does not hold (another company's id
 * reads as no item), checking only ids that `before` (the stored grants) did not already hold.
 */
async function refuseUnknownGrants(
  companyId: string,
  grants: unknown,
  before: unknown,
  prefix: string,
  errors: Record<string, string>,
): Promise<void> {
  for (const [kind, ref] of GRANT_KINDS) {
    for (const list of ['read', 'write']) {
      const known = new Set(grantIds(before, kind, list));
      const ids = grantIds(grants, kind, list).filter((id) => !known.has(id));
      if (ids.length === 0) continue;
      const found = await getCollectionItems({ companyId }, ref.resource, ids);
      const missing = ids.some((id) => {
        const hit = found.get(id);
        return !hit || hit.deleted === true;
      });
      if (missing) errors[`${prefix}${kind}.${list}`] = `No such ${ref.what} was found`;
    }
  }
}
