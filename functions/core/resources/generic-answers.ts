import type { StoredItem } from '../data/item-repository.ts';
import type { OpResult } from '../middleware/api-context.ts';

/**
 * What a generic call answered, typed for an area that wraps the call (to add a logo link, a status, the
 * views of its items). The generic calls answer one stored item, or a page of them; anything else is a
 * fault of the wrapping, not of the request.
 */

const isItem = (v: unknown): v is StoredItem =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && '_id' in v && typeof v._id === 'string';

/** The item a generic get, create, update, delete or restore answered. */
export function answeredItem(result: OpResult): StoredItem {
  if (!isItem(result.body)) throw new Error('The generic call answered something other than one item');
  return result.body;
}

/** The page a generic list or search answered: its items, with its total and paging as they were. */
export function answeredPage(
  result: OpResult,
): { data: StoredItem[]; total: number } & Record<string, unknown> {
  const body = result.body;
  if (
    typeof body === 'object' &&
    body !== null &&
    'data' in body &&
    Array.isArray(body.data) &&
    body.data.every(isItem) &&
    'total' in body &&
    typeof body.total === 'number'
  )
    return { ...body, data: body.data, total: body.total };
  throw new Error('The generic call answered something other than a page of items');
}
