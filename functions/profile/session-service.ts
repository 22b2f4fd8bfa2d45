import * as z from 'zod/mini';
import { derivePermissions, isEntityGroupUser } from '../../shared/access/route-access.ts';
import { idField } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { notificationsQuery } from '../../shared/schemas/queries.ts';
import type { Me, MyPermissions } from '../../shared/schemas/responses/session.ts';
import { getCompany, type StoredCompany } from '../company/index.ts';
import { forgetCaller } from '../core/access/caller-service.ts';
import {
  endSessions,
  getMembership,
  getProfile,
  listRoles,
  setCurrentCompany,
} from '../core/access/user-repository.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { closeConnectionsOf } from '../core/adapters/live.ts';
import { presignGet } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { bumpAccessVersion } from '../core/data/access-version.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { getItem, listItems, type StoredItem } from '../core/data/item-repository.ts';
import { notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { AnyOpContext, OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { featuresOff, listCompanies } from '../staff-tools/index.ts';
import { apiKeySummary } from './api-access-service.ts';
import { notificationsRef as companyNotificationsRef } from './profile-repository.ts';

/** 'admin' comes from the staff flag alone: a membership that names it does not make anyone staff. */
function effectivePermissions(ctx: AnyOpContext): string[] {
  const held = derivePermissions(ctx.caller.permissions, ctx.caller.grants);
  if (ctx.caller.isAdmin) held.add('admin');
  else held.delete('admin');
  return [...held].sort();
}

/** A machine has no profile: it is described by its credential. */
function machineSelf(ctx: AnyOpContext): OpResult {
  return {
    body: {
      _id: ctx.caller.machineId,
      name: ctx.caller.name,
      isMachine: true,
      isAdmin: false,
      companyId: ctx.caller.companyId,
      permissions: effectivePermissions(ctx),
      roles: [],
      isEntityGroupUser: false,
      role: null,
      apiKey: null,
    },
  };
}

const me = operation({}, async (ctx): Promise<OpResult> => {
  if (ctx.caller.kind === 'machine') return machineSelf(ctx);
  const profile = await getProfile(ctx.caller.sub);
  if (!profile) throw notFound();
  const membership = await getMembership(ctx.caller.companyId, ctx.caller.sub);
  const roleId = typeof membership?.roleId === 'string' ? membership.roleId : undefined;
  const role = roleId ? (await listRoles(ctx.caller.companyId)).find((r) => r._id === roleId) : undefined;
  return {
    body: {
      _id: profile.sub,
      sub: profile.sub,
      name: profile.name,
      email: profile.email,
      picture: profile.picture,
      settings: profile.settings ?? {},
      isAdmin: profile.isAdmin,
      companyId: ctx.caller.companyId,
      entityId: membership?.entityId,
      companies: profile.companyIds,
      // Staff looking into a company they are not a member of (01 §6: admins pass every route).
      staffView: profile.isAdmin === true && !profile.companyIds.includes(ctx.caller.companyId),
      roles: ctx.caller.roles,
      // Decided here once, by the shared rule, so the browser need not repeat it (01 §6).
      isEntityGroupUser: isEntityGroupUser(ctx.caller.roles),
      permissions: effectivePermissions(ctx),
      role: role ? { _id: role._id, name: role.name } : null,
      // Only whether a key exists: the key itself is shown once, when it is made.
      apiKey: await apiKeySummary(ctx.caller.sub, ctx.caller.companyId),
    } satisfies Me,
  };
});

/** The stored logo is private; the answer carries a link to it that works for an hour. */
async function withLogoUrl(found: StoredCompany): Promise<StoredCompany> {
  const settings = found.settings ?? {};
  if (typeof settings.logoKey !== 'string') return found;
  const logoUrl = await presignGet(bucketName('documents'), settings.logoKey, 3600);
  return { ...found, settings: { ...settings, logoUrl } };
}

const myCompany = operation({}, async (ctx): Promise<OpResult> => {
  const found = await getCompany(ctx.caller.companyId);
  if (!found) throw notFound();
  // Pages hide what staff turned off (the capture address while e-mail capture is off).
  const [view, off] = await Promise.all([withLogoUrl(found), featuresOff()]);
  return { body: { ...view, featuresOff: off } };
});

const myPermissions = operation(
  {},
  async (ctx): Promise<OpResult> => ({
    body: {
      permissions: effectivePermissions(ctx),
      entities: ctx.caller.grants.entities,
      assets: ctx.caller.grants.assets,
      accounts: ctx.caller.grants.accounts,
    } satisfies MyPermissions,
  }),
);

/**
 * The companies the caller may switch to: their memberships, and for staff every company, since staff
 * may look into any (01 §6), each such look logged in that company.
 */
const myCompanies = operation({}, async (ctx): Promise<OpResult> => {
  const profile = await getProfile(ctx.caller.sub);
  const companies: readonly ({ _id: string; name?: unknown; settings?: unknown } | undefined)[] =
    profile?.isAdmin === true
      ? await listCompanies()
      : await Promise.all((profile?.companyIds ?? []).map((id) => getCompany(id)));
  const data = companies
    .filter((c) => c !== undefined)
    .map((c) => ({ _id: c._id, name: c.name, settings: c.settings }));
  return { body: { data, total: data.length, limit: data.length, skip: 0 } };
});

function notificationsRef(ctx: Pick<OpContext, 'caller'>) {
  return companyNotificationsRef(ctx.caller.companyId);
}

/**
 * The caller's notifications, newest first. `isSeen=false` lists the unseen ones only, so the bell's
 * five latest unseen come from the server rather than from whatever page of the list was fetched.
 */
const myNotifications = operation({ query: notificationsQuery }, async (ctx): Promise<OpResult> => {
  const { isSeen, limit, skip } = ctx.query;
  const ref = notificationsRef(ctx);
  const mine = { userSub: ctx.caller.sub };
  const filters = isSeen === undefined ? mine : { ...mine, isSeen };
  const [page, unseen] = await Promise.all([
    listItems(ref, { filters, limit, skip, descending: true }),
    // Listing the unseen ones already counts them.
    isSeen === false ? undefined : listItems(ref, { filters: { ...mine, isSeen: false }, limit: 0, skip: 0 }),
  ]);
  const unseenCount = unseen ? unseen.total : page.total;
  return { body: { data: page.data, total: page.total, limit, skip, unseenCount } };
});

const seenBody = onFirstUse(() =>
  z.union([
    z.object({ id: idField() }),
    z.object({ ids: z.array(idField()).check(z.minLength(1), z.maxLength(1000)) }),
    z.object({ all: z.literal(true) }),
  ]),
);

/** Marks one, several or all of the caller's notifications seen (a click, or Dismiss All). */
const seenNotification = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(seenBody, ctx.body);
  const ref = notificationsRef(ctx);
  let targets: StoredItem[];
  if ('all' in body) {
    targets = (
      await listItems(ref, { filters: { userSub: ctx.caller.sub, isSeen: false }, limit: 10_000, skip: 0 })
    ).data;
  } else {
    const ids = 'id' in body ? [body.id] : body.ids;
    const found = await Promise.all(ids.map((id) => getItem(ref.pk, id)));
    targets = found.filter((n): n is StoredItem => n !== undefined && n.userSub === ctx.caller.sub);
    if ('id' in body && targets.length === 0) throw notFound();
  }
  const now = new Date().toISOString();
  for (const n of targets) {
    if (n.isSeen !== true)
      await changeItem(ref, n._id, (current) =>
        current.isSeen === true ? undefined : { ...current, isSeen: true, seenAt: now, updatedAt: now },
      );
  }
  return { body: { updated: targets.length } };
});

/**
 * DELETE /sessions: signing out ends every session of the person, not only the browser's: their access
 * tokens issued until now are refused (the time is kept on the profile and, like grants, cached per
 * access version, which this moves), and their live connections close.
 */
const endSession = operation({}, async (ctx): Promise<OpResult> => {
  await writeActivity(ctx.caller, { type: 'logout', model: 'sessions', modelId: ctx.caller.sub });
  await endSessions(ctx.caller.sub, Math.floor(Date.now() / 1000));
  await bumpAccessVersion(ctx.caller.companyId);
  forgetCaller(ctx.caller.sub);
  await closeConnectionsOf(ctx.caller.companyId, ctx.caller.sub, ctx.log);
  return { status: 204 };
});

const switchBody = onFirstUse(() => z.object({ companyId: idField() }));

/** Stores the chosen company for the user; the next request reads it (the client then re-authenticates). */
const switchCompany = operation({ params: ['userSub'] }, async (ctx): Promise<OpResult> => {
  const userSub = ctx.params.userSub;
  // Another person's record is not the caller's to see or change: as good as absent.
  if (userSub !== ctx.caller.sub && userSub !== 'me') throw notFound();
  const { companyId } = parseOrThrow(switchBody, ctx.body);
  const profile = await getProfile(ctx.caller.sub);
  if (!profile) throw notFound();
  const target = await getCompany(companyId);
  // Not a member (and not staff): the company is as good as absent.
  if (!target || (!profile.companyIds.includes(companyId) && !profile.isAdmin)) throw notFound();
  await setCurrentCompany(ctx.caller.sub, companyId);
  forgetCaller(ctx.caller.sub);
  const staffView = !profile.companyIds.includes(companyId);
  if (staffView) {
    // Staff looking into a company they are not a member of: the company's own log says who and when.
    await writeActivity(
      { ...ctx.caller, companyId },
      {
        type: 'staff-view',
        model: 'companies',
        modelId: companyId,
        message: `Staff (${profile.email ?? ctx.caller.sub}) began looking into ${String(target.name ?? companyId)}`,
      },
    );
  }
  return { body: { companyId, staffView } };
});

export const SESSION_OPERATIONS: Operations = {
  me,
  myCompany,
  myPermissions,
  myCompanies,
  myNotifications,
  seenNotification,
  endSession,
  switchCompany,
};
