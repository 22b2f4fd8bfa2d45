import { COMPANY_ADMINS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const KIOSKS_RESOURCE: ResourceDecl = {
  name: 'kiosks',
  fn: 'util',
  scope: 'company',
  read: COMPANY_ADMINS,
  write: COMPANY_ADMINS,
  indexes: ['assetId'],
  searchFields: ['name'],
  parent: { type: 'assets', field: 'assetId' },
};

/** What the kiosk area serves through the generic resource calls. */
export const KIOSK_AREA_RESOURCES: readonly ResourceDecl[] = [KIOSKS_RESOURCE];
