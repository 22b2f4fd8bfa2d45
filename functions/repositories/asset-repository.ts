import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { type CollectionRef, keyAttributes, type StoredItem } from './item-repository.ts';

/**
 * Writes an item only if nobody changed it since it was read (its `updatedAt` is still `expected`):
 * pictures arrive from a worker while people edit the same site, and neither may undo the other.
 * Answers false when the item changed meanwhile, so the caller reads it again and retries.
 */
export async function putIfUnchanged(
  ref: CollectionRef,
  item: StoredItem,
  expected: unknown,
): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: { ...item, ...keyAttributes(ref, item) },
        ConditionExpression:
          expected === undefined
            ? 'attribute_exists(pk) AND attribute_not_exists(updatedAt)'
            : 'attribute_exists(pk) AND updatedAt = :expected',
        ...(expected === undefined ? {} : { ExpressionAttributeValues: { ':expected': expected } }),
      }),
    );
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}
