import * as z from 'zod';
import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { type TargetFields, targetFields, targetInputSchema } from '../../shared/schemas/targets.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { forbidden, formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { applyPatch } from '../core/lib/item-patch.ts';
import { parseOrThrow, throwIfOversized } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { mayReachScope, type ScopeRef } from './target-access.ts';
import { loadTarget, present, TARGET_READ_OPERATIONS } from './target-reads.ts';
import { changeTarget, putNewTarget, type StoredTarget } from './target-repository.ts';

/** A target's fields one by one, as a change names them (the module loads with the first target write). */
const targetSchema = targetFields();

const MAX_BULK = 50;

const SCOPE_WORDS: Record<string, string> = { entity: 'entity', portfolio: 'portfolio', site: 'site' };

/**
 * The caller may change what the target covers: a scope they cannot see is not named to them (a form
 * message, as for any unknown id), one they see but may not change is 403.
 */
async function requireScope(caller: Caller, ref: ScopeRef, field = 'scopeId'): Promise<void> {
  const resolver = new LineageResolver(caller.companyId, caller);
  if (ref.scope === 'company') {
    if (!isCompanyWide(caller)) throw forbidden('Only people who see the whole company may set its targets');
    return;
  }
  if (!(await mayReachScope(caller, ref, 'read', resolver)))
    throw formError({ [field]: `No such ${SCOPE_WORDS[ref.scope] ?? 'item'}` });
  if (!(await mayReachScope(caller, ref, 'write', resolver))) throw forbidden();
}

/** Only the company scope stands without an id; an id sent with it means nothing and is dropped. */
function normalised<T extends Partial<TargetFields>>(fields: T): T {
  if (fields.scope !== 'company') return fields;
  const { scopeId: _s, ...rest } = fields;
  return rest as T;
}

function newTarget(caller: Caller, data: TargetFields): StoredTarget {
  const now = new Date().toISOString();
  return {
    ...normalised(data),
    _id: newId(),
    companyId: caller.companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
}

const create = operation({}, async (ctx): Promise<OpResult> => {
  const data = parseOrThrow(targetInputSchema, ctx.body);
  await requireScope(ctx.caller, data);
  const target = newTarget(ctx.caller, data);
  throwIfOversized(target);
  await putNewTarget(target);
  await writeActivity(ctx.caller, { type: 'create', model: 'targets', modelId: target._id });
  return { status: 201, body: present(target) };
});

/** POST /targets/bulk: every target is checked, and its scope, before any is written. */
const bulk = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(z.array(z.unknown()).min(1).max(MAX_BULK), ctx.body);
  const parsed = body.map((entry, i) => {
    const result = targetInputSchema.safeParse(entry);
    if (!result.success) {
      const first = result.error.issues[0];
      throw formError({ [[i, ...(first?.path ?? [])].map(String).join('.')]: first?.message ?? 'Invalid' });
    }
    return result.data;
  });
  for (const [i, data] of parsed.entries()) await requireScope(ctx.caller, data, `${i}.scopeId`);
  const targets = parsed.map((data) => newTarget(ctx.caller, data));
  for (const t of targets) await putNewTarget(t);
  await writeActivity(ctx.caller, {
    type: 'bulk-create',
    model: 'targets',
    message: `${targets.length} created`,
  });
  return { status: 201, body: { data: targets.map((t) => present(t)), total: targets.length } };
});

/** The terms a status was judged on: changing one of them makes the next judgement a new one. */
const TERMS: readonly (keyof TargetFields)[] = [
  'scope',
  'scopeId',
  'measure',
  'emissionScope',
  'normalisation',
  'baselineYear',
  'baselineOverride',
  'targetYear',
  'reductionPercent',
  'milestones',
  'linearPath',
];

const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  await loadTarget(ctx.caller, ctx.params.id, 'write');
  const changed = await changeTarget(ctx.caller.companyId, ctx.params.id, async (current) => {
    if (current.deleted === true) throw notFound();
    const merged = normalised(applyPatch(current, targetSchema, ctx.body));
    parseOrThrow(targetInputSchema, merged);
    // Moving a target must not move it out of the caller's reach.
    if (merged.scope !== current.scope || merged.scopeId !== current.scopeId)
      await requireScope(ctx.caller, merged);
    const termsChanged = TERMS.some((k) => JSON.stringify(merged[k]) !== JSON.stringify(current[k]));
    const next: StoredTarget = { ...merged, updatedAt: new Date().toISOString() };
    if (termsChanged) {
      delete next.lastStatus;
      delete next.lastStatusAt;
    }
    throwIfOversized(next);
    return next;
  });
  if (!changed) throw notFound();
  await writeActivity(ctx.caller, { type: 'update', model: 'targets', modelId: ctx.params.id });
  return { body: present(changed.after) };
});

const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  await loadTarget(ctx.caller, ctx.params.id, 'write', true);
  const changed = await changeTarget(ctx.caller.companyId, ctx.params.id, (current) =>
    current.deleted === true
      ? undefined
      : { ...current, deleted: true, deletedAt: new Date().toISOString(), deletedBy: ctx.caller.sub },
  );
  if (!changed) throw notFound();
  if (changed.written)
    await writeActivity(ctx.caller, { type: 'delete', model: 'targets', modelId: ctx.params.id });
  return { body: present(changed.after) };
});

const restore = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  await loadTarget(ctx.caller, ctx.params.id, 'write', true);
  const changed = await changeTarget(ctx.caller.companyId, ctx.params.id, (current) => {
    const { deleted: _d, deletedAt: _a, deletedBy: _b, ...rest } = current;
    return { ...rest, updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  if (changed.before.deleted === true)
    await writeActivity(ctx.caller, { type: 'restore', model: 'targets', modelId: ctx.params.id });
  return { body: present(changed.after) };
});

export const TARGET_OPERATIONS: Operations = {
  ...TARGET_READ_OPERATIONS,
  'targets.create': create,
  'targets.bulk': bulk,
  'targets.update': update,
  'targets.delete': remove,
  'targets.restore': restore,
};
