import { recipientChoicesQuery, unsubscribeQuery } from '../../reports/schedule-queries.ts';
import { reportGenerateQuery, scopedReportGenerateQuery } from '../../schemas/report-queries.ts';
import type { AreaDecl } from '../area.ts';
import type { QueueDecl, ScheduleDecl } from '../functions.ts';
import {
  REPORT_TEMPLATES_RESOURCE,
  REPORTS_AREA_RESOURCES,
  REPORTS_RESOURCE,
  SCHEDULED_REPORTS_RESOURCE,
} from '../resources/reports.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const READ = REPORTS_RESOURCE.read;
const TEMPLATES = { resource: 'report-templates' } as const;
const TEMPLATE_WRITE = REPORT_TEMPLATES_RESOURCE.write;
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
  route('POST', '/reports/{id}/send', 'reports.send', READ, { ...REPORTS, ...READ_REPORT }),
  route('GET', '/reports/{id}/download', 'reports.download', READ, { ...REPORTS, ...READ_REPORT }),
  route('GET', '/reports/{id}/download-portfolio', 'reports.download', READ, { ...REPORTS, ...READ_REPORT }),
  // Not in 02 §7: the report pages that chart a report read its figures without downloading the file.
  route('GET', '/reports/{id}/document', 'reports.document', READ, { ...REPORTS, ...READ_REPORT }),
  route('GET', '/report-templates/system', 'reports.systemTemplates', READ, TEMPLATES),
  // A company's own templates: the generic writes, replaced by ones that check a template can be built.
  route('POST', '/report-templates', 'reportTemplates.create', TEMPLATE_WRITE, TEMPLATES),
  route('POST', '/report-templates/bulk', 'reportTemplates.bulk', TEMPLATE_WRITE, TEMPLATES),
  route('PATCH', '/report-templates/{id}', 'reportTemplates.update', TEMPLATE_WRITE, TEMPLATES),
  route('POST', '/report-templates/preview', 'reportTemplates.preview', READ, TEMPLATES),
  route('GET', '/report-templates/{id}/source-items', 'reportTemplates.sourceItems', READ, TEMPLATES),
  // The generic create, replaced: a report is made by asking for one, which queues its build.
  route('POST', '/reports', 'reports.generate', READ, REPORTS),
  route('POST', '/reports/bulk', 'reports.generate', READ, REPORTS),
];

/** Report builds, the scheduled-report sweep and scheduled-report runs. */
export const REPORTS_QUEUE: QueueDecl = {
  name: 'reports',
  consumer: 'reports',
  batchSize: 1,
  // The worker extends the visibility while it builds; this is how soon a crashed build is tried again.
  visibilityTimeoutSeconds: 300,
  maxReceiveCount: 3,
  // A build mostly waits on reads and writes: several at once use the local stack as Lambda would.
  localReaders: 8,
};

/**
 * Every minute, the scheduled reports whose run has come are queued, one run each: a run falls within a
 * minute of its time on the schedule's own clock (EventBridge in AWS, a timer in the local stack).
 */
const REPORT_SCHEDULES: readonly ScheduleDecl[] = [
  {
    name: 'scheduled-reports',
    expression: 'rate(1 minute)',
    queue: 'reports',
    message: { sweep: 'scheduled-reports' },
  },
];

const SCHEDULED = { resource: 'scheduled-reports' } as const;
const SCHEDULE_WRITE = SCHEDULED_REPORTS_RESOURCE.write;

/**
 * Scheduled reports: the generic calls, with their writes keeping the timer's list of next runs; a run
 * asked for now; and the unsubscribe link of the mails, which takes no sign-in (its token is the credential).
 */
const SCHEDULE_ROUTES: readonly HttpRoute[] = [
  route('POST', '/scheduled-reports', 'scheduledReports.create', SCHEDULE_WRITE, SCHEDULED),
  route('POST', '/scheduled-reports/bulk', 'scheduledReports.bulk', SCHEDULE_WRITE, SCHEDULED),
  route('PATCH', '/scheduled-reports/{id}', 'scheduledReports.update', SCHEDULE_WRITE, SCHEDULED),
  route('DELETE', '/scheduled-reports/{id}', 'scheduledReports.delete', SCHEDULE_WRITE, SCHEDULED),
  route('PUT', '/scheduled-reports/{id}', 'scheduledReports.restore', SCHEDULE_WRITE, SCHEDULED),
  route('POST', '/scheduled-reports/{id}/send', 'scheduledReports.send', SCHEDULE_WRITE, SCHEDULED),
  // The members a schedule of the scope may be sent to: the scope's own read check is the operation's.
  route('GET', '/scheduled-reports/recipients', 'scheduledReports.recipients', SCHEDULE_WRITE, SCHEDULED),
  route('GET', '/scheduled-reports/unsubscribe', 'scheduledReports.unsubscribePage', '*', {
    auth: ['link'],
  }),
  route('POST', '/scheduled-reports/unsubscribe', 'scheduledReports.unsubscribe', '*', { auth: ['link'] }),
];

/** Reports, report templates and scheduled reports. */
export const REPORTS_AREA: AreaDecl = {
  name: 'reports',
  resources: REPORTS_AREA_RESOURCES,
  routes: withQueries([...REPORT_ROUTES, ...SCHEDULE_ROUTES], {
    'GET /reports/generate/{type}': reportGenerateQuery,
    'GET /reports/asset/{id}/{type}': scopedReportGenerateQuery,
    'GET /reports/portfolio/{id}/{type}': scopedReportGenerateQuery,
    'GET /scheduled-reports/recipients': recipientChoicesQuery,
    'GET /scheduled-reports/unsubscribe': unsubscribeQuery,
    'POST /scheduled-reports/unsubscribe': unsubscribeQuery,
  }),
  queues: [REPORTS_QUEUE],
  schedules: REPORT_SCHEDULES,
};
