import * as z from 'zod';
import { idField, isoDateField } from '../schemas/fields.ts';
import { onFirstUse } from '../schemas/on-first-use.ts';

export const REPORT_FORMATS = ['pdf', 'xlsx', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_SCOPES = ['company', 'portfolio', 'asset'] as const;
export type ReportScopeType = (typeof REPORT_SCOPES)[number];

export const INTENSITY_METRICS = ['floor-area', 'turnover', 'employees'] as const;
export type IntensityMetric = (typeof INTENSITY_METRICS)[number];

/** What an intensity ratio divides by, as its unit is written. */
export const INTENSITY_UNITS: Readonly<Record<IntensityMetric, string>> = {
  'floor-area': 'm²',
  turnover: '£m turnover',
  employees: 'employee',
};

export const REPORT_STATUSES = ['queued', 'generating', 'ready', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export interface SystemTemplate {
  id: SystemTemplateId;
  name: string;
  description: string;
  /** The scopes it can be run for. */
  scopes: readonly ReportScopeType[];
  /** Whether the form asks for an intensity ratio. */
  intensity: boolean;
}

export const SYSTEM_TEMPLATE_IDS = [
  'secr',
  'portfolio-summary',
  'site',
  'bill-validation',
  'data-coverage',
] as const;
export type SystemTemplateId = (typeof SYSTEM_TEMPLATE_IDS)[number];

/** What a report is built from: a system template, or a company's own (`custom`, naming it). */
export const REPORT_TYPES = [...SYSTEM_TEMPLATE_IDS, 'custom'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The reports every company has (GET /report-templates/system). */
export const SYSTEM_TEMPLATES: readonly SystemTemplate[] = [
  {
    id: 'secr',
    name: 'SECR',
    description:
      'Streamlined Energy and Carbon Reporting: UK energy use in kWh, scope 1 and 2 emissions (location- and market-based), an intensity ratio, the previous year beside this one, the factor set and a methodology statement.',
    scopes: ['company', 'portfolio'],
    intensity: true,
  },
  {
    id: 'portfolio-summary',
    name: 'Portfolio energy and carbon summary',
    description:
      'Energy, emissions and cost by utility and by site, the year-on-year change and the top movers.',
    scopes: ['company', 'portfolio'],
    intensity: false,
  },
  {
    id: 'site',
    name: 'Site report',
    description: "One site's energy, emissions and cost month by month, by utility, against the year before.",
    scopes: ['asset'],
    intensity: false,
  },
  {
    id: 'bill-validation',
    name: 'Bill validation',
    description:
      'The bills checked in the period: pass and fail counts by check, the failed bills with their failed checks and the money at stake, by site.',
    scopes: ['company', 'portfolio', 'asset'],
    intensity: false,
  },
  {
    id: 'data-coverage',
    name: 'Data coverage',
    description: 'The meters with months that have no figures, or only estimated ones, in the period.',
    scopes: ['company', 'portfolio', 'asset'],
    intensity: false,
  },
];

export const templateOf = (id: string): SystemTemplate | undefined =>
  SYSTEM_TEMPLATES.find((t) => t.id === id);

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

/** The file name a report downloads as. */
export function reportFileName(name: string, format: ReportFormat): string {
  const base =
    name
      .replace(/[^A-Za-z0-9 ._-]+/g, '')
      .trim()
      .replace(/\s+/g, '-') || 'report';
  return `${base.slice(0, 120)}.${format}`;
}

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};
