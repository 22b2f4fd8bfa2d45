import { COMPANY_ADMINS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

/** The automation area is for company admins and those who may see integrations (01 §6). */
export const AUTOMATORS = ['company_admin', 'view_integrations'] as const;

export const SCRAPER_RUNS_RESOURCE: ResourceDecl = {
  name: 'scraper-runs',
  fn: 'automation',
  scope: 'company',
  // Connector runs: the connectors area is for company admins (01 §6).
  read: COMPANY_ADMINS,
  write: COMPANY_ADMINS,
  indexes: ['supplierId'],
  searchFields: [],
};

export const AUTOMATIONS_RESOURCE: ResourceDecl = {
  name: 'automations',
  fn: 'automation',
  scope: 'company',
  read: AUTOMATORS,
  write: AUTOMATORS,
  searchFields: ['name'],
};

export const AUTOMATION_RUNS_RESOURCE: ResourceDecl = {
  name: 'automation-runs',
  fn: 'automation',
  scope: 'company',
  read: AUTOMATORS,
  write: AUTOMATORS,
  indexes: ['automationId'],
  searchFields: [],
};

/** What the automation area serves through the generic resource calls. */
export const AUTOMATION_AREA_RESOURCES: readonly ResourceDecl[] = [
  SCRAPER_RUNS_RESOURCE,
  AUTOMATIONS_RESOURCE,
  AUTOMATION_RUNS_RESOURCE,
];
