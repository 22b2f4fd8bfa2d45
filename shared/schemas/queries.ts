import * as z from 'zod';
import { DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT } from '../constants.ts';
import { idField, isoDateField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * Query strings of the API's calls. Values arrive as text; paging values that make no sense fall back to
 * the defaults rather than failing the call, as lists have always read them.
 */

/** `limit` and `skip`: a page of at most `max` items, `fallback` when none or nonsense is asked. */
export const pageQuery = (fallback: number = DEFAULT_LIST_LIMIT, max: number = MAX_PAGE_LIMIT) =>
  z.object({
    limit: z
      .string()
      .optional()
      .transform((v) => Math.min(Number(v ?? fallback) || fallback, max)),
    skip: z
      .string()
      .optional()
      .transform((v) => Math.max(Number(v ?? 0) || 0, 0)),
  });

/** Free text to look for; none is the empty string. */
export const searchText = () =>
  z
    .string()
    .optional()
    .transform((v) => (v ?? '').trim());

const month = () => z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Must be a month as YYYY-MM');

/** GET /asset-groups/{id}/report-data: the period, by month; by default the last twelve complete months. */
export const assetGroupReportQuery = onFirstUse(() =>
  z.object({ from: month().optional(), to: month().optional() }),
);

/** GET /asset-groups/{id}/assets and /users/me/asset-groups. */
export const assetGroupPageQuery = onFirstUse(() => pageQuery());

/** GET /asset-groups/{id}/search-assets: assets to pick, found by `query` when given. */
export const assetGroupSearchQuery = onFirstUse(() => pageQuery().extend({ query: searchText() }));

/** GET /users/me/notifications: a page (at most 1000), and `isSeen` to list only the seen or unseen ones. */
export const notificationsQuery = onFirstUse(() =>
  pageQuery(DEFAULT_LIST_LIMIT, 1000).extend({
    isSeen: z
      .enum(['true', 'false'], { error: 'Must be true or false' })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
  }),
);

/** GET /companies/global: a page of every company. */
export const companiesPageQuery = onFirstUse(() => pageQuery());

/** GET /targets and /targets/search: the targets whose name holds `query`, every one without it. */
export const targetsListQuery = onFirstUse(() => z.object({ query: searchText() }));

/** GET /entities/search: entities matching `query` (required by the operation, which says so), a page of them. */
export const entitySearchQuery = onFirstUse(() => pageQuery().extend({ query: z.string().optional() }));

/** GET /util/company-logo-search: logos of brands named like `query`. */
export const logoSearchQuery = onFirstUse(() =>
  z.object({
    query: z.string().trim().min(2, 'Enter at least 2 characters').max(100, 'Enter at most 100 characters'),
  }),
);

/** GET /suppliers/{id}/invoice-preview: the preview job started for a template's sample. */
export const invoicePreviewQuery = onFirstUse(() =>
  z.object({
    jobId: z.string({ error: 'This field is required' }).regex(/^[0-9a-f]{24}$/, 'Must be a preview job id'),
    templateId: z
      .string()
      .regex(/^[0-9a-f]{24}$/, 'Must be a valid id')
      .optional(),
  }),
);

/** A flag in a query: on only when it says `true`. */
const flag = () =>
  z
    .string()
    .optional()
    .transform((v) => v === 'true');

/** GET of an invoice's or credit note's document: `preview` to show it inline, `stamped` for the stamped copy. */
export const invoiceDownloadQuery = onFirstUse(() => z.object({ preview: flag(), stamped: flag() }));

/** GET /assets/{id}/documents: the site's documents, of one `category` when given. */
export const assetDocumentsQuery = onFirstUse(() => z.object({ category: z.string().optional() }));

/** A page count that must make sense: absent or empty (the default), or a whole number of 0 or more. */
const wholeCount = () =>
  z
    .string()
    .refine(
      (v) => v === '' || (Number.isInteger(Number(v)) && Number(v) >= 0),
      'Must be a whole number of 0 or more',
    )
    .optional();

const countOr = (v: string | undefined, fallback: number, max: number) =>
  v === undefined || v === '' ? fallback : Math.min(Number(v), max);

/**
 * GET /accounts/{id}/contracts: a page of the account's contracts (`$limit` and `$skip` stand in when
 * `limit` and `skip` are absent). Paging that makes no sense is refused, naming the value, as the
 * generic lists refuse it, rather than read as the default page.
 */
export const contractListQuery = onFirstUse(() =>
  z
    .object({ limit: wholeCount(), skip: wholeCount(), $limit: wholeCount(), $skip: wholeCount() })
    .transform((q) => ({
      limit: countOr(q.limit ?? q.$limit, DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT),
      skip: countOr(q.skip ?? q.$skip, 0, Number.MAX_SAFE_INTEGER),
    })),
);

/** GET /accounts/{id}/contracts/{contractId}/download: the file name to save the contract under. */
export const contractDownloadQuery = onFirstUse(() => z.object({ name: z.string().optional() }));

/** GET /accounts/active-billing: the staff report of meters billed in a period. */
export const activeBillingQuerySchema = onFirstUse(() =>
  z.object({
    start: isoDateField(),
    end: isoDateField(),
    companyId: idField().optional(),
  }),
);
