import { isCompanyWide } from '../../shared/access/route-access.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { assetGroupPageQuery } from '../../shared/schemas/queries.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { listItems, type StoredItem } from '../core/data/item-repository.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { groupsRef, groupsResource } from './asset-group-access.ts';

/**
 * GET /users/me/asset-groups: the portfolios the signed-in user may open, by name. A user with grants sees
 * a group only when they may read every asset in it.
 */
const myAssetGroups = operation({ query: assetGroupPageQuery }, async (ctx): Promise<OpResult> => {
  const { limit, skip } = ctx.query;
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
});

export const ASSET_GROUP_SESSION_OPERATIONS: Operations = { 'assetGroups.mine': myAssetGroups };
