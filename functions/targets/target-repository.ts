/**
 * | pattern                                  | key condition                                         | index |
 * | ---------------------------------------- | ----------------------------------------------------- | ----- |
 * | one target by id                         | pk = C#{companyId}#targets, sk = id                   | table |
 * | every target of a company                | pk = C#{companyId}#targets                            | table |
 * | write a new target (must not exist)      | pk = C#{companyId}#targets, sk = id                   | table |
 * | change a target (on its revision)        | pk = C#{companyId}#targets, sk = id                   | table |
 * | one portfolio a target covers            | pk = C#{companyId}#asset-groups, sk = id              | table |
 * | names of every entity, portfolio, site   | pk = C#{companyId}#entities / #asset-groups / #assets | table |
 */
import type { TargetFields } from '../../shared/schemas/targets.ts';
import type { TargetStatus } from '../../shared/targets/target-maths.ts';
import { projectAll } from '../core/data/batch-reads.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  putItem,
  queryAll,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { storedRecord } from '../core/data/stored-record.ts';

/** A target as stored: its fields, and the status it was last judged to have. */
export type StoredTarget = StoredItem &
  TargetFields & {
    companyId: string;
    createdAt: string;
    updatedAt: string;
    createdBy: string;
    deleted?: boolean;
    /** The status last worked out, so a change to off track is told once. */
    lastStatus?: TargetStatus;
    lastStatusAt?: string;
  };

export const targetsRef = (companyId: string): CollectionRef => declaredRef('targets', { companyId });

/** Typed as stored, with no field required: a target missing one is refused by its operations, not a 500. */
const toTarget = (item: StoredItem): StoredTarget => storedRecord<StoredTarget>('target', item, []);

export async function findTarget(companyId: string, id: string): Promise<StoredTarget | undefined> {
  const item = await getItem(targetsRef(companyId).pk, id);
  return item ? toTarget(item) : undefined;
}

/** Every target of the company, deleted ones included (a company keeps tens, not thousands). */
export async function listTargets(companyId: string): Promise<StoredTarget[]> {
  return (await queryAll(targetsRef(companyId).pk)).map(toTarget);
}

export async function putNewTarget(target: StoredTarget): Promise<void> {
  await putItem(targetsRef(target.companyId), target, { mustNotExist: true });
}

export async function changeTarget(
  companyId: string,
  id: string,
  change: (current: StoredTarget) => StoredTarget | undefined | Promise<StoredTarget | undefined>,
): Promise<{ before: StoredTarget; after: StoredTarget; written: boolean } | undefined> {
  const out = await changeItem(targetsRef(companyId), id, (current) => change(toTarget(current)));
  return out && { before: toTarget(out.before), after: toTarget(out.after), written: out.written };
}

/** A portfolio as stored, with its sites' ids (none when it was stored without them). */
export type StoredPortfolio = StoredItem & { assetIds: readonly string[] };

/** A portfolio a target covers, as stored (its sites decide who reaches it). */
export async function findPortfolio(companyId: string, id: string): Promise<StoredPortfolio | undefined> {
  const item = await getItem(declaredRef('asset-groups', { companyId }).pk, id);
  if (!item) return undefined;
  const assetIds = Array.isArray(item.assetIds) ? item.assetIds : [];
  return { ...item, assetIds: assetIds.filter((a): a is string => typeof a === 'string') };
}

/** What targets can cover: the company's live entities, portfolios and sites, with their names and places. */
export async function listScopeItems(companyId: string) {
  const pk = (name: string) => declaredRef(name, { companyId }).pk;
  const [entities, portfolios, sites] = await Promise.all([
    projectAll(pk('entities'), ['legalName', 'parentEntityId']),
    projectAll(pk('asset-groups'), ['name', 'assetIds']),
    projectAll(pk('assets'), ['siteName', 'entityId']),
  ]);
  return { entities, portfolios, sites };
}
