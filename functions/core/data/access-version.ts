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

/**
 * The company's stamp as one consistent read of one small item: its access version, and its site list mark,
 * which moves after every write to the company's sites (any field: a list shows whole sites), naming the
 * site in the same write when the write was of one site. Work kept in the process is trusted only while the
 * part of the stamp it depends on stands, so a grant taken away or a site renamed shows on the next call,
 * and checking costs the read every call makes anyway.
 */
export interface AccessStamp {
  version: number;
  sites: number;
  /** The site whose write moved the site list mark to `sites`; absent when that write was of many. */
  lastSite?: string;
}

/** Moves the access version, the site list mark (naming the one site written, if one), or both, in one write. */
export async function moveAccessStamp(
  companyId: string,
  move: { version?: boolean; sites?: boolean; siteId?: string },
): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1 };
  if (move.version) names['#v'] = 'v';
  if (move.sites) names['#s'] = 'sites';
  const adds = Object.keys(names).map((n) => `${n} :one`);
  if (adds.length === 0) return;
  let expression = `ADD ${adds.join(', ')}`;
  if (move.sites) {
    names['#last'] = 'lastSite';
    if (move.siteId) {
      values[':last'] = move.siteId;
      expression += ' SET #last = :last';
    } else expression += ' REMOVE #last';
  }
  await documentClient().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: versionKey(companyId),
      UpdateExpression: expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

export async function bumpAccessVersion(companyId: string): Promise<void> {
  await moveAccessStamp(companyId, { version: true });
}

export async function readAccessStamp(companyId: string): Promise<AccessStamp> {
  const out = await documentClient().send(
    new GetCommand({ TableName: config().tableName, Key: versionKey(companyId), ConsistentRead: true }),
  );
  const item = out.Item;
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  const stamp: AccessStamp = { version: num(item?.v), sites: num(item?.sites) };
  if (typeof item?.lastSite === 'string') stamp.lastSite = item.lastSite;
  return stamp;
}

export async function readAccessVersion(companyId: string): Promise<number> {
  return (await readAccessStamp(companyId)).version;
}
