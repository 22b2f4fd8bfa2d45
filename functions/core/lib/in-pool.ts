/**
 * Runs `task` over `items` with at most `limit` running at once, and answers the results in the items'
 * order: enough parallel reads to hide latency without flooding DynamoDB's or S3's request rate.
 */
export async function inPool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
