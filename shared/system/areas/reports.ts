import type { AreaDecl } from '../area.ts';
import { COMPANY_USERS, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';

export const REPORTS_RESOURCE: ResourceDecl = {
  name: 'reports',
  fn: 'insights',
  scope: 'company',
  read: PORTFOLIO_READERS,
  write: PORTFOLIO_READERS,
  searchFields: ['name'],
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

/** Reports, report templates and scheduled reports. */
export const REPORTS_AREA: AreaDecl = {
  name: 'reports',
  resources: [REPORTS_RESOURCE, REPORT_TEMPLATES_RESOURCE, SCHEDULED_REPORTS_RESOURCE],
};
