import type { AreaDecl } from '../area.ts';
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

/** Staff pages: e-mails sent and received. */
export const STAFF_TOOLS_AREA: AreaDecl = {
  name: 'staff-tools',
  resources: [EMAILS_RESOURCE],
};
