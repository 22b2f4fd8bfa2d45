import * as z from 'zod';
import { DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT } from '../constants.ts';
import { EPC_KINDS } from './asset-public-data.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * Query strings of the site register's calls. Unlike the generic lists, a site list refuses paging that
 * is not a whole number, as it always has: a caller's typo must not quietly show the first page.
 * Each is built on the first call that reads it (`onFirstUse`), not when a function loads.
 */

const WHOLE = 'Must be a whole number of 0 or more';
const count = () => z.string().regex(/^\d*$/, WHOLE).optional();
const wholeOr = (raw: string | undefined, fallback: number, max: number) =>
  raw === undefined || raw === '' ? fallback : Math.min(Number(raw), max);

/** `limit` and `skip` (also spelt `$limit`, `$skip`): a page of at most MAX_PAGE_LIMIT sites. */
const strictPage = () => z.object({ limit: count(), skip: count(), $limit: count(), $skip: count() });
type StrictPage = { limit?: string; skip?: string; $limit?: string; $skip?: string };
const pageOf = (q: StrictPage) => ({
  limit: wholeOr(q.limit ?? q.$limit, DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT),
  skip: wholeOr(q.skip ?? q.$skip, 0, Number.MAX_SAFE_INTEGER),
});

/** A page of a site's own list (its timeline). */
export const sitePageQuery = onFirstUse(() => strictPage().transform(pageOf));

/**
 * GET /assets: a page, an order (`$sort`, checked by the list, which knows its orders), free text
 * (`query`), and filters on the sites' fields by name, which the list checks against the resource.
 */
export const assetListQuery = onFirstUse(() =>
  strictPage()
    .extend({ $sort: z.string().optional(), query: z.string().optional() })
    .catchall(z.string())
    .transform((q) => ({
      ...pageOf(q),
      sort: (q.$sort ?? '').trim() || 'siteName',
      search: (q.query ?? '').trim().toLowerCase(),
      /** Every value as given, for the generic filters; `__proto__` cannot be among them, zod drops it. */
      fields: Object.fromEntries(
        Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string'),
      ),
    })),
);

/** One of `values`, or none when absent or empty. */
const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .refine((v): v is T[number] | undefined => v === undefined || values.includes(v), message);

const trimmed = () =>
  z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined);

const epcKind = () => optionalChoice(EPC_KINDS, `Must be one of ${EPC_KINDS.join(', ')}`);

/** GET /certificates: by `postcode` and/or `address`, or the site's own postcode (`assetId`); `kind` (or `type`). */
export const certificateSearchQuery = onFirstUse(() =>
  z
    .object({ kind: epcKind(), type: epcKind(), postcode: trimmed(), address: trimmed(), assetId: trimmed() })
    .transform(({ kind, type, ...rest }) => ({ ...rest, kind: kind ?? type ?? 'non-domestic' })),
);

/** GET /certificates/{id}: the register to look in, every one when none is named. */
export const certificateQuery = onFirstUse(() => z.object({ kind: epcKind() }));

const BANDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;

/** GET /util/asset-certificates: the portfolio's certificates, of one `band` when given (any case). */
export const assetCertificatesQuery = onFirstUse(() =>
  z.object({
    band: z
      .string()
      .optional()
      .transform((v) => v?.trim().toUpperCase() || undefined)
      .refine(
        (v): v is (typeof BANDS)[number] | undefined =>
          v === undefined || (BANDS as readonly string[]).includes(v),
        'Must be one of A to G',
      ),
  }),
);

/** A number within bounds, `fallback` when absent or empty. */
const boundedNumber = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? fallback : Number(v)))
    .refine((n) => Number.isFinite(n) && n >= min && n <= max, `Must be a number from ${min} to ${max}`);

/** GET /assets/{id}/geocoordinates: `refresh=true` looks the site's postcode up again. */
export const geocoordinatesQuery = onFirstUse(() =>
  z.object({
    refresh: z
      .string()
      .optional()
      .transform((v) => v === 'true'),
  }),
);

/** GET /assets/{id}/crime: the police data of one month (`date`, YYYY-MM), by default the latest. */
export const crimeQuery = onFirstUse(() =>
  z.object({
    date: z
      .string()
      .regex(/^(\d{4}-(0[1-9]|1[0-2]))?$/, 'Must be a month as YYYY-MM')
      .optional()
      .transform((v) => v || undefined),
  }),
);

/** GET /assets/{id}/flood-risks: warnings within `dist` km (default 5). */
export const floodRisksQuery = onFirstUse(() => z.object({ dist: boundedNumber(5, 0.1, 50) }));

/** GET /assets/{id}/air-quality: monitoring stations within `radius` metres (default 10 km). */
export const airQualityQuery = onFirstUse(() => z.object({ radius: boundedNumber(10_000, 100, 25_000) }));
