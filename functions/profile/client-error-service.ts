import * as z from 'zod/mini';
import { REQUIRED_MESSAGE } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { takeCall } from '../core/access/credential-repository.ts';
import { putItem } from '../core/data/item-repository.ts';
import { tooManyRequests } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { logsRef } from './profile-repository.ts';

/** Enough for any person's real errors; a page stuck in a loop cannot fill the log. */
export const CLIENT_ERRORS_PER_MINUTE = 30;

const reportSchema = onFirstUse(() =>
  z.object({
    kind: z._default(z.enum(['error', 'unhandledrejection', 'render']), 'error'),
    message: z.string().check(z.trim(), z.minLength(1, REQUIRED_MESSAGE), z.maxLength(2000)),
    stack: z.optional(z.string().check(z.maxLength(8000))),
    url: z.optional(z.string().check(z.maxLength(2000))),
    release: z.optional(z.string().check(z.maxLength(50))),
  }),
);

/**
 * POST /client-errors: an error a browser met, kept in the company's log as type 'client-error' with
 * who met it, where, and in which release. At most 30 a minute per user and company.
 */
const report = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(reportSchema, ctx.body);
  const { sub, companyId } = ctx.caller;
  const nowMs = Date.now();
  const minute = Math.floor(nowMs / 60_000);
  const allowed = await takeCall(
    `client-errors#${sub}#${companyId}`,
    `m#${minute}`,
    CLIENT_ERRORS_PER_MINUTE,
    (minute + 2) * 60,
  );
  if (!allowed) throw tooManyRequests(Math.max(1, Math.ceil(((minute + 1) * 60_000 - nowMs) / 1000)));
  const now = new Date(nowMs).toISOString();
  const userAgent = (ctx.headers['user-agent'] ?? ctx.headers['User-Agent'])?.slice(0, 500);
  const item = {
    _id: newId(),
    companyId,
    type: 'client-error',
    model: 'client',
    userSub: sub,
    userName: ctx.caller.name,
    ...body,
    ...(userAgent ? { userAgent } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await putItem(logsRef(companyId), item);
  ctx.log.warn('client error', { logId: item._id, kind: body.kind, message: body.message, url: body.url });
  return { status: 202, body: { _id: item._id } };
});

export const CLIENT_ERROR_OPERATIONS: Operations = { 'clientErrors.report': report };
