import type { AreaDecl } from '../area.ts';
import type { QueueDecl } from '../functions.ts';
import { COMPANY_USERS, PORTFOLIO_READERS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';
import { routesOf } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

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

const READ = REPORTS_RESOURCE.read;
const REPORTS = { resource: 'reports' } as const;
const READ_ASSET = { item: { type: 'assets', param: 'id', access: 'read' } } as const;
const READ_GROUP = {
  item: { type: 'assets', resource: 'asset-groups', param: 'id', access: 'read' },
} as const;
// Regenerating replaces the file of a report the caller may read; it changes none of its figures' sources.
const READ_REPORT = { item: { type: 'assets', resource: 'reports', param: 'id', access: 'read' } } as const;

const route = routesOf('insights');

/**
 * Reports (02 §7 Reports): asking for one records it as queued and sends it to the report queue, whose
 * worker builds the file; downloads are short-lived links to it.
 */
const REPORT_ROUTES: readonly HttpRoute[] = [
  route('POST', '/reports/generate2', 'reports.generate', READ, REPORTS),
  route('GET', '/reports/generate/{type}', 'reports.generateCompany', READ, REPORTS),
  route('GET', '/reports/asset/{id}/{type}', 'reports.generateAsset', READ, { ...REPORTS, ...READ_ASSET }),
  route('GET', '/reports/portfolio/{id}/{type}', 'reports.generatePortfolio', READ, {
    ...REPORTS,
    ...READ_GROUP,
  }),
  route('POST', '/reports/{id}/regenerate', 'reports.regenerate', READ, { ...REPORTS, ...READ_REPORT }),
  route('GET', '/reports/{id}/download', 'reports.download', READ, { ...REPORTS, ...READ_REPORT }),
  route('GET', '/reports/{id}/download-portfolio', 'reports.download', READ, { ...REPORTS, ...READ_REPORT }),
  route('GET', '/report-templates/system', 'reports.systemTemplates', READ, { resource: 'report-templates' }),
  // The generic create, replaced: a report is made by asking for one, which queues its build.
  route('POST', '/reports', 'reports.generate', READ, REPORTS),
  route('POST', '/reports/bulk', 'reports.generate', READ, REPORTS),
];

const REPORT_QUEUES: readonly QueueDecl[] = [
  {
    name: 'reports',
    consumer: 'reports',
    batchSize: 1,
    // The worker extends the visibility while it builds; this is how soon a crashed build is tried again.
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 3,
  },
];

/** Reports, report templates and scheduled reports. */
export const REPORTS_AREA: AreaDecl = {
  name: 'reports',
  resources: [REPORTS_RESOURCE, REPORT_TEMPLATES_RESOURCE, SCHEDULED_REPORTS_RESOURCE],
  routes: [...REPORT_ROUTES],
  queues: REPORT_QUEUES,
};
