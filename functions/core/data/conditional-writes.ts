import { type CollectionRef, putItemIf, type StoredItem } from './item-repository.ts';

/**
 * Writes an item only if nobody changed it since it was read (its `updatedAt` is still `expected`):
 * pictures arrive from a worker while people edit the same site, and neither may undo the other.
 * Answers false when the item changed meanwhile, so the caller reads it again and retries.
 */
export const putIfUnchanged = (ref: CollectionRef, item: StoredItem, expected: unknown): Promise<boolean> =>
  putItemIf(
    ref,
    item,
    expected === undefined
      ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(updatedAt)' }
      : {
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :expected',
          ExpressionAttributeValues: { ':expected': expected },
        },
  );
