/**
 * Read capacity per HTTP request, for benchmarks: with VOLTFOLIO_CONSUMED_CAPACITY=1 every DynamoDB read
 * asks for its consumed capacity, the units are summed per request, and the response carries the sum in
 * `x-consumed-rcu`. Off (the default), nothing is added to requests or responses.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export const CONSUMED_RCU_HEADER = 'x-consumed-rcu';

const READS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);

interface Tally {
  rcu: number;
}

const tallies = new AsyncLocalStorage<Tally>();

/** Read once: the switch is for a whole benchmark run, never per request. */
export const consumedCapacityMeasured = process.env.VOLTFOLIO_CONSUMED_CAPACITY === '1';

interface Capacity {
  CapacityUnits?: number;
}

function unitsOf(consumed: unknown): number {
  const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  return list.reduce<number>((sum, c: Capacity) => sum + (c.CapacityUnits ?? 0), 0);
}

/** Adds the capacity request and tally to a low-level client; the caller checks `consumedCapacityMeasured`. */
export function measureReadCapacity(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!READS.has(context.commandName ?? '')) return next(args);
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const tally = tallies.getStore();
      if (tally) tally.rcu += unitsOf((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity);
      return result;
    },
    { step: 'initialize', name: 'voltfolioConsumedCapacity' },
  );
}

/** Runs one request with its own tally and reports the sum in a response header. */
export function withConsumedCapacity<E, C, R extends { headers?: Record<string, string | number | boolean> }>(
  handler: (event: E, context: C) => Promise<R>,
): (event: E, context: C) => Promise<R> {
  return (event, context) => {
    const tally: Tally = { rcu: 0 };
    return tallies.run(tally, async () => {
      const result = await handler(event, context);
      return { ...result, headers: { ...result.headers, [CONSUMED_RCU_HEADER]: String(tally.rcu) } };
    });
  };
}
