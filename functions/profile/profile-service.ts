import * as z from 'zod/mini';
import { REQUIRED_MESSAGE } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { forgetCaller } from '../core/access/caller-service.ts';
import { changeProfile } from '../core/access/user-repository.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { membersRef } from './profile-repository.ts';

const detailsSchema = onFirstUse(() =>
  z.strictObject({
    name: z.optional(z.string().check(z.trim(), z.minLength(1, REQUIRED_MESSAGE), z.maxLength(100))),
    /** The interface language; null goes back to the browser's. */
    language: z.optional(z.nullable(z.enum(['en', 'fr']))),
  }),
);

/** The member records carry the name too, so company user lists show the new one. */
async function renameMemberships(sub: string, companyIds: readonly string[], name: string, now: string) {
  for (const companyId of companyIds) {
    const ref = membersRef(companyId);
    await changeItem(ref, sub, (member) =>
      member.name === name ? undefined : { ...member, name, updatedAt: now },
    );
  }
}

/** PATCH /users/me: the signed-in user changes their own name and interface language. */
const updateMe = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(detailsSchema, ctx.body ?? {});
  if (body.name === undefined && body.language === undefined) {
    throw formError({ name: 'This field is required' });
  }
  const now = new Date().toISOString();
  // Over the profile as stored when written: a sign-out at the same moment keeps its end of sessions.
  const profile = await changeProfile(ctx.caller.sub, (current) => {
    if (!current) return undefined;
    const settings = { ...(current.settings ?? {}) };
    if (body.language === null) delete settings.language;
    else if (body.language) settings.language = body.language;
    return { ...current, name: body.name ?? current.name, settings, updatedAt: now } as typeof current;
  });
  if (!profile) throw notFound();
  const { name } = profile;
  const settings = profile.settings ?? {};
  if (body.name !== undefined) await renameMemberships(profile.sub, profile.companyIds, name, now);
  forgetCaller(ctx.caller.sub);
  await writeActivity(ctx.caller, {
    type: 'update',
    model: 'users',
    modelId: ctx.caller.sub,
    message: 'Own details',
  });
  return { body: { _id: profile.sub, sub: profile.sub, name, email: profile.email, settings } };
});

export const PROFILE_OPERATIONS: Operations = { 'profile.update': updateMe };
