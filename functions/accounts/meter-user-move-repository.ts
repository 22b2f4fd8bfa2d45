/**
 * Moves of meters between users still to finish: a meter's user is saved, then its site's roll-ups are
 * rebuilt to move its figures between the landlord, tenant and shared parts. The save names the move
 * here before it writes the meter, and the rebuild drops the name once done, so a request that dies in
 * between leaves the move named. A move named longer ago than any request lives is a dead one: the next
 * split by meter user hands it to the analytics worker, which claims it (one worker at a time), rebuilds
 * the site (an idempotent rebuild) and drops it. One item per site; a later move of the same site takes
 * the item over, and a rebuild drops only the name it read, so it never drops a move saved after it began.
 *
 * | pattern                                 | key condition                                          | index |
 * | --------------------------------------- | ------------------------------------------------------ | ----- |
 * | name a site's move under way            | pk = C#{companyId}#meter-user-moves, sk = assetId      | table |
 * | the company's moves under way           | pk = C#{companyId}#meter-user-moves                    | table |
 * | claim a dead move (same token, unclaimed) | pk = C#{companyId}#meter-user-moves, sk = assetId    | table |
 * | release a claim after a failure         | pk = C#{companyId}#meter-user-moves, sk = assetId      | table |
 * | drop a finished move (same token only)  | pk = C#{companyId}#meter-user-moves, sk = assetId      | table |
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../core/adapters/dynamo.ts';
import { config } from '../core/config.ts';

const movesPk = (companyId: string) => `C#${companyId}#meter-user-moves`;

/**
 * A move named longer ago than any HTTP function lives (29 s) is one whose request died before its
 * rebuild; a younger one may still be running, and finishing it then could rebuild before its save lands.
 */
export const MOVE_DEAD_AFTER_MS = 60_000;
/** A worker's claim outlives the worker (its queue's visibility timeout is 15 minutes), then lapses. */
const CLAIM_LAPSES_AFTER_MS = 16 * 60_000;

/** A move of a meter's user whose site's rebuild may not have run. */
export interface MeterUserMove {
  assetId: string;
  meterId: string;
  token: string;
  /** When the move was named (ms). */
  at: number;
  /** When a worker claimed it to finish it (ms). */
  claimedAt?: number;
}

/** Names a move of this meter's user as under way, before the meter is saved; answers its token. */
export async function nameMeterUserMove(
  companyId: string,
  assetId: string,
  meterId: string,
): Promise<string> {
  const token = randomBytes(9).toString('hex');
  await documentClient().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { pk: movesPk(companyId), sk: assetId, assetId, meterId, token, at: Date.now() },
    }),
  );
  return token;
}

/** The company's moves under way (read consistently: a move named just now must be seen). */
export async function meterUserMovesOf(companyId: string): Promise<MeterUserMove[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: config().tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': movesPk(companyId) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    assetId: String(i.assetId),
    meterId: String(i.meterId),
    token: String(i.token),
    at: Number(i.at) || 0,
    ...(typeof i.claimedAt === 'number' ? { claimedAt: i.claimedAt } : {}),
  }));
}

/** The company's moves left by dead requests and not being finished by a worker now. */
export async function deadMeterUserMoves(companyId: string, now = Date.now()): Promise<MeterUserMove[]> {
  return (await meterUserMovesOf(companyId)).filter(
    (m) =>
      now - m.at >= MOVE_DEAD_AFTER_MS &&
      (m.claimedAt === undefined || now - m.claimedAt >= CLAIM_LAPSES_AFTER_MS),
  );
}

/**
 * Writes to a site's move item only while it still holds `token`: false when a later move of the site
 * took the item over (or another worker's claim stands, where `condition` asks for none).
 */
async function whileHeld(
  companyId: string,
  assetId: string,
  token: string,
  write: { delete: true } | { update: string; condition?: string; values?: Record<string, unknown> },
): Promise<boolean> {
  const held = {
    TableName: config().tableName,
    Key: { pk: movesPk(companyId), sk: assetId },
    ExpressionAttributeNames: { '#token': 'token' },
  };
  try {
    await documentClient().send(
      'delete' in write
        ? new DeleteCommand({
            ...held,
            ConditionExpression: '#token = :token',
            ExpressionAttributeValues: { ':token': token },
          })
        : new UpdateCommand({
            ...held,
            UpdateExpression: write.update,
            ConditionExpression: `#token = :token${write.condition ? ` AND ${write.condition}` : ''}`,
            ExpressionAttributeValues: { ':token': token, ...write.values },
          }),
    );
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw err;
  }
}

/** Claims a dead move for one worker; false when another holds it or a later move took it over. */
export async function claimMeterUserMove(
  companyId: string,
  move: MeterUserMove,
  now = Date.now(),
): Promise<boolean> {
  return whileHeld(companyId, move.assetId, move.token, {
    update: 'SET claimedAt = :now',
    condition: '(attribute_not_exists(claimedAt) OR claimedAt < :lapsed)',
    values: { ':now': now, ':lapsed': now - CLAIM_LAPSES_AFTER_MS },
  });
}

/** Drops a finished move, unless a later move of the site took its item over meanwhile. */
export async function dropMeterUserMove(companyId: string, assetId: string, token: string): Promise<void> {
  await whileHeld(companyId, assetId, token, { delete: true });
}

/** Releases a worker's claim after its rebuild failed, so the queue's next delivery may claim it again. */
export async function releaseMeterUserMove(companyId: string, move: MeterUserMove): Promise<void> {
  await whileHeld(companyId, move.assetId, move.token, { update: 'REMOVE claimedAt' });
}
