/**
 * | pattern | key condition | index |
 * |---|---|---|
 * | one dashboard or widget by id | `pk = C#{companyId}#dashboards` (`#widgets`), `sk = {id}` | table |
 * | write a dashboard or widget unless it exists | `pk`, `sk` as above, `attribute_not_exists(pk)` | table |
 * | the live widgets of a dashboard | `gsi1pk = C#{companyId}#widgets#dashboardId#{dashboardId}` | gsi1 |
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { type DashboardWidget, WIDGET_TYPES } from '../../shared/schemas/dashboard-widgets.ts';
import { UTILITY_TYPES } from '../../shared/schemas/mini-fields.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import {
  type CollectionRef,
  declaredRef,
  getItem,
  listItems,
  putItemIf,
  type StoredItem,
} from '../core/data/item-repository.ts';
import type { Stored } from '../core/data/stored-record.ts';
import { objectOf, utilityTypeOf } from '../core/lib/stored-values.ts';

const dashboardsRef = (companyId: string): CollectionRef => declaredRef('dashboards', { companyId });
const widgetsRef = (companyId: string): CollectionRef => declaredRef('widgets', { companyId });

/** A 24-hex id fixed by its inputs, so every request making the same item names the same one. */
const fixedId = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);

/** The id of a person's home dashboard in a company. */
export const homeDashboardId = (companyId: string, sub: string): string => fixedId('home', companyId, sub);

/** The id of the n-th widget a home dashboard starts with. */
export const defaultWidgetId = (dashboardId: string, n: number): string =>
  fixedId('default-widget', dashboardId, String(n));

const live = (item: StoredItem | undefined) => (item && item.deleted !== true ? item : undefined);

export const getDashboard = async (companyId: string, id: string) =>
  live(await getItem(dashboardsRef(companyId).pk, id));

/**
 * A widget's settings as stored, each field kept only when it is of its kind: widgets are written through
 * the generic resource layer, so a stored one may hold anything, and a field that makes no sense reads as
 * absent (the widget then shows its defaults) rather than failing the dashboard.
 */
const storedWidgetSettings = onFirstUse(() => {
  const text = () => z.catch(z.optional(z.string()), undefined);
  return z.catch(
    z.object({
      type: z.catch(z.optional(z.enum(WIDGET_TYPES)), undefined),
      selectedId: text(),
      source: text(),
      utilityType: z.catch(z.optional(z.enum(UTILITY_TYPES)), undefined),
      metric: text(),
      granularity: text(),
      /** Judged by the widget's own schema where it is read. */
      customData: z.optional(z.unknown()),
    }),
    {},
  );
});

export type StoredWidgetSettings = z.output<typeof storedWidgetSettings>;

export type StoredWidget = Stored<{ dashboardId?: unknown; settings: StoredWidgetSettings }>;

/** A live widget by id, its settings typed. */
export async function getWidget(companyId: string, id: string): Promise<StoredWidget | undefined> {
  const item = live(await getItem(widgetsRef(companyId).pk, id));
  return item && { ...item, settings: storedWidgetSettings.parse(item.settings ?? {}) };
}

const ifAbsent = { ConditionExpression: 'attribute_not_exists(pk)' };

/** Writes a dashboard unless one with its id exists (live or deleted); answers whether it was written. */
export const createDashboardIfAbsent = (companyId: string, item: StoredItem) =>
  putItemIf(dashboardsRef(companyId), item, ifAbsent);

/** Writes a widget unless one with its id exists, so a widget the user removed is not brought back. */
export const createWidgetIfAbsent = (companyId: string, item: StoredItem) =>
  putItemIf(widgetsRef(companyId), item, ifAbsent);

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isFields = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A widget's place as stored, when it is one: four numbers. */
function positionOf(v: unknown): DashboardWidget['position'] {
  const { x, y, w, h } = objectOf(v);
  return isNumber(x) && isNumber(y) && isNumber(w) && isNumber(h) ? { x, y, w, h } : undefined;
}

/**
 * A widget as the home dashboard lists it: what it stores, with each field the dashboard reads kept only
 * when it is of its kind (a widget may hold anything, see `storedWidgetSettings`). A widget whose type is
 * not text reads as the consumption widget its figures are; one whose place is not four numbers comes after
 * the placed ones. Settings the dashboard does not read stay: the editor writes back the settings it got.
 */
function dashboardWidgetOf(item: StoredItem, dashboardId: string): DashboardWidget {
  const { position, settings, ...stored } = item;
  const { type, selectedId, source, utilityType, metric, customData, ...other } = objectOf(settings);
  const place = positionOf(position);
  const utility = utilityTypeOf(utilityType);
  return {
    ...stored,
    dashboardId,
    ...(place ? { position: place } : {}),
    settings: {
      ...other,
      type: typeof type === 'string' ? type : 'consumption',
      ...(typeof selectedId === 'string' ? { selectedId } : {}),
      ...(typeof source === 'string' ? { source } : {}),
      ...(utility ? { utilityType: utility } : {}),
      ...(typeof metric === 'string' ? { metric } : {}),
      ...(isFields(customData) ? { customData } : {}),
    },
  };
}

/** The live widgets of a dashboard, from the dashboardId index. */
export async function widgetsOfDashboard(companyId: string, dashboardId: string): Promise<DashboardWidget[]> {
  const { data } = await listItems(widgetsRef(companyId), {
    filters: { dashboardId },
    limit: MAX_LIST_LIMIT,
    skip: 0,
  });
  return data.map((item) => dashboardWidgetOf(item, dashboardId));
}
