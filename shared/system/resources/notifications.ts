import { COMPANY_ADMINS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const NOTIFICATIONS_RESOURCE: ResourceDecl = {
  name: 'notifications',
  fn: 'session',
  scope: 'company',
  read: '*',
  write: COMPANY_ADMINS,
  owner: 'userSub',
  indexes: ['userSub'],
  searchFields: ['content'],
};

/** What the notifications area serves through the generic resource calls. */
export const NOTIFICATIONS_AREA_RESOURCES: readonly ResourceDecl[] = [NOTIFICATIONS_RESOURCE];
