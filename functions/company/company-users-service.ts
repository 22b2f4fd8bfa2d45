import { randomBytes } from 'node:crypto';
import type { Caller } from '../../shared/access/caller.ts';
import { type PermissionName, permissionList } from '../../shared/access/permission-names.ts';
import type { CompanyUser, WelcomeSentView } from '../../shared/schemas/responses/company.ts';
import { forgetCaller } from '../core/access/caller-service.ts';
import {
  changeMembership,
  deleteMembership,
  joinCompany,
  leaveCompany,
  listMemberships,
  putMembership,
} from '../core/access/membership-repository.ts';
import {
  getMembership,
  getProfile,
  listRoles,
  type StoredMembership,
  type StoredRole,
} from '../core/access/user-repository.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { closeConnectionsOf } from '../core/adapters/live.ts';
import { mailConfig } from '../core/config.ts';
import { badRequest, conflict, forbidden, formError, notFound } from '../core/lib/errors.ts';
import { sentFields } from '../core/lib/item-patch.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { AnyOpContext, OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { refuseUnknownRefs } from '../core/resources/resource-refs.ts';
import { revokeApiAccess } from '../profile/index.ts';
import { getCompany } from './company-repository.ts';
import { assertAssignable } from './role-service.ts';

/**
 * Company user administration (02 §6, §7): the same operations serve `/companies/{id}/users/{userSub}`
 * and the company's own `/users/{id}`. Creating a user creates (or finds) their sign-in identity, then
 * their profile and membership.
 */
function target(ctx: AnyOpContext): { companyId: string; sub: string | undefined } {
  // The operations serve paths with and without these parameters, so they declare none and read them here.
  const { id, userSub } = ctx.params;
  if (!ctx.route.path.startsWith('/companies/')) return { companyId: ctx.caller.companyId, sub: id };
  // Every `/companies/...` route of these operations names the company.
  if (!id) throw notFound();
  return { companyId: id, sub: userSub };
}

/** Activity is written to the log of the company that changed, also when staff change another company. */
const inCompany = (caller: Caller, companyId: string): Caller => ({ ...caller, companyId });

async function permissionsOf(companyId: string, member: StoredMembership): Promise<PermissionName[]> {
  const own = permissionList(member.permissions);
  if (typeof member.roleId !== 'string') return own;
  const role = (await listRoles(companyId)).find((r) => r._id === member.roleId);
  return [...new Set([...own, ...permissionList(role?.permissions)])];
}

async function rolePermissions(companyId: string, roleId: string | undefined): Promise<PermissionName[]> {
  if (!roleId) return [];
  const role = (await listRoles(companyId)).find((r) => r._id === roleId);
  if (!role) throw formError({ roleId: 'No such role in this company' });
  return permissionList(role.permissions);
}

async function viewOf(
  companyId: string,
  member: StoredMembership,
  roles?: StoredRole[],
): Promise<CompanyUser> {
  const all = roles ?? (await listRoles(companyId));
  const role = all.find((r) => r._id === member.roleId);
  return {
    _id: member._id,
    userSub: member._id,
    companyId,
    email: member.email,
    name: member.name,
    roleId: member.roleId ?? null,
    role: role ? { _id: role._id, name: role.name } : null,
    permissions: permissionList(member.permissions),
    grants: member.grants,
    createdAt: member.createdAt,
    updatedAt: member.updatedAt,
  };
}

async function loadMember(companyId: string, sub: string | undefined): Promise<StoredMembership> {
  const member = sub ? await getMembership(companyId, sub) : undefined;
  if (!member) throw notFound();
  return member;
}

/** Owners are changed only by owners and staff, so an administrator cannot lock the owner out. */
async function assertMayChange(ctx: OpContext, companyId: string, member: StoredMembership): Promise<void> {
  if (ctx.caller.isAdmin || ctx.caller.permissions.includes('company_owner')) return;
  if ((await permissionsOf(companyId, member)).includes('company_owner')) {
    throw forbidden('Only a company owner can change an owner');
  }
}

const list = operation({}, async (ctx): Promise<OpResult> => {
  const { companyId } = target(ctx);
  const [members, roles] = await Promise.all([listMemberships(companyId), listRoles(companyId)]);
  const data = await Promise.all(members.map((m) => viewOf(companyId, m, roles)));
  return { body: { data, total: data.length, limit: data.length, skip: 0 } };
});

const get = operation({}, async (ctx): Promise<OpResult> => {
  const { companyId, sub } = target(ctx);
  return { body: await viewOf(companyId, await loadMember(companyId, sub)) };
});

/** The identity provider's code, with its one-time-password library, loads with the first call that needs it. */
const identityProvider = async () => (await import('../core/adapters/identity.ts')).identityProvider();

/**
 * A user's schemas, in zod's full build, load on the first write of a user, not when the function starts:
 * most of its calls read users and the company.
 */
const bodies = async () => (await import('./company-user-bodies.ts')).companyUserBodies;

const create = operation({}, async (ctx): Promise<OpResult> => {
  const { companyId } = target(ctx);
  const input = parseOrThrow((await bodies()).create, ctx.body);
  if (!(await getCompany(companyId))) throw notFound();
  assertAssignable(ctx.caller, [...input.permissions, ...(await rolePermissions(companyId, input.roleId))]);
  await refuseUnknownRefs(companyId, { grants: input.grants });
  const { identity } = await (await identityProvider()).createUser({ email: input.email, name: input.name });
  if (await getMembership(companyId, identity.sub)) {
    throw conflict('This person is already a user of the company');
  }
  const now = new Date().toISOString();
  const member: StoredMembership = {
    _id: identity.sub,
    companyId,
    email: identity.email,
    name: input.name,
    ...(input.roleId ? { roleId: input.roleId } : {}),
    permissions: input.permissions,
    grants: input.grants,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await putMembership(companyId, member);
  await joinCompany({ sub: identity.sub, email: identity.email, name: input.name }, companyId);
  await writeActivity(inCompany(ctx.caller, companyId), {
    type: 'create',
    model: 'users',
    modelId: identity.sub,
    message: `${identity.email} added`,
  });
  if (input.sendWelcomeEmail) await sendWelcome(ctx, companyId, member);
  return { status: 201, body: await viewOf(companyId, member) };
});

const update = operation({}, async (ctx): Promise<OpResult> => {
  const { companyId, sub } = target(ctx);
  const member = await loadMember(companyId, sub);
  const patch = parseOrThrow((await bodies()).update, ctx.body);
  await assertMayChange(ctx, companyId, member);
  const changes = sentFields(patch, ctx.body);
  if (changes.grants !== undefined)
    await refuseUnknownRefs(companyId, { grants: changes.grants }, { grants: member.grants });
  // Applied to the member as stored when written: a concurrent change of other fields stays, and a member
  // removed meanwhile is not written back.
  const next = await changeMembership(companyId, member._id, async (current) => {
    if ('permissions' in changes || 'roleId' in changes) {
      const roleId = 'roleId' in changes ? (patch.roleId ?? undefined) : current.roleId;
      assertAssignable(ctx.caller, [
        ...(patch.permissions ?? permissionList(current.permissions)),
        ...(await rolePermissions(companyId, roleId)),
      ]);
    }
    const { roleId, ...rest } = changes;
    const out: StoredMembership = { ...current, ...rest, updatedAt: new Date().toISOString() };
    if (roleId === null) delete out.roleId;
    else if (roleId !== undefined) out.roleId = roleId;
    return out;
  });
  if (!next) throw notFound();
  forgetCaller(member._id);
  await writeActivity(inCompany(ctx.caller, companyId), {
    type: 'update',
    model: 'users',
    modelId: member._id,
    message: `Changed: ${Object.keys(changes).join(', ') || 'nothing'}`,
  });
  return { body: await viewOf(companyId, next) };
});

const remove = operation({}, async (ctx): Promise<OpResult> => {
  const { companyId, sub } = target(ctx);
  const member = await loadMember(companyId, sub);
  if (member._id === ctx.caller.sub) throw badRequest('You cannot remove yourself from the company');
  await assertMayChange(ctx, companyId, member);
  await deleteMembership(companyId, member._id);
  await leaveCompany(member._id, companyId);
  await revokeApiAccess(member._id, companyId);
  forgetCaller(member._id);
  await closeConnectionsOf(companyId, member._id, ctx.log);
  await writeActivity(inCompany(ctx.caller, companyId), {
    type: 'delete',
    model: 'users',
    modelId: member._id,
    message: `${String(member.email)} removed`,
  });
  return { status: 204 };
});

/** Long, random, and with every character class Cognito's password policy asks for. */
function temporaryPassword(): string {
  return `${randomBytes(12).toString('base64url')}-Vf7`;
}

/**
 * A sign-in account can belong to several companies (and to staff), so one company's administrator may
 * reset the password only of someone who belongs to that company alone; staff may reset anyone's.
 * Everyone else is welcomed without touching the password they already use.
 */
async function mayResetPassword(caller: Caller, companyId: string, sub: string): Promise<boolean> {
  if (caller.isAdmin) return true;
  const profile = await getProfile(sub);
  if (!profile || profile.isAdmin) return false;
  return profile.companyIds.every((id) => id === companyId);
}

interface WelcomeSent {
  to: string;
  temporaryPassword: boolean;
}

async function sendWelcome(
  ctx: OpContext,
  companyId: string,
  member: StoredMembership,
  resetAllowed = true,
): Promise<WelcomeSent> {
  const provider = await identityProvider();
  const identity = await provider.findBySub(member._id);
  if (!identity) throw notFound('No sign-in account for this user');
  const company = await getCompany(companyId);
  const reset = resetAllowed && (await mayResetPassword(ctx.caller, companyId, member._id));
  const password = reset ? temporaryPassword() : undefined;
  if (password) await provider.setTemporaryPassword(identity, password);
  const { appUrl } = mailConfig();
  const companyName = typeof company?.name === 'string' ? company.name : 'your company';
  const signIn = password
    ? [
        `Sign in${appUrl ? ` at ${appUrl}` : ''} with:`,
        `  E-mail: ${identity.email}`,
        `  Temporary password: ${password}`,
        '',
        provider.kind === 'cognito'
          ? 'You will be asked to choose your own password when you first sign in. The temporary one expires in 3 days.'
          : 'Please keep this password to yourself.',
      ]
    : [
        `Sign in${appUrl ? ` at ${appUrl}` : ''} with ${identity.email} and the password you already use for Voltfolio,`,
        `then choose ${companyName} from your companies.`,
      ];
  // The mailer loads with the first welcome: the session and companies functions start without it.
  const { mailer } = await import('../core/adapters/mailer.ts');
  await mailer().send({
    to: identity.email,
    subject: `Welcome to Voltfolio, ${String(member.name)}`,
    text: [
      `Hello ${String(member.name)},`,
      '',
      `${ctx.caller.name ?? 'Your administrator'} has given you access to ${companyName} on Voltfolio.`,
      '',
      ...signIn,
      '',
      'Voltfolio',
    ].join('\n'),
  });
  await writeActivity(inCompany(ctx.caller, companyId), {
    type: 'welcome-email',
    model: 'users',
    modelId: member._id,
    message: `Welcome e-mail sent to ${identity.email}${password ? ' with a temporary password' : ''}`,
  });
  return { to: identity.email, temporaryPassword: password !== undefined };
}

/**
 * POST .../welcome-email sends the welcome again, with a fresh temporary password where the caller may
 * reset it. The GET of the specification's client sends it without touching the password, so a call
 * that must not change anything never locks anyone out. Either way an owner is welcomed only by owners
 * and staff, as for every other change to an owner.
 */
const welcomeEmail = operation({}, async (ctx): Promise<OpResult> => {
  const { companyId, sub } = target(ctx);
  const member = await loadMember(companyId, sub);
  await assertMayChange(ctx, companyId, member);
  const sent = await sendWelcome(ctx, companyId, member, ctx.route.method === 'POST');
  return { body: { sent: true, ...sent } satisfies WelcomeSentView };
});

export const COMPANY_USER_OPERATIONS: Operations = {
  'companyUsers.list': list,
  'companyUsers.get': get,
  'companyUsers.create': create,
  'companyUsers.update': update,
  'companyUsers.delete': remove,
  'companyUsers.welcomeEmail': welcomeEmail,
};
