import type { Caller } from '../../shared/access/caller.ts';
import { type PermissionName, permissionList } from '../../shared/access/permission-names.ts';
import { forgetCaller } from '../core/access/caller-service.ts';
import { listMemberships } from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import { conflict, forbidden, notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import {
  bodyObjectOf,
  type OpContext,
  type Operation,
  type Operations,
  type OpResult,
} from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { GENERIC_OPERATIONS } from '../core/resources/resource-service.ts';

/**
 * Nobody hands out more than they may: 'admin' only by staff, owner and administrator rights only by
 * staff and company owners. Everything below that a company admin may give. The same rule holds for a
 * user's own permissions and for a role's, since a role's permissions reach everyone who holds it.
 */
export function assertAssignable(caller: Caller, permissions: readonly PermissionName[]): void {
  if (caller.isAdmin) return;
  if (permissions.includes('admin')) throw forbidden('Only staff can give the admin permission');
  const elevated = permissions.includes('company_owner') || permissions.includes('company_admin');
  if (elevated && !caller.permissions.includes('company_owner')) {
    throw forbidden('Only a company owner can make owners and administrators');
  }
}

function generic(name: string): Operation {
  const op = GENERIC_OPERATIONS[name];
  if (!op) throw new Error(`The generic operation ${name} is missing`);
  return op;
}

/** Permissions named by a body that may not parse yet: the generic operation reports what is malformed. */
const namedPermissions = (ctx: Pick<OpContext, 'body'>): PermissionName[] =>
  permissionList(bodyObjectOf(ctx).permissions);

const create = operation({}, async (ctx): Promise<OpResult> => {
  assertAssignable(ctx.caller, namedPermissions(ctx));
  return generic('generic.create')(ctx);
});

const bulk = operation({}, async (ctx): Promise<OpResult> => {
  const entries = Array.isArray(ctx.body) ? ctx.body : [];
  assertAssignable(
    ctx.caller,
    entries.flatMap((body: unknown) => namedPermissions({ body })),
  );
  return generic('generic.bulk')(ctx);
});

/**
 * A role that gives owner or administrator rights is changed only by those who could give it, whatever
 * the change: otherwise an administrator could take the owners' rights away from their role. Holders'
 * cached permissions are dropped so the change shows on their next call.
 */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const roleId = ctx.params.id;
  const existing = (await listRoles(ctx.caller.companyId)).find((r) => r._id === roleId);
  if (!existing || existing.deleted === true) throw notFound();
  // The role schema is one of the resource schemas, loaded on the first call that needs them.
  const { roleSchema } = await import('../../shared/schemas/role.ts');
  const patch = parseOrThrow(roleSchema.partial(), ctx.body);
  const given = ctx.body && typeof ctx.body === 'object' && 'permissions' in ctx.body;
  assertAssignable(ctx.caller, [
    ...permissionList(existing.permissions),
    ...(given ? (patch.permissions ?? []) : []),
  ]);
  const result = await generic('generic.update')(ctx);
  for (const holder of await holdersOf(ctx.caller.companyId, roleId)) forgetCaller(holder);
  return result;
});

async function holdersOf(companyId: string, roleId: string): Promise<string[]> {
  const members = await listMemberships(companyId);
  return members.filter((m) => m.roleId === roleId).map((m) => m._id);
}

/**
 * Deleting a role that members still hold would leave them pointing at nothing and silently drop the
 * permissions it gave them, so it is refused until nobody holds it.
 */
const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const roleId = ctx.params.id;
  const holders = await holdersOf(ctx.caller.companyId, roleId);
  if (holders.length > 0) {
    throw conflict(
      `This role is still given to ${holders.length} ${holders.length === 1 ? 'user' : 'users'}. Give them another role first.`,
    );
  }
  return generic('generic.delete')(ctx);
});

export const ROLE_OPERATIONS: Operations = {
  'roles.create': create,
  'roles.bulk': bulk,
  'roles.update': update,
  'roles.delete': remove,
};
