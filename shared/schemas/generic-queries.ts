import * as z from 'zod/mini';
import { DEFAULT_LIST_LIMIT, MAX_PAGE_LIMIT } from '../constants.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * Query strings of the generic calls every function serves (02 §7): a list, a search and a sub-resource's
 * list. Built with zod's small build (`zod/mini`) on the first call that reads them, as every function
 * declares them. Values are checked as the generic list reads them, so a bad one answers 400 beside its
 * name, and kept as text (`text`) for the list, which turns each filter into the type of its field.
 */

const WHOLE = 'Must be a whole number of 0 or more';
const GENERIC_SORTS: readonly string[] = ['createdAt', '-createdAt', '_id', '-_id'];
const CONTROL = ['limit', 'skip', '$limit', '$skip', '$sort', '$deleted', '$multi', '$select'];

const isCount = (v: string) => v === '' || (Number.isInteger(Number(v)) && Number(v) >= 0);
const count = () => z.optional(z.string().check(z.refine(isCount, WHOLE)));

/** A filter's name: a field's path, and not a name every object inherits (`constructor`). */
const isFieldName = (key: string) =>
  /^[A-Za-z_][A-Za-z0-9_.]*$/.test(key) && !key.split('.').some((part) => part in Object.prototype);

/** Every name of the query as it came (an object's schema leaves `__proto__` out of what it parses). */
const knownNames = (own: readonly string[]) =>
  z
    .custom<Record<string, unknown>>((q) => typeof q === 'object' && q !== null)
    .check(
      z.superRefine((q, check) => {
        for (const key of Object.keys(q))
          if (!CONTROL.includes(key) && !own.includes(key) && !isFieldName(key))
            // Said of the whole query: an inherited name cannot name a field of the answer's messages.
            check.addIssue({ code: 'custom', message: `Unknown filter ${key}`, path: [] });
      }),
    );

const listShape = () => ({
  limit: count(),
  skip: count(),
  $limit: count(),
  $skip: count(),
  $sort: z.optional(
    z
      .string()
      .check(
        z.refine(
          (v) => v === '' || GENERIC_SORTS.includes(v),
          'Must be createdAt (oldest first) or -createdAt (newest first)',
        ),
      ),
  ),
  $deleted: z.optional(z.string()),
  $multi: z.optional(z.string()),
  $select: z.optional(z.string()),
});

const textOf = (q: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** GET /{resource}: paging, order, deleted items, and filters on the resource's fields by name. */
export const genericListQuery = onFirstUse(() =>
  z.pipe(
    knownNames([]),
    z.pipe(
      z.catchall(z.object(listShape()), z.string()),
      z.transform((q) => ({ ...q, text: textOf(q) })),
    ),
  ),
);

/** GET /{resource}/search: the list's values and the words to look for (`query`), trimmed. */
export const genericSearchQuery = onFirstUse(() =>
  z.pipe(
    knownNames(['query']),
    z.pipe(
      z.catchall(z.object({ ...listShape(), query: z.optional(z.string()) }), z.string()),
      z.transform((q) => ({ ...q, query: (q.query ?? '').trim(), text: textOf(q) })),
    ),
  ),
);

/** GET /{resource}/{id}/{sub}: a page of a sub-resource's items; other values are passed over. */
export const genericSubListQuery = onFirstUse(() =>
  z.pipe(
    z.object({ limit: count(), skip: count() }),
    z.transform((q) => ({
      limit: q.limit ? Math.min(Number(q.limit), MAX_PAGE_LIMIT) : DEFAULT_LIST_LIMIT,
      skip: q.skip ? Number(q.skip) : 0,
    })),
  ),
);
