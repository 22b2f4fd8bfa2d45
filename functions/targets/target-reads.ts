import type { Caller } from '../../shared/access/caller.ts';
import { targetsListQuery } from '../../shared/schemas/queries.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import { forbidden, notFound } from '../core/lib/errors.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { mayReachScope, readableTargets } from './target-access.ts';
import { progressOperation } from './target-progress.ts';
import { findTarget, type StoredTarget } from './target-repository.ts';
import { scopeNames, scopesOperation } from './target-scopes.ts';

/** A live target whose scope the caller may read (else 404), or change (else 403). */
export async function loadTarget(
  caller: Caller,
  id: string,
  access: 'read' | 'write',
  includeDeleted = false,
): Promise<StoredTarget> {
  const target = await findTarget(caller.companyId, id);
  if (!target || (target.deleted === true && !includeDeleted)) throw notFound();
  const resolver = new LineageResolver(caller.companyId, caller);
  if (!(await mayReachScope(caller, target, 'read', resolver))) throw notFound();
  if (access === 'write' && !(await mayReachScope(caller, target, 'write', resolver))) throw forbidden();
  return target;
}

/** The fields a client sees: the stored status bookkeeping stays inside. */
export function present(t: StoredTarget, scopeName?: string) {
  const { lastStatusAt: _a, ...rest } = t;
  return { ...rest, ...(scopeName ? { scopeName } : {}) };
}

/** GET /targets (and /targets/search?query=): the targets the caller may read, by name. */
const list = operation({ query: targetsListQuery }, async (ctx): Promise<OpResult> => {
  const text = ctx.query.query.toLowerCase();
  const targets = (await readableTargets(ctx.caller)).filter(
    (t) => text === '' || t.name.toLowerCase().includes(text),
  );
  const names = await scopeNames(ctx.caller.companyId, targets);
  const data = targets.map((t) => present(t, names.get(t._id)));
  return { body: { data, total: data.length, limit: data.length, skip: 0 } };
});

const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const target = await loadTarget(ctx.caller, ctx.params.id, 'read');
  const names = await scopeNames(ctx.caller.companyId, [target]);
  return { body: present(target, names.get(target._id)) };
});

/**
 * The reads of the targets page (the list, a target, the scopes one may set, the progress figures): most of
 * the function's calls. Their writes load on the first call of one (target-service.ts).
 */
export const TARGET_READ_OPERATIONS: Operations = {
  'targets.list': list,
  'targets.get': get,
  'targets.scopes': scopesOperation,
  'targets.progress': progressOperation,
};
