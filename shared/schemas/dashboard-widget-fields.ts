import * as z from 'zod/mini';
import { WIDGET_PERIODS } from './dashboard-widgets.ts';
import { idField } from './mini-fields.ts';

/*
 * The schemas of the dashboard calls, in zod's small build (`zod/mini`) and apart from the widgets' names and
 * answers (dashboard-widgets.ts), which the pages read. Built when called: the functions keep each one from
 * its first use on, so that they do not build them at start.
 */

/** A widget's own settings beyond the spec's fields, kept in `settings.customData`. */
export const widgetCustomDataFields = () =>
  z.object({
    title: z.catch(z.optional(z.string().check(z.trim(), z.maxLength(80))), undefined),
    period: z.catch(z.optional(z.enum(WIDGET_PERIODS)), undefined),
  });
export type WidgetCustomData = z.infer<ReturnType<typeof widgetCustomDataFields>>;

/** Path parameters of GET /dashboards/{dashboardId}/widgets/{widgetId}/data. */
export const widgetDataParamsFields = () => z.object({ dashboardId: idField(), widgetId: idField() });

/** Path parameter of GET /analytics/meters/{accountId}/data-quality. */
export const meterDataQualityParamsFields = () => z.object({ accountId: idField() });
