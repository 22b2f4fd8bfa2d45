import type { AreaDecl } from '../area.ts';
import type { QueueDecl, ScheduleDecl } from '../functions.ts';
import { COMPANY_ADMINS } from '../permission-sets.ts';
import type { ResourceDecl } from '../resources.ts';
import { routesOf } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

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

const runs = routesOf('automation');
const RUNS = { resource: 'scraper-runs' } as const;

/** Connector runs (02 §7 Scraper runs): started by hand or by the schedule, with a log per step. */
const CONNECTOR_ROUTES: readonly HttpRoute[] = [
  runs('POST', '/scraper-runs/start-run', 'scraperRuns.start', COMPANY_ADMINS, RUNS),
  runs('GET', '/scraper-runs/{id}/logs/{logId}/download', 'scraperRuns.logDownload', COMPANY_ADMINS, RUNS),
  runs('GET', '/scraper-runs/connectors', 'scraperRuns.connectors', COMPANY_ADMINS, RUNS),
  // Runs are written by the worker only: the generic writes are refused.
  runs('POST', '/scraper-runs', 'scraperRuns.readOnly', COMPANY_ADMINS, RUNS),
  runs('POST', '/scraper-runs/bulk', 'scraperRuns.readOnly', COMPANY_ADMINS, RUNS),
  runs('PATCH', '/scraper-runs/{id}', 'scraperRuns.readOnlyItem', COMPANY_ADMINS, RUNS),
  runs('PUT', '/scraper-runs/{id}', 'scraperRuns.readOnlyItem', COMPANY_ADMINS, RUNS),
  runs('DELETE', '/scraper-runs/{id}', 'scraperRuns.readOnlyItem', COMPANY_ADMINS, RUNS),
];

const CONNECTOR_QUEUES: readonly QueueDecl[] = [
  {
    name: 'scraper',
    consumer: 'scraper',
    batchSize: 1,
    // Above the worker's timeout; the worker extends it while a run goes on.
    visibilityTimeoutSeconds: 960,
    maxReceiveCount: 3,
  },
];

const CONNECTOR_SCHEDULES: readonly ScheduleDecl[] = [
  // Daily at 05:00 UTC, before the missing-bills check: every switched-on supplier login is run.
  { name: 'scraper-sweep', expression: 'cron(0 5 * * ? *)', queue: 'scraper', message: { sweep: 'scraper' } },
];

/** Automations, connectors and their runs. */
export const AUTOMATION_AREA: AreaDecl = {
  name: 'automation',
  resources: [SCRAPER_RUNS_RESOURCE, AUTOMATIONS_RESOURCE, AUTOMATION_RUNS_RESOURCE],
  routes: CONNECTOR_ROUTES,
  queues: CONNECTOR_QUEUES,
  schedules: CONNECTOR_SCHEDULES,
};
