import { type ComparePeriod, comparisonWindow, widgetComparisonWindow } from '../analytics/comparison.ts';
import { addDays, addMonths, type DateRange } from '../analytics/dates.ts';
import type { UtilityType } from './common.ts';

/** What a home dashboard widget shows; each summarises one Insights page or one queue. */
export const WIDGET_TYPES = [
  'consumption',
  'emissions',
  'cost',
  'top-sites',
  'data-quality',
  'bill-validation',
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

export const WIDGET_TYPE_LABELS: Readonly<Record<WidgetType, string>> = {
  consumption: 'Consumption',
  emissions: 'Emissions',
  cost: 'Cost',
  'top-sites': 'Top sites',
  'data-quality': 'Data quality',
  'bill-validation': 'Bill validation status',
};

/** The page each widget summarises: a click on the widget opens it. */
export const WIDGET_LINKS: Readonly<Record<WidgetType, string>> = {
  consumption: '/analytics/consumption',
  emissions: '/analytics/emissions',
  cost: '/analytics/costs',
  'top-sites': '/analytics/emissions',
  'data-quality': '/assets',
  'bill-validation': '/invoice-validation/failed',
};

/** Periods a widget can cover, each ending on a full day before today. */
export const WIDGET_PERIODS = [
  'last-12-months',
  'last-month',
  'last-quarter',
  'this-year',
  'last-year',
] as const;
export type WidgetPeriod = (typeof WIDGET_PERIODS)[number];

export const WIDGET_PERIOD_LABELS: Readonly<Record<WidgetPeriod, string>> = {
  'last-12-months': 'Last 12 months',
  'last-month': 'Last month',
  'last-quarter': 'Last 3 months',
  'this-year': 'This year to date',
  'last-year': 'Last year',
};

/** The window of a widget's period on a day (today itself is never counted: its bills are not in yet). */
export function widgetWindow(period: WidgetPeriod, today: string): DateRange {
  const monthStart = `${today.slice(0, 7)}-01`;
  const yesterday = addDays(today, -1);
  const year = today.slice(0, 4);
  switch (period) {
    case 'last-month':
      return { start: addMonths(monthStart, -1), end: addDays(monthStart, -1) };
    case 'last-quarter':
      return { start: addMonths(monthStart, -3), end: addDays(monthStart, -1) };
    case 'this-year':
      // On 1 January the year so far is empty: show last year instead of nothing.
      return today.slice(5) === '01-01'
        ? { start: `${Number(year) - 1}-01-01`, end: `${Number(year) - 1}-12-31` }
        : { start: `${year}-01-01`, end: yesterday };
    case 'last-year':
      return { start: `${Number(year) - 1}-01-01`, end: `${Number(year) - 1}-12-31` };
    default:
      return { start: addMonths(monthStart, -12), end: addDays(monthStart, -1) };
  }
}

/**
 * The analytics compare option that gives a widget's comparison (02 §9): the previous month for a full
 * calendar month, the previous year for a full calendar year, else the same number of days before.
 */
export function widgetComparePeriod(window: DateRange): ComparePeriod {
  const wanted = widgetComparisonWindow(window);
  const options: ComparePeriod[] = ['month', 'year'];
  const same = options.find((c) => {
    const w = comparisonWindow(window, c);
    return w?.start === wanted.start && w.end === wanted.end;
  });
  return same ?? 'period';
}

/** The widgets a new home dashboard starts with, in order. */
export const DEFAULT_WIDGETS: readonly { type: WidgetType; period: WidgetPeriod }[] = [
  { type: 'emissions', period: 'last-12-months' },
  { type: 'consumption', period: 'last-12-months' },
  { type: 'cost', period: 'last-12-months' },
  { type: 'top-sites', period: 'last-12-months' },
  { type: 'data-quality', period: 'last-12-months' },
  { type: 'bill-validation', period: 'last-12-months' },
];

/** A figure with the same figure for the comparison window, when there is one. */
export interface WidgetHeadline {
  label: string;
  value: number;
  unit: string;
  previous?: number;
}

export interface WidgetRow {
  id: string;
  label: string;
  value: number;
  unit: string;
  /** A page of the app that shows this row's item. */
  to?: string;
}

/** What GET /dashboards/{dashboardId}/widgets/{widgetId}/data answers: one shape for every widget type. */
export interface WidgetData {
  widgetId: string;
  type: WidgetType;
  title: string;
  window: { startDate: string; endDate: string };
  comparison?: { startDate: string; endDate: string };
  link: string;
  /** The figures count only the sites and meters the caller may read. */
  restricted: boolean;
  /** The company hides cost data: no cost figure is given. */
  costHidden?: boolean;
  headline?: WidgetHeadline;
  /** Per period (or per status), for a small chart. */
  series?: { label: string; value: number }[];
  seriesUnit?: string;
  rows?: WidgetRow[];
  utilityType?: UtilityType;
  /** Nothing to show in the window. */
  empty: boolean;
}

export interface DashboardWidget {
  _id: string;
  dashboardId: string;
  position?: { x: number; y: number; w: number; h: number };
  settings: {
    type: string;
    selectedId?: string;
    source?: string;
    utilityType?: UtilityType;
    metric?: string;
    customData?: Record<string, unknown>;
  };
}

/** What GET /users/me/dashboard-data answers. */
export interface DashboardData {
  dashboard: { _id: string; name: string; period?: string };
  /** In the order the user arranged them. */
  widgets: DashboardWidget[];
  hideCostData: boolean;
}

/** Widgets in the user's order: by position, then by creation (ids sort by creation time). */
export function inDashboardOrder<W extends Pick<DashboardWidget, '_id' | 'position'>>(
  widgets: readonly W[],
): W[] {
  const place = (w: W) => w.position?.y ?? Number.MAX_SAFE_INTEGER;
  return [...widgets].sort((a, b) => place(a) - place(b) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
}

/** Meter data quality as GET /analytics/meters/{accountId}/data-quality answers it. */
export interface MeterQualityAnswer {
  accountId: string;
  window: { startDate: string; endDate: string };
  unit: string;
  bills: number;
  coverage: number;
  gaps: { start: string; end: string; days: number }[];
  gapDays: number;
  fills: { start: string; end: string; days: number; basis: string; quantity: number }[];
  unfilled: { start: string; end: string }[];
  overlaps: { start: string; end: string; days: number; keptBillId: string; droppedBillId: string }[];
  overlapDays: number;
  estimatedReadBills: string[];
  estimatedDays: number;
  outliers: { month: string; dailyUse: number; neighbourMedian: number; ratio: number; direction: string }[];
}
