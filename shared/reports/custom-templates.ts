import * as z from 'zod';
import { idField } from '../schemas/fields.ts';
import { onFirstUse } from '../schemas/on-first-use.ts';
import { REPORT_SCOPES } from './report-templates.ts';

/** What a section of a company's own report shows, as the analytics pages measure it. */
export const CUSTOM_MEASURES = ['energy', 'consumption', 'cost', 'emissions'] as const;
export type CustomMeasure = (typeof CUSTOM_MEASURES)[number];

export const MEASURE_NAMES: Readonly<Record<CustomMeasure, string>> = {
  energy: 'Energy use (kWh)',
  consumption: 'Consumption by utility',
  cost: 'Cost (£)',
  emissions: 'Emissions (tCO2e, location-based)',
};

/** How a table or chart splits its measure. */
export const CUSTOM_GROUPINGS = ['month', 'utility', 'site'] as const;
export type CustomGrouping = (typeof CUSTOM_GROUPINGS)[number];

export const GROUPING_NAMES: Readonly<Record<CustomGrouping, string>> = {
  month: 'By month',
  utility: 'By utility',
  site: 'By site',
};

export const CUSTOM_SECTION_KINDS = ['figures', 'table', 'chart', 'text'] as const;
export type CustomSectionKind = (typeof CUSTOM_SECTION_KINDS)[number];

/** The period a template covers unless a request or a schedule names one. */
export const CUSTOM_PERIODS = ['last-month', 'last-quarter', 'last-12-months', 'last-year'] as const;
export type CustomPeriod = (typeof CUSTOM_PERIODS)[number];

export const PERIOD_NAMES: Readonly<Record<CustomPeriod, string>> = {
  'last-month': 'Last month',
  'last-quarter': 'Last quarter',
  'last-12-months': 'Last 12 months',
  'last-year': 'Last calendar year',
};

export const MAX_CUSTOM_SECTIONS = 20;

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Must be one of ${values.join(', ')}` });

/**
 * A section: key figures of a measure (this period, the one before and the change), a table or a chart of
 * a measure split by month, utility or site, or a paragraph of the company's own words. The schemas are
 * built when first called for: the functions declaring report routes start without them.
 */
const customSectionFields = () =>
  z
    .object({
      kind: oneOf(CUSTOM_SECTION_KINDS),
      title: z.string().trim().min(1, 'Give the section a title').max(120, 'At most 120 characters'),
      measure: oneOf(CUSTOM_MEASURES).optional(),
      grouping: oneOf(CUSTOM_GROUPINGS).optional(),
      text: z.string().trim().max(4000, 'At most 4,000 characters').optional(),
    })
    .superRefine((s, ctx) => {
      if (s.kind === 'text') {
        if (!s.text)
          ctx.addIssue({ code: 'custom', path: ['text'], message: 'Write the text of the section' });
        return;
      }
      if (!s.measure) ctx.addIssue({ code: 'custom', path: ['measure'], message: 'Choose what it shows' });
      if (s.kind !== 'figures' && !s.grouping)
        ctx.addIssue({ code: 'custom', path: ['grouping'], message: 'Choose how it is split' });
      if (s.measure === 'consumption' && s.grouping === 'site')
        ctx.addIssue({
          code: 'custom',
          path: ['grouping'],
          message: 'Split consumption by month or utility, or show energy use by site',
        });
      if (s.kind === 'chart' && s.measure === 'consumption')
        ctx.addIssue({
          code: 'custom',
          path: ['measure'],
          message: 'Utilities are measured in different units: chart energy use instead',
        });
    });
export const customSectionSchema = onFirstUse(customSectionFields);
export type CustomSection = z.output<typeof customSectionSchema>;

/** A company's own report template (the report-templates collection): its fields, built on each call. */
export const customTemplateFields = () =>
  z.object({
    name: z.string().trim().min(1, 'This field is required').max(200, 'At most 200 characters'),
    description: z.string().trim().max(1000, 'At most 1,000 characters').optional(),
    scopeType: oneOf(REPORT_SCOPES).default('company'),
    scopeId: idField().optional(),
    period: oneOf(CUSTOM_PERIODS).default('last-12-months'),
    sections: z
      .array(customSectionFields(), { error: 'Add at least one section' })
      .min(1, 'Add at least one section')
      .max(MAX_CUSTOM_SECTIONS, `At most ${MAX_CUSTOM_SECTIONS} sections`),
  });

/** The fields and the rules between them. */
export const customTemplateSchema = onFirstUse(() =>
  customTemplateFields().superRefine((t, ctx) => {
    if (t.scopeType !== 'company' && !t.scopeId)
      ctx.addIssue({ code: 'custom', path: ['scopeId'], message: 'Choose the portfolio or site' });
  }),
);
export type CustomTemplate = z.output<typeof customTemplateSchema>;

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m - 1, d));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
};

/** The dates a relative period covers, as seen on `today` (YYYY-MM-DD): always whole months already ended. */
export function periodDates(period: CustomPeriod, today: string): { startDate: string; endDate: string } {
  const [y = 2000, m = 1] = today.split('-').map(Number);
  if (period === 'last-month') return { startDate: dayOf(y, m - 1, 1), endDate: dayOf(y, m, 0) };
  if (period === 'last-quarter') {
    const quarterStart = m - ((m - 1) % 3);
    return { startDate: dayOf(y, quarterStart - 3, 1), endDate: dayOf(y, quarterStart, 0) };
  }
  if (period === 'last-year') return { startDate: `${y - 1}-01-01`, endDate: `${y - 1}-12-31` };
  return { startDate: dayOf(y, m - 12, 1), endDate: dayOf(y, m, 0) };
}
