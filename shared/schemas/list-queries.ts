import * as z from 'zod/mini';
import { onFirstUse } from './on-first-use.ts';

/**
 * Query strings of the generic lists that an area serves through its own operation: paging, order,
 * deleted items, and filters on the resource's fields by name. The values are checked here as the
 * generic list checks them, so a bad one answers 400 naming it before the operation runs; the text is
 * kept whole (`text`) for the generic list, which turns each filter into the type of its field.
 * Each is built on the first call that reads it (`onFirstUse`), not when a function loads, with zod's
 * small build (`zod/mini`), since the functions serving these lists read this module at start.
 */

const WHOLE = 'Must be a whole number of 0 or more';
const GENERIC_SORTS = ['createdAt', '-createdAt', '_id', '-_id'] as const;

/** A page count as the generic list reads it: absent, empty, or a whole number of 0 or more. */
const count = () =>
  z.optional(
    z.string().check(z.refine((v) => v === '' || (Number.isInteger(Number(v)) && Number(v) >= 0), WHOLE)),
  );

/** A filter's name: a field's path, and not a name every object inherits (`constructor`). */
const isFieldName = (key: string) =>
  /^[A-Za-z_][A-Za-z0-9_.]*$/.test(key) && !key.split('.').some((part) => part in Object.prototype);

/** The names in a comma-separated list (`$select`), trimmed, the empty ones left out. */
export const namesIn = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

type TextShape = Record<string, z.ZodMiniType<string | undefined, string | undefined>>;

interface ListOptions<S extends TextShape> {
  /** The further values the operation reads itself, checked but kept as text. */
  own?: S;
  /** The operation orders the list itself, whatever `$sort` says. */
  anySort?: boolean;
}

/** Every value as given, for the generic list. `__proto__` cannot be among them: zod drops it. */
const textOf = (q: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string'));

/**
 * A generic list's query, its values checked and kept as text, with `text`: every value as given, for
 * the generic list behind the operation. `own` values are read by the operation; the others are filters.
 */
const genericList = <S extends TextShape>({ own, anySort }: ListOptions<S> = {}) => {
  const control = {
    limit: count(),
    skip: count(),
    $limit: count(),
    $skip: count(),
    $sort: anySort
      ? z.optional(z.string())
      : z.optional(
          z
            .string()
            .check(
              z.refine(
                (v) => v === '' || (GENERIC_SORTS as readonly string[]).includes(v),
                'Must be createdAt (oldest first) or -createdAt (newest first)',
              ),
            ),
        ),
    $deleted: z.optional(z.string()),
    $multi: z.optional(z.string()),
    $select: z.optional(z.string()),
  };
  const query = z.catchall(z.object({ ...control, ...(own ?? ({} as S)) }), z.string());
  type Query = z.output<typeof query>;
  return z.pipe(
    query.check(
      z.superRefine((q: Query, check) => {
        for (const key of Object.keys(q)) {
          if (!Object.hasOwn(control, key) && !(own && Object.hasOwn(own, key)) && !isFieldName(key))
            // Said of the whole query: an inherited name cannot name a field of the answer's messages.
            check.addIssue({ code: 'custom', path: [], message: `Unknown filter ${key}` });
        }
      }),
    ),
    z.transform((q: Query) => ({ ...q, text: textOf(q) })),
  );
};

/** GET /readings, GET /invoice-validation/invoices: a generic list of the resource. */
export const plainListQuery = onFirstUse(() => genericList());

/** GET /accounts, /accounts/search: staff may name the `companyId` to list; `$populate` is ignored. */
export const accountListQuery = onFirstUse(() =>
  genericList({ own: { companyId: z.optional(z.string()), $populate: z.optional(z.string()) } }),
);

/** GET /invoices/validation: always newest first, whatever `$sort` asks. */
export const invoiceValidationListQuery = onFirstUse(() => genericList({ anySort: true }));

export const QUEUE_GROUPS = ['passed', 'failed', 'pending', 'completed', 'open'] as const;

export type QueueGroup = (typeof QUEUE_GROUPS)[number];

/** GET /invoice-validation/queue: one `group` of the queue (open items by default). */
export const validationQueueQuery = onFirstUse(() =>
  genericList({
    own: { group: z.optional(z.enum(QUEUE_GROUPS, `Must be one of ${QUEUE_GROUPS.join(', ')}`)) },
  }),
);

const searchList = () => genericList({ own: { query: z.optional(z.string()) } });

/**
 * GET /invoice-validation/search, GET /emails/search: the words to look for (`query`), trimmed; the
 * operation refuses a search for nothing.
 */
export const listSearchQuery = onFirstUse(() =>
  z.pipe(
    searchList(),
    z.transform((q: z.output<ReturnType<typeof searchList>>) => ({ ...q, query: (q.query ?? '').trim() })),
  ),
);

/** GET /emails: the company's mail, or (`unmatched=true`, staff only) mail that reached no company. */
export const emailListQuery = onFirstUse(() =>
  genericList({ own: { unmatched: z.optional(z.enum(['true', 'false'], 'Must be true or false')) } }),
);

const COUNTRY_SORTS = ['fullName', 'name', 'code'] as const;
const SORT_MESSAGE = `Must be one of ${COUNTRY_SORTS.join(', ')}, optionally after -`;
const isCountrySort = (field: string) => (COUNTRY_SORTS as readonly string[]).includes(field);

const countryQuery = () =>
  z.catchall(
    z.object({
      limit: count(),
      skip: count(),
      $limit: count(),
      $skip: count(),
      $sort: z.optional(z.string()),
    }),
    z.string(),
  );
type CountryQuery = z.output<ReturnType<typeof countryQuery>>;

/**
 * GET /countries: a generic list's filters and page, in an order of its own: `$sort` names a field with an
 * optional leading '-' (descending), or `$sort[field]=1|-1`; fullName ascending by default.
 */
export const countryListQuery = onFirstUse(() =>
  z.pipe(
    countryQuery().check(
      z.superRefine((q: CountryQuery, check) => {
        // The first `$sort[field]` wins over a plain `$sort`, as it always has.
        const bracket = Object.keys(q).find((key) => /^\$sort\[\w+\]$/.test(key));
        const field = bracket ? bracket.slice(6, -1) : (q.$sort ?? '').replace(/^-/, '');
        if (field !== '' && !isCountrySort(field))
          check.addIssue({ code: 'custom', path: [bracket ?? '$sort'], message: SORT_MESSAGE });
      }),
    ),
    z.transform((q: CountryQuery) => {
      const bracket = Object.entries(q)
        .map(([key, value]) => [/^\$sort\[(\w+)\]$/.exec(key)?.[1], value] as const)
        .find((e): e is readonly [(typeof COUNTRY_SORTS)[number], string] => e[0] !== undefined);
      const plain = q.$sort ?? '';
      const sort = bracket
        ? { field: bracket[0], direction: bracket[1] === '-1' ? -1 : 1 }
        : plain === ''
          ? { field: 'fullName', direction: 1 }
          : { field: plain.replace(/^-/, ''), direction: plain.startsWith('-') ? -1 : 1 };
      const filters = Object.fromEntries(
        Object.entries(q).filter(
          (e): e is [string, string] => !e[0].startsWith('$sort') && typeof e[1] === 'string',
        ),
      );
      return { sort: sort as { field: string; direction: 1 | -1 }, text: filters };
    }),
  ),
);
