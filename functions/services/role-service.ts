import { conflict } from '../lib/errors.ts';
import type { OpContext, Operations, OpResult } from '../middleware/api-context.ts';
import { queryAll } from '../repositories/item-repository.ts';
import { keys } from '../repositories/keys.ts';
import { GENERIC_OPERATIONS } from './resource-service.ts';

/**
 * Deleting a role that members still hold would leave them pointing at nothing and silently drop the
 * permissions it gave them, so it is refused until nobody holds it.
 */
const remove = async (ctx: OpContext): Promise<OpResult> => {
  const roleId = ctx.params.id as string;
  const members = await queryAll(keys.collection({ companyId: ctx.caller.companyId }, 'users'));
  const holders = members.filter((m) => m.roleId === roleId);
  if (holders.length > 0) {
    throw conflict(
      `This role is still given to ${holders.length} ${holders.length === 1 ? 'user' : 'users'}. Give them another role first.`,
    );
  }
  const genericDelete = GENERIC_OPERATIONS['generic.delete'];
  if (!genericDelete) throw new Error('The generic delete operation is missing');
  return genericDelete(ctx);
};

export const ROLE_OPERATIONS: Operations = { 'roles.delete': remove };
