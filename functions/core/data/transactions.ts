/** DynamoDB's most actions in one transaction. */
export const MAX_TRANSACTION_ACTIONS = 100;
/** How many times a transaction that collided with another writer is sent before giving up. */
export const MAX_TRANSACTION_ATTEMPTS = 6;

/** One conditional update of an item, as a transaction (or a single UpdateCommand) names it. */
export interface ItemUpdate {
  Key: { pk: string; sk: string };
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/** A random wait, growing with the attempt, so writers that collided do not collide again. */
export const backOff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt * Math.random()));

interface CancelledTransaction extends Error {
  CancellationReasons?: { Code?: string }[];
}

const isCancelled = (err: unknown): err is CancelledTransaction =>
  err instanceof Error && err.name === 'TransactionCanceledException';

/** Why a transaction was cancelled, one code per action in its order; undefined for any other failure. */
export const cancellationCodes = (err: unknown): string[] | undefined =>
  isCancelled(err) ? (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None') : undefined;
