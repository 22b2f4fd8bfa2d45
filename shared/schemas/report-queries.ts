import * as z from 'zod/mini';
import { INTENSITY_METRICS, REPORT_FORMATS, REPORT_SCOPES } from '../reports/report-templates.ts';
import { idField, isoDateField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/*
 * The query of the report calls that take their request in the URL (GET /reports/generate/{type},
 * /reports/asset/{id}/{type}, /reports/portfolio/{id}/{type}): the values of a report request
 * (`reportRequestSchema`) as text, each refused with the request's own message beside its name. The
 * template and, on a site's or portfolio's call, the scope come from the path. The rules across values
 * (the end after the start, the template's scopes, the figure of an intensity ratio) are the request's,
 * checked when the request is made of the query and the path.
 */

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `Must be one of ${values.join(', ')}` });

const positive = () =>
  z.optional(z.coerce.number({ error: 'Must be a number' }).check(z.positive('Must be more than 0')));

/** The values every report call's query may give. */
const requestFields = () => ({
  /** Accepted as the request accepts it; a system report built from the path makes no use of it. */
  reportTemplateId: z.optional(idField()),
  // A missing date is refused by the request's check, after the path's report is found: a call naming no
  // report answers 404 whatever its query, as it did before the query was declared.
  startDate: z.optional(isoDateField()),
  endDate: z.optional(isoDateField()),
  format: z._default(oneOf(REPORT_FORMATS), 'pdf'),
  name: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  intensityMetric: z.optional(z.enum(INTENSITY_METRICS)),
  intensityValue: positive(),
  intensityPreviousValue: positive(),
});

/** GET /reports/generate/{type}: the company's report unless the query names a portfolio or site. */
export const reportGenerateQuery = onFirstUse(() =>
  z.object({
    scopeType: z.optional(oneOf(REPORT_SCOPES)),
    scopeId: z.optional(idField()),
    ...requestFields(),
  }),
);

/** GET /reports/asset/{id}/{type} and /reports/portfolio/{id}/{type}: the path names the scope. */
export const scopedReportGenerateQuery = onFirstUse(() => z.object(requestFields()));

export type ReportGenerateQuery = z.output<typeof reportGenerateQuery>;
