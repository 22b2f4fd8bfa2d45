import * as z from 'zod/mini';
import { REQUIRED_MESSAGE } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { deletePendingTotp, getPendingTotp, putPendingTotp } from '../core/access/credential-repository.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import type { Identity, IdentityProvider } from '../core/adapters/identity.ts';
import { conflict, formError, notFound } from '../core/lib/errors.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { AnyOpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';

const ISSUER = 'Voltfolio';
/** Long enough to scan a code and type one; a started enrolment is forgotten after it. */
const PENDING_SECONDS = 10 * 60;

/**
 * The identity provider's code, with its one-time-password library (~25 KB), loads with the first
 * authenticator-app call: the session function's frequent calls (who am I, the profile) never need it.
 */
const identityProvider = async (): Promise<IdentityProvider> =>
  (await import('../core/adapters/identity.ts')).identityProvider();

async function identityOf(ctx: AnyOpContext): Promise<Identity> {
  const identity = await (await identityProvider()).findBySub(ctx.caller.sub);
  if (!identity) throw notFound('No sign-in account for this user');
  return identity;
}

/** Cognito's own enrolment calls act on the user's access token, which the request carries. */
function accessToken(ctx: AnyOpContext): string | undefined {
  const value = ctx.headers.authorization ?? ctx.headers.Authorization;
  return value ? /^Bearer\s+(\S+)$/i.exec(value)?.[1] : undefined;
}

const mfaStatus = operation({}, async (ctx): Promise<OpResult> => {
  const identity = await identityOf(ctx);
  return { body: { totp: { enabled: await (await identityProvider()).totpEnabled(identity) } } };
});

/** Starts enrolment: a new secret for the authenticator app, pending until a code from it is confirmed. */
const totpStart = operation({}, async (ctx): Promise<OpResult> => {
  const identity = await identityOf(ctx);
  const provider = await identityProvider();
  if (await provider.totpEnabled(identity)) {
    throw conflict('An authenticator app is already set up. Remove it before adding another.');
  }
  const { secret, keptByProvider } = await provider.startTotp(identity, accessToken(ctx));
  if (!keptByProvider) await putPendingTotp(identity.sub, secret, PENDING_SECONDS);
  const { generateURI } = await import('otplib');
  return {
    status: 201,
    body: { secret, otpauthUri: generateURI({ issuer: ISSUER, label: identity.email, secret }) },
    headers: { 'cache-control': 'no-store' },
  };
});

const WRONG_CODE = 'That code is not right. Enter the code your app shows now.';
const codeBody = onFirstUse(() =>
  z.object({ code: z.string().check(z.trim(), z.minLength(1, REQUIRED_MESSAGE)) }),
);

const totpVerify = operation({}, async (ctx): Promise<OpResult> => {
  const { code } = parseOrThrow(codeBody, ctx.body ?? {});
  const identity = await identityOf(ctx);
  const pending = await getPendingTotp(identity.sub);
  const ok = await (await identityProvider()).confirmTotp(identity, code, pending, accessToken(ctx));
  if (!ok) throw formError({ code: WRONG_CODE });
  await deletePendingTotp(identity.sub);
  await writeActivity(ctx.caller, { type: 'mfa-enabled', model: 'users', modelId: ctx.caller.sub });
  return { body: { totp: { enabled: true } } };
});

/** Removing the app takes a code from it, so someone at an unattended session cannot take the factor off. */
const totpDisable = operation({}, async (ctx): Promise<OpResult> => {
  const { code } = parseOrThrow(codeBody, ctx.body ?? {});
  const identity = await identityOf(ctx);
  const provider = await identityProvider();
  if (await provider.totpEnabled(identity)) {
    if (!(await provider.disableTotp(identity, code, accessToken(ctx))))
      throw formError({ code: WRONG_CODE });
    await writeActivity(ctx.caller, { type: 'mfa-disabled', model: 'users', modelId: ctx.caller.sub });
  }
  await deletePendingTotp(identity.sub);
  return { body: { totp: { enabled: false } } };
});

export const MFA_OPERATIONS: Operations = { mfaStatus, totpStart, totpVerify, totpDisable };
