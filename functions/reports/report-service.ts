import { isCompanyWide } from '../../shared/access/route-access.ts';
import { type CustomTemplate, periodDates } from '../../shared/reports/custom-templates.ts';
import { type ReportRequest, reportRequestSchema } from '../../shared/reports/report-request.ts';
import { REPORT_CONTENT_TYPES, SYSTEM_TEMPLATES, templateOf } from '../../shared/reports/report-templates.ts';
import {
  type ReportGenerateQuery,
  reportGenerateQuery,
  scopedReportGenerateQuery,
} from '../../shared/schemas/report-queries.ts';
import { enforceItemCheck } from '../core/access/item-access-service.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { presignGet } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { conflict, formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import {
  bodyObjectOf,
  type OpContext,
  type Operations,
  type OpResult,
  type WithParams,
} from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { findGroup } from '../portfolios/index.ts';
import {
  changeReport,
  createReport,
  findReport,
  type Report,
  reportFileKey,
  type StoredReport,
} from './report-repository.ts';
import { findReportTemplate } from './report-template-repository.ts';

/** Long enough to start the download, short enough that a forwarded link soon stops working. */
const DOWNLOAD_SECONDS = 300;

/**
 * The sites a report covers, which decide who may read it: a site's report is the site's, a portfolio's
 * its sites'; a company-wide report has none, and only company-wide users read it.
 */
export async function coveredSites(
  ctx: Pick<OpContext, 'caller'>,
  request: Pick<ReportRequest, 'scopeType' | 'scopeId'>,
): Promise<string[]> {
  if (request.scopeType === 'asset' && request.scopeId) {
    await enforceItemCheck({ type: 'assets', param: 'id', access: 'read' }, ctx.caller, {
      id: request.scopeId,
    });
    return [request.scopeId];
  }
  if (request.scopeType === 'portfolio' && request.scopeId) {
    await enforceItemCheck(
      { type: 'assets', resource: 'asset-groups', param: 'id', access: 'read' },
      ctx.caller,
      { id: request.scopeId },
    );
    const group = await findGroup(ctx.caller.companyId, request.scopeId);
    if (!group) throw notFound();
    return [...(group.assetIds ?? [])];
  }
  if (!isCompanyWide(ctx.caller))
    throw formError({ scopeType: 'Choose a portfolio or a site: you may read only some of the company' });
  return [];
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The template a `custom` report request names, checked, and the request with the template's scope and
 * period filled in where the request leaves them out.
 */
export async function customRequestOf(
  companyId: string,
  raw: Record<string, unknown>,
): Promise<{ raw: Record<string, unknown>; template: CustomTemplate; templateId: string }> {
  const templateId = typeof raw.reportTemplateId === 'string' ? raw.reportTemplateId : '';
  if (!templateId) throw formError({ reportTemplateId: 'Choose the template' });
  const found = await findReportTemplate(companyId, templateId);
  if (!found) throw formError({ reportTemplateId: 'No such report template was found' });
  const { template } = found;
  if (!template)
    throw formError({
      reportTemplateId: 'This template has no sections a report can be built from: open it in the builder',
    });
  const scope =
    raw.scopeType === undefined
      ? { scopeType: template.scopeType, ...(template.scopeId ? { scopeId: template.scopeId } : {}) }
      : {};
  return {
    raw: { ...periodDates(template.period, today()), ...scope, ...raw, templateId: 'custom' },
    template,
    templateId,
  };
}

/** The part of a template a report keeps, so a later edit of the template changes no report made. */
export const templateSnapshot = (t: CustomTemplate) => ({
  name: t.name,
  ...(t.description ? { description: t.description } : {}),
  sections: t.sections,
});

function defaultName(request: ReportRequest, custom: Report['template']): string {
  const template = templateOf(request.templateId);
  return `${custom?.name ?? template?.name ?? 'Report'} ${request.startDate} to ${request.endDate}`;
}

/** A report as first recorded: queued, for its first build. */
export function newReport(
  companyId: string,
  request: ReportRequest,
  assetIds: string[],
  requester: { sub: string; name?: string },
  extra: { id?: string; scheduleId?: string; template?: Report['template'] } = {},
): StoredReport {
  const now = new Date().toISOString();
  return {
    _id: extra.id ?? newId(),
    companyId,
    name: request.name || defaultName(request, extra.template),
    type: request.templateId,
    ...(request.reportTemplateId && extra.template
      ? { reportTemplateId: request.reportTemplateId, template: extra.template }
      : {}),
    status: 'queued',
    format: request.format,
    scopeType: request.scopeType,
    ...(request.scopeId ? { scopeId: request.scopeId } : {}),
    assetIds,
    startDate: request.startDate,
    endDate: request.endDate,
    ...(request.intensityMetric
      ? {
          intensityMetric: request.intensityMetric,
          intensityValue: request.intensityValue,
          ...(request.intensityPreviousValue
            ? { intensityPreviousValue: request.intensityPreviousValue }
            : {}),
        }
      : {}),
    requestedBy: requester.sub,
    ...(requester.name ? { requestedByName: requester.name } : {}),
    ...(extra.scheduleId ? { scheduleId: extra.scheduleId } : {}),
    generation: 1,
    progress: 0,
    createdAt: now,
    updatedAt: now,
    createdBy: requester.sub,
  };
}

/** Records a report as queued and sends its first build to the report queue. */
async function queueReport(
  ctx: Pick<OpContext, 'caller'>,
  asked: Record<string, unknown>,
): Promise<OpResult> {
  const custom =
    asked.templateId === 'custom' || (asked.templateId === undefined && asked.reportTemplateId !== undefined)
      ? await customRequestOf(ctx.caller.companyId, asked)
      : undefined;
  const request = parseOrThrow(reportRequestSchema, custom?.raw ?? asked);
  const assetIds = await coveredSites(ctx, request);
  const name = ctx.caller.name ?? ctx.caller.email;
  const report = newReport(
    ctx.caller.companyId,
    request,
    assetIds,
    { sub: ctx.caller.sub, ...(name ? { name } : {}) },
    custom ? { template: templateSnapshot(custom.template) } : {},
  );
  await createReport(ctx.caller.companyId, report);
  await sendToQueue('reports', [{ companyId: ctx.caller.companyId, reportId: report._id, generation: 1 }]);
  return { status: 202, body: report };
}

/** POST /reports/generate2 (and POST /reports): the report the body describes. */
const generate = operation({}, (ctx) => queueReport(ctx, bodyObjectOf(ctx)));

/**
 * GET /reports/generate/{type}, /reports/asset/{id}/{type}, /reports/portfolio/{id}/{type}: the report the
 * query describes, of the path's system template and, on a site's or portfolio's call, the path's scope.
 */
function generateAs(
  ctx: Pick<OpContext, 'caller'>,
  type: string,
  asked: ReportGenerateQuery,
): Promise<OpResult> {
  if (!templateOf(type)) throw notFound(`There is no report called ${type}`);
  return queueReport(ctx, { ...asked, templateId: type });
}
const generateCompany = operation({ params: ['type'], query: reportGenerateQuery }, (ctx) =>
  generateAs(ctx, ctx.params.type, ctx.query),
);
const generateFor = (scopeType: 'asset' | 'portfolio') =>
  operation({ params: ['id', 'type'], query: scopedReportGenerateQuery }, (ctx) =>
    generateAs(ctx, ctx.params.type, { ...ctx.query, scopeType, scopeId: ctx.params.id }),
  );

/** The report of the path (the route's item check has let the caller read it). */
export async function loadReport(ctx: WithParams<'id'>): Promise<StoredReport> {
  const found = await findReport(ctx.caller.companyId, ctx.params.id);
  if (!found) throw notFound();
  if (!found.report) throw conflict('This report was not made here: it has no file to build or download');
  return found.report;
}

/** POST /reports/{id}/regenerate: the same report built again from today's figures. */
const regenerate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const current = await loadReport(ctx);
  const changed = await changeReport(ctx.caller.companyId, current._id, (r) =>
    r.status === 'queued' || r.status === 'generating'
      ? undefined
      : { status: 'queued', generation: r.generation + 1, progress: 0, error: undefined },
  );
  if (!changed) throw notFound();
  if (!changed.written) throw conflict('This report is being built: wait for it to finish');
  const { report } = changed;
  await sendToQueue('reports', [
    { companyId: ctx.caller.companyId, reportId: report._id, generation: report.generation },
  ]);
  return { status: 202, body: report };
});

/** GET /reports/{id}/download: a short-lived link to the built file. */
const download = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const report = await loadReport(ctx);
  // A report being built again keeps offering its last file until the new one is stored.
  const { builtGeneration, fileName } = report;
  if (!builtGeneration || !fileName)
    throw conflict(
      report.status === 'failed' ? 'This report could not be built' : 'This report is not ready yet',
    );
  const key = reportFileKey(ctx.caller.companyId, report._id, builtGeneration, fileName);
  const url = await presignGet(bucketName('reports'), key, DOWNLOAD_SECONDS, fileName);
  return {
    body: {
      url,
      fileName,
      contentType: REPORT_CONTENT_TYPES[report.format],
      expiresInSeconds: DOWNLOAD_SECONDS,
    },
  };
});

/**
 * GET /reports/{id}/document: the report's sections, charts and tables as data, for the pages that show a
 * report rather than download it. They are built again by the worker's own code from the report's scope,
 * period and sections: with the data unchanged, the figures are the file's.
 */
const reportContent = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const report = await loadReport(ctx);
  // Loaded on first use: the insights function starts without the reports' layout code.
  const { reportDocument } = await import('./report-data.ts');
  const { logoPng: _logo, ...document } = await reportDocument(report, ctx.caller, async () => {});
  return { body: { document, startDate: report.startDate, endDate: report.endDate } };
});

/** GET /report-templates/system: the reports every company has. */
const systemTemplates = operation({}, async (): Promise<OpResult> => ({ body: { data: SYSTEM_TEMPLATES } }));

/** Asking for reports, building them again, and their downloads. */
export const REPORT_REQUEST_OPERATIONS: Operations = {
  'reports.generate': generate,
  'reports.generateCompany': generateCompany,
  'reports.generateAsset': generateFor('asset'),
  'reports.generatePortfolio': generateFor('portfolio'),
  'reports.regenerate': regenerate,
  'reports.download': download,
  'reports.document': reportContent,
  'reports.systemTemplates': systemTemplates,
};
