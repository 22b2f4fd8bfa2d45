import * as z from 'zod/mini';
import { formatApiKey, publicPartOf } from '../../shared/access/credentials.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import {
  type ApiAccount,
  type ApiPlan,
  callsIn,
  deleteApiAccount,
  deleteApiKey,
  getApiAccount,
  putApiAccount,
  putApiKey,
} from '../core/access/credential-repository.ts';
import { apiRateScopes, forgetCredential, periodOf } from '../core/access/credential-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { forbidden } from '../core/lib/errors.ts';
import { digestOf, newSecret } from '../core/lib/secrets.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';

/** What a new API user may do: enough for a nightly sync, not enough to hurt anyone else. */
export const DEFAULT_API_PLAN: ApiPlan = { callsPerPeriod: 10_000, periodDays: 30, ratePerSecond: 5 };

/** Built on the first set-up, not when a function that revokes keys (company users) starts. */
const planSchema = onFirstUse(() =>
  z.strictObject({
    callsPerPeriod: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(100_000_000))),
    periodDays: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(366))),
    ratePerSecond: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(10_000))),
  }),
);

async function usageOf(account: ApiAccount | undefined) {
  if (!account) {
    return { enabled: false, plan: DEFAULT_API_PLAN, key: null, callsThisPeriod: 0 };
  }
  const period = periodOf(account);
  const calls = await callsIn(apiRateScopes.perPeriod(account.sub, account.companyId), `p#${period.index}`);
  return {
    enabled: true,
    plan: account.plan,
    key: account.keyPrefix ? { prefix: `vfk.${account.keyPrefix}`, createdAt: account.keyCreatedAt } : null,
    callsThisPeriod: calls,
    remaining: Math.max(0, account.plan.callsPerPeriod - calls),
    limits: { callsPerPeriod: account.plan.callsPerPeriod, ratePerSecond: account.plan.ratePerSecond },
    periodStart: period.start.toISOString(),
    resetsAt: period.resetsAt.toISOString(),
  };
}

async function ensureAccount(
  ctx: OpContext,
  plan?: Partial<ApiPlan>,
): Promise<{ account: ApiAccount; created: boolean }> {
  const existing = await getApiAccount(ctx.caller.sub, ctx.caller.companyId);
  if (existing && !plan) return { account: existing, created: false };
  const account: ApiAccount = {
    sub: ctx.caller.sub,
    companyId: ctx.caller.companyId,
    plan: { ...(existing?.plan ?? DEFAULT_API_PLAN), ...plan },
    periodAnchor: existing?.periodAnchor ?? new Date().toISOString(),
    keyPrefix: existing?.keyPrefix,
    keyCreatedAt: existing?.keyCreatedAt,
    createdAt: existing?.createdAt ?? new Date().toISOString(),
  };
  await putApiAccount(account);
  return { account, created: !existing };
}

/** Turns API access on for the caller in their current company. Only staff may change the limits. */
const apiSetup = operation({}, async (ctx): Promise<OpResult> => {
  const plan = parseOrThrow(planSchema, ctx.body ?? {});
  const changesPlan = Object.keys(plan).length > 0;
  if (changesPlan && !ctx.caller.isAdmin) throw forbidden('Only staff can change API limits');
  const { account, created } = await ensureAccount(ctx, changesPlan ? plan : undefined);
  if (created) {
    await writeActivity(ctx.caller, { type: 'api-setup', model: 'users', modelId: ctx.caller.sub });
  }
  if (account.keyPrefix) forgetCredential('apiKey', account.keyPrefix);
  return { status: created ? 201 : 200, body: await usageOf(account) };
});

/**
 * Issues a new key and revokes the previous one. The key is in this answer and nowhere else: only its
 * SHA-256 digest is stored, found by its public prefix.
 */
const apiKey = operation({}, async (ctx): Promise<OpResult> => {
  const { account } = await ensureAccount(ctx);
  const prefix = newSecret(9);
  const key = formatApiKey(prefix, newSecret(32));
  const now = new Date().toISOString();
  if (account.keyPrefix) {
    await deleteApiKey(account.keyPrefix);
    forgetCredential('apiKey', account.keyPrefix);
  }
  await putApiKey({
    prefix,
    digest: digestOf(key),
    sub: account.sub,
    companyId: account.companyId,
    createdAt: now,
  });
  const next = { ...account, keyPrefix: prefix, keyCreatedAt: now };
  await putApiAccount(next);
  await writeActivity(ctx.caller, {
    type: 'api-key',
    model: 'users',
    modelId: ctx.caller.sub,
    message: account.keyPrefix ? 'API key replaced' : 'API key issued',
  });
  return {
    status: 201,
    body: {
      key,
      prefix: publicPartOf({ prefix, secret: '' }),
      createdAt: now,
      plan: next.plan,
      message: 'Copy this key now: it is not shown again.',
    },
    headers: { 'cache-control': 'no-store' },
  };
});

const apiUsage = operation(
  {},
  async (ctx): Promise<OpResult> => ({
    body: await usageOf(await getApiAccount(ctx.caller.sub, ctx.caller.companyId)),
  }),
);

/** When someone leaves a company, their key for it stops working at once. */
export async function revokeApiAccess(sub: string, companyId: string): Promise<void> {
  const account = await getApiAccount(sub, companyId);
  if (!account) return;
  if (account.keyPrefix) {
    await deleteApiKey(account.keyPrefix);
    forgetCredential('apiKey', account.keyPrefix);
  }
  await deleteApiAccount(sub, companyId);
}

export async function apiKeySummary(sub: string, companyId: string) {
  const account = await getApiAccount(sub, companyId);
  return account?.keyPrefix ? { prefix: `vfk.${account.keyPrefix}`, createdAt: account.keyCreatedAt } : null;
}

export const API_ACCESS_OPERATIONS: Operations = { apiSetup, apiKey, apiUsage };
