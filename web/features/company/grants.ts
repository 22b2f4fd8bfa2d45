import type { ItemType } from '../../../shared/system/resources.ts';

export interface GrantList {
  read: string[];
  write: string[];
}

export type Grants = Record<ItemType, GrantList>;
export type Access = 'none' | 'read' | 'write';

export const ITEM_TYPES: readonly ItemType[] = ['entities', 'assets', 'accounts'];

export const emptyGrants = (): Grants => ({
  entities: { read: [], write: [] },
  assets: { read: [], write: [] },
  accounts: { read: [], write: [] },
});

/** Grants as the API may send them (lists missing or partial) made whole. */
export function normaliseGrants(value: unknown): Grants {
  const out = emptyGrants();
  if (typeof value !== 'object' || value === null) return out;
  const source = value as Record<string, unknown>;
  for (const type of ITEM_TYPES) {
    const list = source[type] as Partial<Record<'read' | 'write', unknown>> | undefined;
    const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    out[type] = { read: [...new Set(ids(list?.read))], write: [...new Set(ids(list?.write))] };
  }
  return out;
}

/** Write access includes read access, so an item on the write list counts as 'write' wherever else it is. */
export function accessOf(grants: Grants, type: ItemType, id: string): Access {
  if (grants[type].write.includes(id)) return 'write';
  if (grants[type].read.includes(id)) return 'read';
  return 'none';
}

/** Sets one item's access. A write grant is kept on the read list too, so the read list names every reader. */
export function setAccess(grants: Grants, type: ItemType, id: string, access: Access): Grants {
  const read = grants[type].read.filter((x) => x !== id);
  const write = grants[type].write.filter((x) => x !== id);
  if (access !== 'none') read.push(id);
  if (access === 'write') write.push(id);
  return { ...grants, [type]: { read, write } };
}

/** The items granted of one type, for the list beside the picker. */
export function grantedIds(grants: Grants, type: ItemType): string[] {
  return [...new Set([...grants[type].read, ...grants[type].write])];
}

/** Adds a named grant set's grants to a user's own, keeping the stronger access where both name an item. */
export function mergeGrants(base: Grants, extra: Grants): Grants {
  let out = base;
  for (const type of ITEM_TYPES) {
    for (const id of grantedIds(extra, type)) {
      const next = accessOf(extra, type, id);
      if (accessOf(out, type, id) !== 'write') out = setAccess(out, type, id, next);
    }
  }
  return out;
}

/** "2 entities, 1 asset (write), 3 accounts" — a short line for the users list. */
export function grantSummary(grants: Grants): string {
  const parts: string[] = [];
  const nouns: Record<ItemType, [string, string]> = {
    entities: ['entity', 'entities'],
    assets: ['asset', 'assets'],
    accounts: ['account', 'accounts'],
  };
  for (const type of ITEM_TYPES) {
    const ids = grantedIds(grants, type);
    if (ids.length === 0) continue;
    const [one, many] = nouns[type];
    const writes = grants[type].write.length;
    parts.push(`${ids.length} ${ids.length === 1 ? one : many}${writes > 0 ? ` (${writes} write)` : ''}`);
  }
  return parts.join(', ');
}
