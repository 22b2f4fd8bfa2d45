import { canAccessItem, type ItemLineage } from '../../shared/access/item-access.ts';
import type { RoutePermission } from '../../shared/access/permission-names.ts';
import { type AccessSubject, canChange } from '../../shared/access/route-access.ts';
import { useSession } from './app-context.tsx';

/**
 * Whether the browser offers changes to a site, meter or entity: never to staff looking into another
 * company (the API refuses their writes there), otherwise to whoever holds write access to the item.
 * A write grant on an entity reaches its sites, meters and subsidiaries, and the browser does not hold
 * the entity tree, so a user with any entity write grant is offered the change and the API decides.
 */
export function mayChangeItem(access: AccessSubject, lineage: ItemLineage): boolean {
  if (access.staffView === true) return false;
  if (canAccessItem(access, 'write', lineage)) return true;
  return access.grants.entities.write.length > 0;
}

/** `mayChangeItem` for the signed-in user. */
export function useMayChangeItem(lineage: ItemLineage): boolean {
  return mayChangeItem(useSession().access, lineage);
}

/** Whether a change guarded by a route permission is offered ('*': any user, but not staff looking in). */
export function useMayChange(permission: RoutePermission = '*'): boolean {
  return canChange(permission, useSession().access);
}
