import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { inPool } from '../lib/in-pool.ts';

const BATCH_WRITE_SIZE = 25;
const MAX_ATTEMPTS = 8;

/** One put or delete of a BatchWrite, with the keys as the caller's repository lays them out. */
export type WriteRequest =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: Record<string, unknown> } };

/**
 * BatchWrite in groups of 25, `inFlight` groups at a time (one unless given), each retrying what the table
 * leaves unprocessed with a growing pause, and failing after 8 attempts: the table is throttling, and
 * the caller must not count a write that did not happen. `what` names the writes in that failure.
 */
export async function batchWrite(
  requests: readonly WriteRequest[],
  opts: { inFlight?: number; what?: string } = {},
): Promise<void> {
  const tableName = config().tableName;
  const groups: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_SIZE)
    groups.push(requests.slice(i, i + BATCH_WRITE_SIZE));
  await inPool(groups, opts.inFlight ?? 1, async (group) => {
    let pending = group;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS)
        throw new Error(`The table kept refusing a batch of ${opts.what ?? 'writes'}`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
      const out = await documentClient().send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending } }),
      );
      pending = (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    }
  });
}
