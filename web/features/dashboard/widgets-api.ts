import useSWR, { useSWRConfig } from 'swr';
import type {
  DashboardData,
  DashboardWidget,
  WidgetData,
  WidgetPeriod,
  WidgetType,
} from '../../../shared/schemas/dashboard-widgets.ts';
import { useEndpoint } from '../../lib/endpoint.ts';
import { placed } from './widget-order.ts';

export const dashboardKeys = {
  home: '/users/me/dashboard-data',
  widgetData: (dashboardId: string, widgetId: string) =>
    `/dashboards/${dashboardId}/widgets/${widgetId}/data`,
} as const;

const isWidgetData = (dashboardId: string) => (key: string) => key.startsWith(`/dashboards/${dashboardId}/`);

/** The caller's home dashboard and its widgets in order (made by the server on the first visit). */
export const useDashboardData = () => useSWR<DashboardData>(dashboardKeys.home);

export const useWidgetData = (dashboardId: string, widgetId: string) =>
  useSWR<WidgetData>(dashboardKeys.widgetData(dashboardId, widgetId));

/** What the widget editor sets. */
export interface WidgetChoice {
  title: string;
  type: WidgetType;
  period: WidgetPeriod;
}

const settingsOf = (choice: WidgetChoice, before?: DashboardWidget['settings']) => ({
  ...before,
  type: choice.type,
  customData: { ...before?.customData, title: choice.title, period: choice.period },
});

/** Adds a widget at the end of the dashboard. */
export const useAddWidget = () =>
  useEndpoint(
    (api, dashboardId: string, choice: WidgetChoice, place: number) =>
      api.post<DashboardWidget>('/widgets', {
        dashboardId,
        position: { x: 0, y: place, w: 1, h: 1 },
        settings: settingsOf(choice),
      }),
    () => [dashboardKeys.home],
  );

/** Changes a widget's title, type or period; its figures are read again. */
export const useUpdateWidget = () =>
  useEndpoint(
    (api, widget: DashboardWidget, choice: WidgetChoice) =>
      api.patch<DashboardWidget>(`/widgets/${widget._id}`, { settings: settingsOf(choice, widget.settings) }),
    (_r, [widget]) => [dashboardKeys.home, dashboardKeys.widgetData(widget.dashboardId, widget._id)],
  );

export const useRemoveWidget = () =>
  useEndpoint(
    (api, widget: DashboardWidget) => api.del<DashboardWidget>(`/widgets/${widget._id}`),
    (_r, [widget]) => [dashboardKeys.home, isWidgetData(widget.dashboardId)],
  );

/**
 * Saves a new order: the dashboard shows it at once, and each widget whose place changed is saved; the
 * dashboard is read again afterwards so a failed save does not leave a false order on screen.
 */
export function useSaveOrder() {
  const { mutate } = useSWRConfig();
  const save = useEndpoint(
    async (api, changed: DashboardWidget[]) => {
      await Promise.all(changed.map((w) => api.patch(`/widgets/${w._id}`, { position: w.position })));
    },
    () => [dashboardKeys.home],
  );
  return async (data: DashboardData, order: DashboardWidget[]) => {
    const { widgets, changed } = placed(order);
    if (changed.length === 0) return;
    await mutate(dashboardKeys.home, { ...data, widgets }, { revalidate: false });
    await save(changed);
  };
}
