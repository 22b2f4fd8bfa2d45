import { ADMIN_ONLY, BILLING } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const EMAILS_RESOURCE: ResourceDecl = {
  name: 'emails',
  fn: 'util',
  scope: 'company',
  read: BILLING,
  write: ADMIN_ONLY,
  searchFields: ['from', 'subject'],
};

/** What the staff-tools area serves through the generic resource calls. */
export const STAFF_TOOLS_AREA_RESOURCES: readonly ResourceDecl[] = [EMAILS_RESOURCE];
