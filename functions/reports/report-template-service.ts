import type { Caller } from '../../shared/access/caller.ts';
import {
  type CustomTemplate,
  customTemplateSchema,
  periodDates,
} from '../../shared/reports/custom-templates.ts';
import type { ReportDocument } from '../../shared/reports/report-document.ts';
import { reportRequestSchema } from '../../shared/reports/report-request.ts';
import { isoDate } from '../../shared/schemas/common.ts';
import { badRequest, formError, notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import {
  bodyObjectOf,
  type OpContext,
  type Operations,
  type OpResult,
} from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { genericOperation } from '../core/resources/resource-service.ts';
import { coveredSites, newReport, templateSnapshot } from './report-service.ts';
import { findReportTemplate } from './report-template-repository.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** POST /report-templates: the generic create, of a template checked section by section. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const parsed = parseOrThrow(customTemplateSchema, ctx.body);
  // Its default scope must be one the author may read: the builder's preview reads it.
  await coveredSites(ctx, parsed);
  return genericOperation('generic.create')({ ...ctx, body: parsed });
});

/** PATCH /report-templates/{id}: the generic update, of a template that is still one after the change. */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const found = await findReportTemplate(ctx.caller.companyId, ctx.params.id);
  if (!found) throw notFound();
  const body = bodyObjectOf(ctx);
  const merged = parseOrThrow(customTemplateSchema, { ...found.item, ...body });
  if (merged.scopeType !== found.item.scopeType || merged.scopeId !== found.item.scopeId)
    await coveredSites(ctx, merged);
  return genericOperation('generic.update')(ctx);
});

const bulk = operation({}, async (): Promise<OpResult> => {
  throw badRequest('Create report templates one at a time');
});

/** The document a template gives for a scope and period, as the report built from it would hold it. */
async function documentOf(
  ctx: OpContext,
  template: CustomTemplate,
  raw: Record<string, unknown>,
): Promise<{ document: ReportDocument; startDate: string; endDate: string }> {
  const request = parseOrThrow(reportRequestSchema, {
    ...periodDates(template.period, today()),
    scopeType: template.scopeType,
    ...(template.scopeId ? { scopeId: template.scopeId } : {}),
    ...raw,
    templateId: 'custom',
    // A preview may be of a template not saved yet: the request is checked as a custom report's, unstored.
    reportTemplateId: '000000000000000000000000',
    format: 'pdf',
  });
  const assetIds = await coveredSites(ctx, request);
  const report = newReport(
    ctx.caller.companyId,
    request,
    assetIds,
    { sub: ctx.caller.sub },
    {
      template: templateSnapshot(template),
    },
  );
  const caller: Caller = ctx.caller;
  // Loaded by the first preview: the insights function starts without the reports' layout code.
  const { reportDocument } = await import('./report-data.ts');
  const doc = await reportDocument(report, caller, async () => {});
  // The logo's bytes are for the file; the preview shows the company's name.
  const { logoPng: _logo, ...document } = doc;
  return { document, startDate: request.startDate, endDate: request.endDate };
}

const pick = (raw: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((f) => raw[f] !== undefined && raw[f] !== '').map((f) => [f, raw[f]]));
const WINDOW_FIELDS = ['startDate', 'endDate', 'scopeType', 'scopeId'] as const;

/**
 * POST /report-templates/preview: the document of a template as the builder has it, saved or not, for
 * its scope and period (or those the body names), every figure as the report's.
 */
const preview = operation({}, async (ctx): Promise<OpResult> => {
  const body = bodyObjectOf(ctx);
  const template = parseOrThrow(customTemplateSchema, body.template ?? body);
  for (const f of ['startDate', 'endDate'] as const)
    if (body[f] !== undefined && !isoDate.safeParse(body[f]).success)
      throw formError({ [f]: 'Must be a date as YYYY-MM-DD' });
  return { body: await documentOf(ctx, template, pick(body, WINDOW_FIELDS)) };
});

/**
 * GET /report-templates/{id}/source-items: what each section of a template reads, the analytics call
 * that answers it, so the figures can be checked against the analytics pages.
 */
const sourceItems = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const found = await findReportTemplate(ctx.caller.companyId, ctx.params.id);
  if (!found) throw notFound();
  const { template } = found;
  if (!template) return { body: { data: [], total: 0 } };
  const dates = periodDates(template.period, today());
  const scope =
    template.scopeType === 'asset' && template.scopeId
      ? `&assetId=${template.scopeId}`
      : template.scopeType === 'portfolio' && template.scopeId
        ? `&assetGroupId=${template.scopeId}`
        : '';
  const data = template.sections.map((s, index) => ({
    index,
    kind: s.kind,
    title: s.title,
    ...(s.measure ? { measure: s.measure } : {}),
    ...(s.grouping ? { grouping: s.grouping } : {}),
    ...(s.kind === 'text'
      ? {}
      : {
          source: `/analytics/v2/consumption?startDate=${dates.startDate}&endDate=${dates.endDate}&granularity=monthly&comparePeriod=year${scope}`,
        }),
  }));
  return { body: { data, total: data.length, ...dates } };
});

/** A company's own report templates: written checked, previewed, and their sources. */
export const REPORT_TEMPLATE_OPERATIONS: Operations = {
  'reportTemplates.create': create,
  'reportTemplates.update': update,
  'reportTemplates.bulk': bulk,
  'reportTemplates.preview': preview,
  'reportTemplates.sourceItems': sourceItems,
};
