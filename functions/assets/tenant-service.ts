import { metersNamingTenant } from '../accounts/index.ts';
import { ApiError } from '../core/lib/errors.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { genericOperation } from '../core/resources/resource-service.ts';

/** How many meters a refusal names before it says how many more there are. */
const NAMED = 5;

/**
 * DELETE /assets/{id}/tenants/{subId}: the generic removal, refused while a meter names the tenant as its
 * user. Insights split the tenant part by the tenant each meter names; removing the tenant under them would
 * leave those meters' figures under a tenant nobody can see or pick again, so the user chooses first what
 * the meters become (another tenant, none, or another user) on their edit pages.
 */
const remove = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const meters = await metersNamingTenant(ctx.caller.companyId, ctx.params.id, ctx.params.subId);
  if (meters.length > 0) {
    const names = meters.slice(0, NAMED).map((m) => m.name || m.meterPointNumber || m._id);
    const more = meters.length > NAMED ? ` and ${meters.length - NAMED} more` : '';
    throw new ApiError(
      400,
      'TENANT_IN_USE',
      `This tenant uses ${meters.length === 1 ? 'a meter' : `${meters.length} meters`} (${names.join(', ')}${more}): ` +
        'choose another tenant or none on each meter first',
    );
  }
  return genericOperation('generic.sub.delete')(ctx);
});

export const TENANT_OPERATIONS: Operations = { 'assets.tenants.delete': remove };
