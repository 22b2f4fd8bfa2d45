import * as z from 'zod';
import { idField, isoDateField } from '../schemas/fields.ts';
import { onFirstUse } from '../schemas/on-first-use.ts';
import {
  INTENSITY_METRICS,
  REPORT_FORMATS,
  REPORT_SCOPES,
  REPORT_TYPES,
  templateOf,
} from './report-templates.ts';

// Kept apart from the templates: the pages and the functions' route declarations read those, and only the
// calls that ask for a report parse a request (with zod's full build).
const positive = () => z.coerce.number({ error: 'Must be a number' }).positive('Must be more than 0');

/**
 * A report asked for: the template, what it covers, the period, the format and, for SECR, the intensity
 * ratio's measure with its value this period and the one before. Built on the first report asked for: the
 * functions declaring report routes start without it.
 */
export const reportRequestSchema = onFirstUse(() =>
  z
    .object({
      templateId: z.enum(REPORT_TYPES, { error: `Must be one of ${REPORT_TYPES.join(', ')}` }),
      /** The company's own template a `custom` report is built from. */
      reportTemplateId: idField().optional(),
      scopeType: z
        .enum(REPORT_SCOPES, { error: `Must be one of ${REPORT_SCOPES.join(', ')}` })
        .default('company'),
      scopeId: idField().optional(),
      startDate: isoDateField(),
      endDate: isoDateField(),
      format: z.enum(REPORT_FORMATS, { error: `Must be one of ${REPORT_FORMATS.join(', ')}` }).default('pdf'),
      name: z.string().trim().max(200).optional(),
      intensityMetric: z.enum(INTENSITY_METRICS).optional(),
      intensityValue: positive().optional(),
      intensityPreviousValue: positive().optional(),
    })
    .superRefine((r, ctx) => {
      if (r.endDate < r.startDate)
        ctx.addIssue({
          code: 'custom',
          path: ['endDate'],
          message: 'The end date must be on or after the start date',
        });
      else if (Date.parse(r.endDate) - Date.parse(r.startDate) > 366 * 86_400_000)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'A report covers at most a year' });
      if (r.scopeType !== 'company' && !r.scopeId)
        ctx.addIssue({ code: 'custom', path: ['scopeId'], message: 'Choose the portfolio or site' });
      if (r.templateId === 'custom' && !r.reportTemplateId)
        ctx.addIssue({ code: 'custom', path: ['reportTemplateId'], message: 'Choose the template' });
      const template = templateOf(r.templateId);
      if (template && !template.scopes.includes(r.scopeType))
        ctx.addIssue({
          code: 'custom',
          path: ['scopeType'],
          message: `The ${template.name} report covers ${template.scopes.join(' or ')}`,
        });
      if (r.intensityMetric && r.intensityValue === undefined)
        ctx.addIssue({ code: 'custom', path: ['intensityValue'], message: 'Give the figure to divide by' });
    }),
);
export type ReportRequest = z.output<typeof reportRequestSchema>;
