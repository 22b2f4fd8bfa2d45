import { isCompanyWide } from '../../shared/access/route-access.ts';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { listItems, type StoredItem } from '../core/data/item-repository.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { groupsRef, groupsResource } from './asset-group-access.ts';

/**
 * GET /users/me/asset-groups: the portfolios the signed-in user may open, by name. A user with grants sees
 * a group only when they may read every asset in it.
 */
const myAssetGroups = async (ctx: OpContext): Promise<OpResult> => {
  const limit = Math.min(Number(ctx.query.limit ?? DEFAULT_LIST_LIMIT) || DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
  const skip = Math.max(Number(ctx.query.skip ?? 0) || 0, 0);
  const all = await listItems(groupsRef(ctx.caller.companyId), {
    filters: {},
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  let groups: StoredItem[] = all.data;
  if (!isCompanyWide(ctx.caller)) {
    const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
    groups = [];
    for (const g of all.data) {
      if (await mayAccessItem(groupsResource(), ctx.caller, g, 'read', resolver)) groups.push(g);
    }
  }
  groups.sort((a, b) => String(a.name).localeCompare(String(b.name), 'en-GB'));
  return { body: { data: groups.slice(skip, skip + limit), total: groups.length, limit, skip } };
};

export const ASSET_GROUP_SESSION_OPERATIONS: Operations = { 'assetGroups.mine': myAssetGroups };
