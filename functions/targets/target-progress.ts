import type { Caller } from '../../shared/access/caller.ts';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { findResource } from '../../shared/system/resources.ts';
import {
  type Evaluation,
  evaluateTarget,
  type SiteYears,
  type TargetStatus,
} from '../../shared/targets/target-maths.ts';
import { siteYearsOf } from '../analytics/index.ts';
import { getCompany } from '../company/index.ts';
import { memberCaller } from '../core/access/caller-service.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import { listMemberships } from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import { ApiError } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import type { OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { putNotifications } from '../notifications/index.ts';
import { mayReachScope, readableTargets } from './target-access.ts';
import { changeTarget, type StoredTarget } from './target-repository.ts';
import { scopeNames } from './target-scopes.ts';

/** The sites the dashboard names as making the gap. */
const TOP_CONTRIBUTORS = 5;

const askOf = (t: StoredTarget) =>
  t.scope === 'entity'
    ? { entityId: t.scopeId }
    : t.scope === 'portfolio'
      ? { assetGroupId: t.scopeId }
      : t.scope === 'site'
        ? { assetId: t.scopeId }
        : {};

const empty = (t: StoredTarget, status: TargetStatus, note: string) => ({
  ...evaluateTarget(t, [], new Date().toISOString().slice(0, 10)),
  status,
  note,
});

/** The yearly figures of each scope, read once for all the targets on it in one request or run. */
export type ScopeFigures = Map<string, Promise<SiteYears[]>>;

/** Reads the figures of every scope the targets cover, each once, over the years any of its targets needs. */
export function scopeFiguresFor(caller: Caller, targets: readonly StoredTarget[]): ScopeFigures {
  const thisYear = new Date().getUTCFullYear();
  const spans = new Map<string, { t: StoredTarget; from: number; to: number }>();
  for (const t of targets) {
    const key = `${t.scope}:${t.scopeId ?? ''}`;
    const to = Math.max(Math.min(thisYear, t.targetYear), t.baselineYear);
    const span = spans.get(key);
    spans.set(key, {
      t,
      from: Math.min(span?.from ?? t.baselineYear, t.baselineYear),
      to: Math.max(span?.to ?? to, to),
    });
  }
  return new Map(
    [...spans].map(([key, span]) => {
      const read = siteYearsOf(caller, askOf(span.t), span.from, span.to);
      // Awaited by evaluate, which turns a scope that is gone into "no data"; not an unhandled rejection here.
      read.catch(() => undefined);
      return [key, read];
    }),
  );
}

/**
 * A target judged now, from the analytics of its scope as the caller may count them (a caller who may
 * read a scope counts all of it, so the answer is the same for every reader).
 */
export async function evaluate(
  t: StoredTarget,
  figures: ScopeFigures,
  hideCosts: boolean,
): Promise<Evaluation & { note?: string }> {
  if (t.measure === 'cost' && hideCosts) return empty(t, 'no-data', 'Cost data is hidden for this company');
  const today = new Date().toISOString().slice(0, 10);
  try {
    const sites = (await figures.get(`${t.scope}:${t.scopeId ?? ''}`)) ?? [];
    return evaluateTarget(t, sites, today);
  } catch (err) {
    // A portfolio emptied of sites, or a scope gone since: nothing to measure.
    if (err instanceof ApiError && err.status === 404) return empty(t, 'no-data', 'The scope has no sites');
    throw err;
  }
}

/** The members who may read a target's scope, as callers. */
async function readersOf(t: StoredTarget): Promise<Caller[]> {
  const [memberships, roles] = await Promise.all([listMemberships(t.companyId), listRoles(t.companyId)]);
  const read = findResource('targets')?.read ?? [];
  const resolver = new LineageResolver(t.companyId);
  const out: Caller[] = [];
  for (const m of memberships) {
    if (m.deleted === true) continue;
    const member = memberCaller(t.companyId, m._id, m, roles);
    if (canUseRoute(read, member) && (await mayReachScope(member, t, 'read', resolver))) out.push(member);
  }
  return out;
}

function offTrackMessage(t: StoredTarget, e: Evaluation, scopeName: string | undefined): string {
  const p = e.progress;
  const figures = p
    ? `: ${Math.round(p.actual).toLocaleString('en-GB')} ${e.unit} in ${p.year} against ${Math.round(p.expected).toLocaleString('en-GB')} on its path (${p.gapPercent.toFixed(1)}% over)`
    : '';
  return `Target "${t.name}"${scopeName ? ` for ${scopeName}` : ''} is off track${figures}.`;
}

/**
 * Records a target's newly worked-out status; when it has just gone off track, tells everyone who may
 * read its scope, once. The status is written on condition that it is still the one read, so two
 * dashboards computing at once tell people once between them.
 */
export async function recordStatus(
  t: StoredTarget,
  e: Evaluation,
  scopeName: string | undefined,
  log: Logger,
): Promise<boolean> {
  if (e.status === t.lastStatus) return false;
  const seen = t.lastStatus;
  const changed = await changeTarget(t.companyId, t._id, (current) =>
    current.deleted === true || current.lastStatus !== seen || current.updatedAt !== t.updatedAt
      ? undefined
      : { ...current, lastStatus: e.status, lastStatusAt: new Date().toISOString() },
  );
  if (!changed?.written || e.status !== 'off-track') return false;
  const readers = await readersOf(t);
  const now = new Date().toISOString();
  const content = offTrackMessage(t, e, scopeName);
  await putNotifications(
    t.companyId,
    readers.map((m) => ({
      _id: newId(),
      companyId: t.companyId,
      userSub: m.sub,
      content,
      route: '/targets/dashboard',
      icon: 'alert-triangle',
      isSeen: false,
      kind: 'target-off-track',
      targetId: t._id,
      createdAt: now,
      updatedAt: now,
      createdBy: 'system',
    })),
  );
  log.info('target off track', { targetId: t._id, notified: readers.length });
  return true;
}

/**
 * GET /targets/progress: every target the caller may read, judged against its path, with the sites that
 * make most of its gap. Computing it is also when a change of status is noticed and told.
 */
export const progressOperation = operation({}, async (ctx): Promise<OpResult> => {
  const targets = await readableTargets(ctx.caller);
  const company = await getCompany(ctx.caller.companyId);
  const hideCosts = company?.settings?.hideCostData === true;
  const names = await scopeNames(ctx.caller.companyId, targets);
  const figures = scopeFiguresFor(ctx.caller, targets);
  const data = [];
  for (const t of targets) {
    const e = await evaluate(t, figures, hideCosts);
    await recordStatus(t, e, names.get(t._id), ctx.log);
    const { lastStatusAt: _a, ...target } = t;
    data.push({
      target: { ...target, scopeName: names.get(t._id) },
      ...e,
      contributions: e.contributions.slice(0, TOP_CONTRIBUTORS),
    });
  }
  return { body: { data, total: data.length } };
});
