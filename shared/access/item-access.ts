import type { Caller } from './caller.ts';
import { isCompanyWide } from './route-access.ts';

export type ItemKind = 'entities' | 'assets' | 'accounts';

/** The ids that place an item in the hierarchy: an account sits in an asset, an asset in an entity. */
export interface ItemLineage {
  entityId?: string;
  assetId?: string;
  accountId?: string;
  /** The entity's parents, nearest first: a grant on a parent entity reaches its subsidiaries. */
  entityAncestors?: readonly string[];
}

export function lineageOf(kind: ItemKind, id: string, item: Record<string, unknown>): ItemLineage {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  if (kind === 'entities') return { entityId: id };
  if (kind === 'assets') return { assetId: id, entityId: str(item.entityId) };
  return { accountId: id, assetId: str(item.assetId), entityId: str(item.entityId) };
}

/**
 * Whether the caller may read or write an item. Company users always may; others need a grant on the
 * item or on a parent (account, then asset, then entity and its parents); a write grant implies read.
 */
export function canAccessItem(
  caller: Pick<Caller, 'isAdmin' | 'permissions' | 'grants'>,
  access: 'read' | 'write',
  lineage: ItemLineage,
): boolean {
  if (isCompanyWide(caller)) return true;
  const g = caller.grants;
  const lists = (k: ItemKind) => (access === 'write' ? g[k].write : [...g[k].read, ...g[k].write]);
  if (lineage.accountId && lists('accounts').includes(lineage.accountId)) return true;
  if (lineage.assetId && lists('assets').includes(lineage.assetId)) return true;
  const entities = lists('entities');
  if (lineage.entityId && entities.includes(lineage.entityId)) return true;
  return (lineage.entityAncestors ?? []).some((id) => entities.includes(id));
}
