import type { AreaDecl } from '../area.ts';
import type { QueueDecl, ScheduleDecl } from '../functions.ts';
import { COMPANY_ADMINS } from '../permission-sets.ts';
import { AUTOMATION_AREA_RESOURCES, AUTOMATORS } from '../resources/automation.ts';
import { routesOf } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

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

const AUTOMATION_RUNS = { resource: 'automation-runs' } as const;

/** Automation (02 §7 Automation): templates, a run by hand, a file dropped into an automation's folder. */
const AUTOMATION_ROUTES: readonly HttpRoute[] = [
  runs('GET', '/automation/templates', 'automation.templates', AUTOMATORS),
  runs('POST', '/automation/upload-url', 'automation.uploadUrl', AUTOMATORS),
  runs('POST', '/automation/{id}/run', 'automation.run', AUTOMATORS),
  runs('GET', '/automation-runs/error-codes', 'automationRuns.errorCodes', AUTOMATORS, AUTOMATION_RUNS),
  runs('GET', '/automation-runs/{id}/attachment', 'automationRuns.attachment', AUTOMATORS, AUTOMATION_RUNS),
  // Runs are written as they go: the generic writes are refused.
  runs('POST', '/automation-runs', 'automationRuns.readOnly', AUTOMATORS, AUTOMATION_RUNS),
  runs('POST', '/automation-runs/bulk', 'automationRuns.readOnly', AUTOMATORS, AUTOMATION_RUNS),
  runs('PATCH', '/automation-runs/{id}', 'automationRuns.readOnlyItem', AUTOMATORS, AUTOMATION_RUNS),
  runs('PUT', '/automation-runs/{id}', 'automationRuns.readOnlyItem', AUTOMATORS, AUTOMATION_RUNS),
  runs('DELETE', '/automation-runs/{id}', 'automationRuns.readOnlyItem', AUTOMATORS, AUTOMATION_RUNS),
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
  resources: AUTOMATION_AREA_RESOURCES,
  routes: [...CONNECTOR_ROUTES, ...AUTOMATION_ROUTES],
  queues: CONNECTOR_QUEUES,
  schedules: CONNECTOR_SCHEDULES,
};
