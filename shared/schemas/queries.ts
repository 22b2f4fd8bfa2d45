import * as z from 'zod/mini';
import { DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT } from '../constants.ts';
import { idField, isoDateField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * Query strings of the API's calls. Values arrive as text; paging values that make no sense fall back to
 * the defaults rather than failing the call, as lists have always read them. Declared with zod's small
 * build (`zod/mini`): nearly every function reads this module at start.
 */

/** `limit` and `skip`: a page of at most `max` items, `fallback` when none or nonsense is asked. */
export const pageQuery = (fallback: number = DEFAULT_LIST_LIMIT, max: number = MAX_PAGE_LIMIT) =>
  z.object({
    limit: z.pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) => Math.min(Number(v ?? fallback) || fallback, max)),
    ),
    skip: z.pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) => Math.max(Number(v ?? 0) || 0, 0)),
    ),
  });

/** Free text to look for; none is the empty string. */
export const searchText = () =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => (v ?? '').trim()),
  );

const month = () => z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Must be a month as YYYY-MM'));

/** GET /asset-groups/{id}/report-data: the period, by month; by default the last twelve complete months. */
export const assetGroupReportQuery = onFirstUse(() =>
  z.object({ from: z.optional(month()), to: z.optional(month()) }),
);

/** GET /asset-groups/{id}/assets and /users/me/asset-groups. */
export const assetGroupPageQuery = onFirstUse(() => pageQuery());

/** GET /asset-groups/{id}/search-assets: assets to pick, found by `query` when given. */
export const assetGroupSearchQuery = onFirstUse(() => z.extend(pageQuery(), { query: searchText() }));

/** GET /users/me/notifications: a page (at most 1000), and `isSeen` to list only the seen or unseen ones. */
export const notificationsQuery = onFirstUse(() =>
  z.extend(pageQuery(DEFAULT_LIST_LIMIT, 1000), {
    isSeen: z.pipe(
      z.optional(z.enum(['true', 'false'], { error: 'Must be true or false' })),
      z.transform((v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true')),
    ),
  }),
);

/** GET /companies/global: a page of every company. */
export const companiesPageQuery = onFirstUse(() => pageQuery());

/** GET /targets and /targets/search: the targets whose name holds `query`, every one without it. */
export const targetsListQuery = onFirstUse(() => z.object({ query: searchText() }));

/** GET /entities/search: entities matching `query` (required by the operation, which says so), a page of them. */
export const entitySearchQuery = onFirstUse(() => z.extend(pageQuery(), { query: z.optional(z.string()) }));

/** GET /util/company-logo-search: logos of brands named like `query`. */
export const logoSearchQuery = onFirstUse(() =>
  z.object({
    query: z
      .string()
      .check(
        z.trim(),
        z.minLength(2, 'Enter at least 2 characters'),
        z.maxLength(100, 'Enter at most 100 characters'),
      ),
  }),
);

/** GET /suppliers/{id}/invoice-preview: the preview job started for a template's sample. */
export const invoicePreviewQuery = onFirstUse(() =>
  z.object({
    jobId: z
      .string({ error: 'This field is required' })
      .check(z.regex(/^[0-9a-f]{24}$/, 'Must be a preview job id')),
    templateId: z.optional(z.string().check(z.regex(/^[0-9a-f]{24}$/, 'Must be a valid id'))),
  }),
);

/** A flag in a query: on only when it says `true`. */
const flag = () =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => v === 'true'),
  );

/** GET of an invoice's or credit note's document: `preview` to show it inline, `stamped` for the stamped copy. */
export const invoiceDownloadQuery = onFirstUse(() => z.object({ preview: flag(), stamped: flag() }));

/** GET /assets/{id}/documents: the site's documents, of one `category` when given. */
export const assetDocumentsQuery = onFirstUse(() => z.object({ category: z.optional(z.string()) }));

/** A page count that must make sense: absent or empty (the default), or a whole number of 0 or more. */
const wholeCount = () =>
  z.optional(
    z
      .string()
      .check(
        z.refine(
          (v) => v === '' || (Number.isInteger(Number(v)) && Number(v) >= 0),
          'Must be a whole number of 0 or more',
        ),
      ),
  );

const countOr = (v: string | undefined, fallback: number, max: number) =>
  v === undefined || v === '' ? fallback : Math.min(Number(v), max);

const contractPage = () =>
  z.object({ limit: wholeCount(), skip: wholeCount(), $limit: wholeCount(), $skip: wholeCount() });

/**
 * GET /accounts/{id}/contracts: a page of the account's contracts (`$limit` and `$skip` stand in when
 * `limit` and `skip` are absent). Paging that makes no sense is refused, naming the value, as the
 * generic lists refuse it, rather than read as the default page.
 */
export const contractListQuery = onFirstUse(() =>
  z.pipe(
    contractPage(),
    z.transform((q: z.output<ReturnType<typeof contractPage>>) => ({
      limit: countOr(q.limit ?? q.$limit, DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT),
      skip: countOr(q.skip ?? q.$skip, 0, Number.MAX_SAFE_INTEGER),
    })),
  ),
);

/** GET /accounts/{id}/contracts/{contractId}/download: the file name to save the contract under. */
export const contractDownloadQuery = onFirstUse(() => z.object({ name: z.optional(z.string()) }));

/** GET /accounts/active-billing: the staff report of meters billed in a period. */
export const activeBillingQuerySchema = onFirstUse(() =>
  z.object({
    start: isoDateField(),
    end: isoDateField(),
    companyId: z.optional(idField()),
  }),
);
