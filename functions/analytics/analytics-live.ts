import { publishToCompany } from '../core/adapters/live.ts';
import { createLogger, type Logger } from '../core/lib/logger.ts';

/** What changed in a company's figures: which meter, site and months. Never the figures themselves. */
export interface FiguresChange {
  accountId: string;
  /** The site whose roll-ups took the change; absent for a sub-meter, which its parent's figures hold. */
  assetId?: string;
  /** The months (YYYY-MM) whose figures changed. */
  months: readonly string[];
}

export const ANALYTICS_CHANGED = 'analytics.changed';

let fallbackLog: Logger | undefined;

/**
 * The answers a change makes stale, as API paths: every analytics call (each browser asks again through
 * its own permissions, so nothing of the figures travels), the home dashboard and its widgets, the
 * site's own analytics and the meter's months.
 */
export function staleKeysOf(change: FiguresChange): string[] {
  return [
    '/analytics',
    '/users/me/dashboard-data',
    '/dashboards',
    `/accounts/${change.accountId}/consumption`,
    ...(change.assetId
      ? [`/assets/${change.assetId}/analytics`, `/assets/${change.assetId}/group-analytics`]
      : []),
  ];
}

/**
 * Tells the company's open pages that roll-ups changed, once they have: Insights and the home dashboard
 * fetch their figures again. A message that cannot be sent fails nothing, as pages still refresh on
 * their own.
 */
export async function announceFiguresChange(
  companyId: string,
  change: FiguresChange,
  log?: Logger,
): Promise<void> {
  if (change.months.length === 0) return;
  const months = [...change.months].sort();
  fallbackLog ??= createLogger({ area: 'analytics' });
  await publishToCompany(
    companyId,
    {
      type: ANALYTICS_CHANGED,
      keys: staleKeysOf(change),
      data: {
        accountId: change.accountId,
        ...(change.assetId ? { assetId: change.assetId } : {}),
        from: months[0],
        to: months[months.length - 1],
      },
    },
    log ?? fallbackLog,
  ).catch((err: unknown) =>
    (log ?? fallbackLog)?.warn('figures change not announced', { error: String(err) }),
  );
}

/** Tells a company's open pages that figures changed throughout: a restatement in another factor set. */
export async function announceCompanyFiguresChange(companyId: string, log: Logger): Promise<void> {
  await publishToCompany(
    companyId,
    { type: ANALYTICS_CHANGED, keys: ['/analytics', '/users/me/dashboard-data', '/dashboards'] },
    log,
  ).catch((err: unknown) => log.warn('figures change not announced', { error: String(err) }));
}
