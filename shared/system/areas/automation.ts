import type { AreaDecl } from '../area.ts';
import { COMPANY_ADMINS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

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
  read: ['company_admin', 'view_integrations'],
  write: ['company_admin', 'view_integrations'],
  searchFields: ['name'],
};

export const AUTOMATION_RUNS_RESOURCE: ResourceDecl = {
  name: 'automation-runs',
  fn: 'automation',
  scope: 'company',
  read: ['company_admin', 'view_integrations'],
  write: ['company_admin', 'view_integrations'],
  indexes: ['automationId'],
  searchFields: [],
};

/** Automations, connectors and their runs. */
export const AUTOMATION_AREA: AreaDecl = {
  name: 'automation',
  resources: [SCRAPER_RUNS_RESOURCE, AUTOMATIONS_RESOURCE, AUTOMATION_RUNS_RESOURCE],
};
