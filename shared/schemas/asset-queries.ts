import * as z from 'zod/mini';
import { DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT } from '../constants.ts';
import { EPC_KINDS } from './asset-public-data.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * Query strings of the site register's calls. Unlike the generic lists, a site list refuses paging that
 * is not a whole number, as it always has: a caller's typo must not quietly show the first page.
 * Each is built on the first call that reads it (`onFirstUse`), not when a function loads.
 */

const WHOLE = 'Must be a whole number of 0 or more';
const count = () => z.optional(z.string().check(z.regex(/^\d*$/, WHOLE)));
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
export const sitePageQuery = onFirstUse(() => z.pipe(strictPage(), z.transform(pageOf)));

/**
 * GET /assets: a page, an order (`$sort`, checked by the list, which knows its orders), free text
 * (`query`), and filters on the sites' fields by name, which the list checks against the resource.
 */
export const assetListQuery = onFirstUse(() =>
  z.pipe(
    z.catchall(
      z.extend(strictPage(), { $sort: z.optional(z.string()), query: z.optional(z.string()) }),
      z.string(),
    ),
    z.transform((q) => ({
      ...pageOf(q),
      sort: (q.$sort ?? '').trim() || 'siteName',
      search: (q.query ?? '').trim().toLowerCase(),
      /** Every value as given, for the generic filters; `__proto__` cannot be among them, zod drops it. */
      fields: Object.fromEntries(
        Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string'),
      ),
    })),
  ),
);

/** Text trimmed, then `tidy`; absent stays absent. */
const optionalText = <T>(tidy: (v: string | undefined) => T) =>
  z.pipe(z.optional(z.string()), z.transform(tidy));

/** One of `values`, or none when absent or empty. */
const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.pipe(
    optionalText((v) => (v === undefined || v.trim() === '' ? undefined : v.trim())),
    z.custom<T[number] | undefined>(
      (v) => v === undefined || (typeof v === 'string' && (values as readonly string[]).includes(v)),
      message,
    ),
  );

const trimmed = () => optionalText((v) => v?.trim() || undefined);

const epcKind = () => optionalChoice(EPC_KINDS, `Must be one of ${EPC_KINDS.join(', ')}`);

/** GET /certificates: by `postcode` and/or `address`, or the site's own postcode (`assetId`); `kind` (or `type`). */
export const certificateSearchQuery = onFirstUse(() =>
  z.pipe(
    z.object({
      kind: epcKind(),
      type: epcKind(),
      postcode: trimmed(),
      address: trimmed(),
      assetId: trimmed(),
    }),
    z.transform(({ kind, type, ...rest }) => ({ ...rest, kind: kind ?? type ?? 'non-domestic' })),
  ),
);

/** GET /certificates/{id}: the register to look in, every one when none is named. */
export const certificateQuery = onFirstUse(() => z.object({ kind: epcKind() }));

const BANDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;

/** GET /util/asset-certificates: the portfolio's certificates, of one `band` when given (any case). */
export const assetCertificatesQuery = onFirstUse(() =>
  z.object({
    band: z.pipe(
      optionalText((v) => v?.trim().toUpperCase() || undefined),
      z.custom<(typeof BANDS)[number] | undefined>(
        (v) => v === undefined || (typeof v === 'string' && (BANDS as readonly string[]).includes(v)),
        'Must be one of A to G',
      ),
    ),
  }),
);

/** A number within bounds, `fallback` when absent or empty. */
const boundedNumber = (fallback: number, min: number, max: number) =>
  optionalText((v) => (v === undefined || v.trim() === '' ? fallback : Number(v))).check(
    z.refine((n) => Number.isFinite(n) && n >= min && n <= max, `Must be a number from ${min} to ${max}`),
  );

/** GET /assets/{id}/geocoordinates: `refresh=true` looks the site's postcode up again. */
export const geocoordinatesQuery = onFirstUse(() =>
  z.object({
    refresh: optionalText((v) => v === 'true'),
  }),
);

/** GET /assets/{id}/crime: the police data of one month (`date`, YYYY-MM), by default the latest. */
export const crimeQuery = onFirstUse(() =>
  z.object({
    date: z.pipe(
      z.optional(z.string().check(z.regex(/^(\d{4}-(0[1-9]|1[0-2]))?$/, 'Must be a month as YYYY-MM'))),
      z.transform((v) => v || undefined),
    ),
  }),
);

/** GET /assets/{id}/flood-risks: warnings within `dist` km (default 5). */
export const floodRisksQuery = onFirstUse(() => z.object({ dist: boundedNumber(5, 0.1, 50) }));

/** GET /assets/{id}/air-quality: monitoring stations within `radius` metres (default 10 km). */
export const airQualityQuery = onFirstUse(() => z.object({ radius: boundedNumber(10_000, 100, 25_000) }));
