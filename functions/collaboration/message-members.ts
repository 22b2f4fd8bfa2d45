import type { Caller } from '../../shared/access/caller.ts';
import { canAccessItem } from '../../shared/access/item-access.ts';
import { canUseRoute } from '../../shared/access/route-access.ts';
import type { MessageMember } from '../../shared/schemas/collaboration.ts';
import { findResource } from '../../shared/system/resources.ts';
import { memberCaller } from '../core/access/caller-service.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import { listMemberships } from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import type { StoredItem } from '../core/data/item-repository.ts';

/** A member of the company who may read a thread's site: whom it may mention, assign and tell of changes. */
export interface SiteReader extends MessageMember {
  email?: string;
}

const MESSAGE_READERS = findResource('messages')?.read ?? [];

/**
 * The company's members who may read the site, judged as their own requests would be: a member granted
 * other sites only must not be mentioned, assigned or told of a thread they could not open.
 */
export async function readersOfSite(companyId: string, asset: StoredItem): Promise<SiteReader[]> {
  const [memberships, roles] = await Promise.all([listMemberships(companyId), listRoles(companyId)]);
  const lineage = await new LineageResolver(companyId).complete('assets', asset);
  const readers: SiteReader[] = [];
  for (const m of memberships) {
    if (m.deleted === true) continue;
    const member: Caller = memberCaller(companyId, m._id, m, roles);
    if (!canUseRoute(MESSAGE_READERS, member) || !canAccessItem(member, 'read', lineage)) continue;
    const email = typeof m.email === 'string' ? m.email : undefined;
    const name = typeof m.name === 'string' && m.name ? m.name : (email ?? m._id);
    readers.push({ userSub: m._id, name, ...(email ? { email } : {}) });
  }
  return readers.sort((a, b) => a.name.localeCompare(b.name));
}
