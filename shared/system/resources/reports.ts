import { COMPANY_USERS, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const REPORTS_RESOURCE: ResourceDecl = {
  name: 'reports',
  fn: 'insights',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  searchFields: ['name'],
  // A report is its sites': who may read them may read it; one of the whole company is company-wide users'.
  parent: { type: 'assets', field: 'assetIds', whenMissing: COMPANY_USERS },
};

export const REPORT_TEMPLATES_RESOURCE: ResourceDecl = {
  name: 'report-templates',
  fn: 'insights',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: COMPANY_USERS,
  searchFields: ['name'],
};

export const SCHEDULED_REPORTS_RESOURCE: ResourceDecl = {
  name: 'scheduled-reports',
  fn: 'insights',
  scope: 'company',
  read: COMPANY_USERS,
  write: COMPANY_USERS,
  searchFields: [],
};

/** What the reports area serves through the generic resource calls. */
export const REPORTS_AREA_RESOURCES: readonly ResourceDecl[] = [
  REPORTS_RESOURCE,
  REPORT_TEMPLATES_RESOURCE,
  SCHEDULED_REPORTS_RESOURCE,
];
