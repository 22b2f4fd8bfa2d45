import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';

/** A query of the table: the table's name and the page to start from are this module's business. */
export type TableQuery = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

type RawItem = Record<string, unknown>;

/**
 * Reads a query page after page and hands each item to `take`, as stored (keys included). Stops early
 * when `enough` says so after a page, so a bounded read need not walk the whole partition. A `take` that
 * writes as it reads may answer a promise: the next item waits for it. `from` starts the read at a key
 * (a bookmark); `pageLimit` sets each page's Limit as the read goes, so a bounded read asks for no more
 * items than it still needs. Answers the key to go on from when it stopped early, and undefined once the
 * query is read to its end.
 */
export async function eachQueried(
  query: TableQuery,
  take: (raw: RawItem) => void | Promise<void>,
  enough: () => boolean = () => false,
  { from, pageLimit }: { from?: RawItem; pageLimit?: () => number } = {},
): Promise<RawItem | undefined> {
  let startKey = from;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        ...query,
        TableName: config().tableName,
        ExclusiveStartKey: startKey,
        ...(pageLimit ? { Limit: pageLimit() } : {}),
      }),
    );
    for (const raw of page.Items ?? []) {
      // Only a promise is awaited: most readers take items synchronously, by the thousand.
      const taken = take(raw);
      if (taken) await taken;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && !enough());
  return startKey;
}

/** Every item a query matches, each made into a record by `map`. */
export async function queryMapped<T>(query: TableQuery, map: (raw: RawItem) => T): Promise<T[]> {
  const out: T[] = [];
  await eachQueried(query, (raw) => {
    out.push(map(raw));
  });
  return out;
}

/**
 * How many items a query matches, from `startKey` on when given: a COUNT query moves no item bodies, only
 * the number.
 */
export async function countQueried(query: TableQuery, startKey?: RawItem): Promise<number> {
  let total = 0;
  let key = startKey;
  do {
    const out = await documentClient().send(
      new QueryCommand({ ...query, TableName: config().tableName, Select: 'COUNT', ExclusiveStartKey: key }),
    );
    total += out.Count ?? 0;
    key = out.LastEvaluatedKey;
  } while (key);
  return total;
}
