import type { Caller } from '../../shared/access/caller.ts';
import {
  type DashboardData,
  DEFAULT_WIDGETS,
  inDashboardOrder,
  WIDGET_TYPE_LABELS,
} from '../../shared/schemas/dashboard-widgets.ts';
import { getCompany } from '../company/index.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import {
  createDashboardIfAbsent,
  createWidgetIfAbsent,
  defaultWidgetId,
  getDashboard,
  homeDashboardId,
  widgetsOfDashboard,
} from './dashboard-repository.ts';

/** Whether the company hides cost data from its users (its settings' "hide cost data"). */
export async function hidesCostData(companyId: string): Promise<boolean> {
  return (await getCompany(companyId))?.settings?.hideCostData === true;
}

function stamped(caller: Caller, data: Record<string, unknown>, id: string, now: string): StoredItem {
  return {
    ...data,
    _id: id,
    companyId: caller.companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: caller.sub,
  };
}

/**
 * The caller's home dashboard, made on first use. Its id and its widgets' ids follow from the company and
 * the person, and each is written only if absent, so requests racing on a first visit all make the same
 * items and none twice. The widgets are written before the dashboard: whoever finds the dashboard finds
 * its widgets too.
 */
async function homeDashboard(caller: Caller): Promise<StoredItem> {
  const id = homeDashboardId(caller.companyId, caller.sub);
  const found = await getDashboard(caller.companyId, id);
  if (found) return found;
  const now = new Date().toISOString();
  await Promise.all(
    DEFAULT_WIDGETS.map((w, i) =>
      createWidgetIfAbsent(
        caller.companyId,
        stamped(
          caller,
          {
            dashboardId: id,
            position: { x: 0, y: i, w: 1, h: 1 },
            settings: { type: w.type, customData: { title: WIDGET_TYPE_LABELS[w.type], period: w.period } },
          },
          defaultWidgetId(id, i),
          now,
        ),
      ),
    ),
  );
  const dashboard = stamped(caller, { name: 'Home', period: 'last-12-months', userSub: caller.sub }, id, now);
  await createDashboardIfAbsent(caller.companyId, dashboard);
  return (await getDashboard(caller.companyId, id)) ?? dashboard;
}

/** GET /users/me/dashboard-data: the caller's home dashboard and its widgets in their order. */
const dashboardData = operation({}, async (ctx): Promise<OpResult> => {
  const [dashboard, hideCostData] = await Promise.all([
    homeDashboard(ctx.caller),
    hidesCostData(ctx.caller.companyId),
  ]);
  const widgets = inDashboardOrder(await widgetsOfDashboard(ctx.caller.companyId, dashboard._id));
  const body: DashboardData = {
    dashboard: {
      _id: dashboard._id,
      name: String(dashboard.name ?? 'Home'),
      ...(typeof dashboard.period === 'string' ? { period: dashboard.period } : {}),
    },
    widgets,
    hideCostData,
  };
  return { body };
});

export const DASHBOARD_HOME_OPERATIONS: Operations = {
  'dashboards.home': dashboardData,
};
