/**
 * | pattern                                        | key condition                                    | index |
 * | ---------------------------------------------- | ------------------------------------------------ | ----- |
 * | the kept copy of what one caller may read      | pk = C#{companyId}#readable, sk = {caller hash}  | table |
 * | keep a copy (unless a newer one is kept)       | pk = C#{companyId}#readable, sk = {caller hash}  | table |
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';
import { isConditionFailure } from '../data/item-repository.ts';

/** What a granted caller may read, as id lists (see item-access-service.ts `Readable`). */
export interface ReadableLists {
  entities: string[];
  assets: string[];
  accounts: string[];
  assetGroups: string[];
  assetsInOrder: string[];
}

/** A kept copy of another layout is worked out again. */
const LAYOUT = 1;
/** Well under the 400 KB an item may hold: a larger copy (tens of thousands of ids) is not kept. */
const MAX_BYTES = 350_000;

const keyOf = (companyId: string, caller: string) => ({
  pk: `C#${companyId}#readable`,
  sk: createHash('sha256').update(caller).digest('base64url'),
});

const bytesOf = (v: unknown): Buffer | undefined =>
  v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : undefined;

const isIds = (v: unknown): v is string[] => Array.isArray(v) && v.every((id) => typeof id === 'string');

/**
 * The kept copy for a caller (`caller` names them and their grants) and the access version it was worked
 * out at. Read eventually consistently: a copy is used only when its version is the one the call read.
 */
export async function readKeptReadable(
  companyId: string,
  caller: string,
): Promise<{ version: number; lists: ReadableLists } | undefined> {
  const item = (
    await documentClient().send(
      new GetCommand({ TableName: config().tableName, Key: keyOf(companyId, caller) }),
    )
  ).Item;
  const data = bytesOf(item?.data);
  if (!item || !data || item.layout !== LAYOUT || typeof item.version !== 'number') return undefined;
  const lists = JSON.parse(gunzipSync(data).toString('utf8')) as Record<string, unknown>;
  const { entities, assets, accounts, assetGroups, assetsInOrder } = lists;
  if (!isIds(entities) || !isIds(assets) || !isIds(accounts) || !isIds(assetGroups) || !isIds(assetsInOrder))
    return undefined;
  return { version: item.version, lists: { entities, assets, accounts, assetGroups, assetsInOrder } };
}

/** Keeps a caller's copy worked out at `version`, unless one of a later version is kept already. */
export async function keepReadable(
  companyId: string,
  caller: string,
  version: number,
  lists: ReadableLists,
): Promise<void> {
  const data = gzipSync(JSON.stringify(lists));
  if (data.length > MAX_BYTES) return;
  try {
    await documentClient().send(
      new PutCommand({
        TableName: config().tableName,
        Item: { ...keyOf(companyId, caller), version, layout: LAYOUT, data },
        ConditionExpression: 'attribute_not_exists(#v) OR #v <= :v',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':v': version },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
