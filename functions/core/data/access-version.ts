import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../adapters/dynamo.ts';
import { config } from '../config.ts';

/**
 * A company's access version: one number that moves whenever what a granted user may read can change
 * (grants, roles and memberships; entities, sites, meters and portfolios appearing, going, or moving under
 * another parent). What is worked out from those is kept in the process and trusted only while the number stands.
 * The table's writes bump it themselves (item-repository), so no writer of those collections can forget.
 */
const versionKey = (companyId: string) => ({ pk: `C#${companyId}#access`, sk: 'version' });

/** Collections whose every write changes access: memberships (with their grants) and roles. */
const ACCESS_COLLECTIONS = new Set(['users', 'roles']);
/** Collections of the hierarchy: a change of the live set or of a parent link changes access. */
const TREE_LINKS: Record<string, readonly string[]> = {
  entities: ['parentEntityId'],
  // A site's name places it in a granted user's list of sites, worked out with what they may read.
  assets: ['entityId', 'siteName'],
  accounts: ['assetId', 'entityId'],
  'asset-groups': ['assetIds'],
};

export interface Watched {
  companyId: string;
  /** The parent-link fields to compare; undefined when every write counts. */
  links?: readonly string[];
}

/** Whether writes to a partition can change a company's access, and how to tell. */
export function watchedOf(pk: string): Watched | undefined {
  const match = /^C#([^#]+)#([a-z-]+)$/.exec(pk);
  if (!match) return undefined;
  const [, companyId, resource] = match as unknown as [string, string, string];
  if (ACCESS_COLLECTIONS.has(resource)) return { companyId };
  const links = TREE_LINKS[resource];
  return links ? { companyId, links } : undefined;
}

/** Whether a write from `before` to `after` (either absent) changes what the hierarchy grants. */
export function changesAccess(
  watched: Watched,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): boolean {
  if (!watched.links) return true;
  const live = (i: Record<string, unknown> | undefined) => i !== undefined && i.deleted !== true;
  if (live(before) !== live(after)) return true;
  return watched.links.some((f) => JSON.stringify(before?.[f]) !== JSON.stringify(after?.[f]));
}

export async function bumpAccessVersion(companyId: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: versionKey(companyId),
      UpdateExpression: 'ADD #v :one',
      ExpressionAttributeNames: { '#v': 'v' },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

export async function readAccessVersion(companyId: string): Promise<number> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: versionKey(companyId), ConsistentRead: true }),
  );
  return typeof out.Item?.v === 'number' ? out.Item.v : 0;
}
