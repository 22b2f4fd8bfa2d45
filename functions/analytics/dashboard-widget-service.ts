import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { type ReadLists, widgetAccess } from '../../shared/access/widget-access.ts';
import type { DateRange } from '../../shared/analytics/index.ts';
import { MESSAGES } from '../../shared/messages.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import {
  widgetCustomDataFields,
  widgetDataParamsFields,
} from '../../shared/schemas/dashboard-widget-fields.ts';
import {
  WIDGET_LINKS,
  WIDGET_TYPE_LABELS,
  type WidgetData,
  type WidgetPeriod,
  type WidgetRow,
  type WidgetType,
  widgetComparePeriod,
  widgetWindow,
} from '../../shared/schemas/dashboard-widgets.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import { allAccounts, utilityOf } from '../accounts/index.ts';
import { assetFieldsOf } from '../assets/index.ts';
import { readListsOf } from '../core/access/item-access-service.ts';
import { getItem, type StoredItem } from '../core/data/item-repository.ts';
import { forbidden, notFound } from '../core/lib/errors.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { allInvoices } from '../invoices/index.ts';
import type { Totals } from './analytics-figures.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import { ANALYTICS_OPERATIONS, type AnalyticsAnswer } from './analytics-service.ts';
import { qualityOfMeter } from './dashboard-quality.ts';
import { getDashboard, getWidget, type StoredWidget } from './dashboard-repository.ts';

const widgetNotFound = () => notFound(MESSAGES.widgetNotFound);
const widgetCustomDataSchema = onFirstUse(widgetCustomDataFields);
const widgetDataParamsSchema = onFirstUse(widgetDataParamsFields);
const today = () => new Date().toISOString().slice(0, 10);
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

interface WidgetSettings {
  type: WidgetType;
  title: string;
  period: WidgetPeriod;
  selectedId?: string;
  /** What selectedId names: a site ('asset') or a portfolio ('asset-group'). */
  source?: string;
  utilityType?: UtilityType;
  metric?: string;
  granularity?: string;
}

function settingsOf(widget: StoredWidget): WidgetSettings {
  const s = widget.settings;
  const type = s.type ?? 'consumption';
  const custom = widgetCustomDataSchema.parse(s.customData ?? {});
  return {
    type,
    title: custom.title || WIDGET_TYPE_LABELS[type],
    period: custom.period ?? 'last-12-months',
    ...(s.selectedId ? { selectedId: s.selectedId } : {}),
    ...(s.source ? { source: s.source } : {}),
    ...(s.utilityType ? { utilityType: s.utilityType } : {}),
    ...(s.metric ? { metric: s.metric } : {}),
    ...(s.granularity ? { granularity: s.granularity } : {}),
  };
}

/** Whether the widget names a portfolio rather than a site. */
const isPortfolio = (s: WidgetSettings) => s.source === 'asset-group' || s.source === 'assetGroup';

/**
 * The analytics of the widget's scope and window, from the analytics call itself: the same figures as the
 * Insights pages, narrowed to what the caller may read and without costs where the company hides them.
 */
async function analyticsOf(
  ctx: OpContext,
  id: 'consumption' | 'asset-consumption',
  s: WidgetSettings,
  window: DateRange,
): Promise<AnalyticsAnswer> {
  const op = ANALYTICS_OPERATIONS['analytics.v2'];
  if (!op) throw new Error('The analytics call is not served here');
  const days = (Date.parse(window.end) - Date.parse(window.start)) / 86_400_000 + 1;
  const query: Record<string, string> = {
    startDate: window.start,
    endDate: window.end,
    granularity: s.granularity ?? (days <= 31 ? 'weekly' : 'monthly'),
    comparePeriod: widgetComparePeriod(window),
    includeCosts: 'true',
    dateBreakdown: id === 'consumption' ? 'true' : 'false',
  };
  if (s.selectedId) query[isPortfolio(s) ? 'assetGroupId' : 'assetId'] = s.selectedId;
  const res = await op({ ...ctx, params: { id }, query });
  return res.body as AnalyticsAnswer;
}

const utilitiesOf = (t: Totals) => Object.keys(t.utilities) as UtilityType[];

/** The utility a consumption widget shows: its own, else electricity where there is any, else the first. */
function shownUtility(s: WidgetSettings, totals: Totals): UtilityType | undefined {
  if (s.utilityType) return s.utilityType;
  const present = utilitiesOf(totals);
  return present.includes('electricity') ? 'electricity' : present[0];
}

type Measure = 'consumption' | 'emissions' | 'cost';

function figureOf(t: Totals | undefined, measure: Measure, utility?: UtilityType): number | undefined {
  if (!t) return undefined;
  if (measure === 'consumption') return utility ? t.utilities[utility]?.consumption : undefined;
  if (measure === 'cost') return utility ? t.utilities[utility]?.cost : t.cost;
  const kg = utility ? t.utilities[utility]?.emissionsKg : t.emissionsKg;
  return kg === undefined ? undefined : round(kg / 1000, 3);
}

/** Consumption, emissions or cost of the scope: the total, its change, each period and each utility. */
async function measureWidget(ctx: OpContext, s: WidgetSettings, window: DateRange, measure: Measure) {
  const answer = await analyticsOf(ctx, 'consumption', s, window);
  const base = { restricted: answer.scope.restricted, comparison: answer.comparison?.window };
  if (measure === 'cost' && !answer.costsIncluded) return { ...base, costHidden: true, empty: true };
  const utility = measure === 'consumption' ? shownUtility(s, answer.totals) : undefined;
  const unit =
    measure === 'consumption'
      ? (answer.totals.utilities[utility ?? 'electricity']?.unit ?? 'kWh')
      : measure === 'cost'
        ? 'GBP'
        : 'tCO2e';
  const value = figureOf(answer.totals, measure, utility) ?? 0;
  const previous = figureOf(answer.comparison?.totals, measure, utility);
  const label =
    measure === 'consumption'
      ? `${utility ?? 'electricity'} consumption`
      : measure === 'cost'
        ? 'Net cost'
        : 'Emissions';
  const rows: WidgetRow[] = utilitiesOf(answer.totals).map((u) => ({
    id: u,
    label: u,
    value: figureOf(answer.totals, measure, u) ?? 0,
    unit: measure === 'consumption' ? (answer.totals.utilities[u]?.unit ?? '') : unit,
  }));
  return {
    ...base,
    ...(measure === 'cost' ? { costHidden: false } : {}),
    ...(utility ? { utilityType: utility } : {}),
    headline: { label, value, unit, ...(previous !== undefined ? { previous } : {}) },
    series: (answer.buckets ?? []).map((b) => ({
      label: b.label,
      value: figureOf(b, measure, utility) ?? 0,
    })),
    seriesUnit: unit,
    rows,
    empty: rows.length === 0,
  };
}

/** The sites with the most emissions (or cost, or energy use) in the window, top five. */
async function topSitesWidget(ctx: OpContext, s: WidgetSettings, window: DateRange) {
  const answer = await analyticsOf(ctx, 'asset-consumption', s, window);
  const wanted: Measure = s.metric === 'cost' || s.metric === 'consumption' ? s.metric : 'emissions';
  const measure: Measure = wanted === 'cost' && !answer.costsIncluded ? 'emissions' : wanted;
  const energy = (t: Totals) =>
    Object.values(t.utilities).reduce((sum, u) => sum + (u?.unit === 'kWh' ? u.consumption : 0), 0);
  const unit = measure === 'cost' ? 'GBP' : measure === 'consumption' ? 'kWh' : 'tCO2e';
  const rows: WidgetRow[] = (answer.assets ?? [])
    .map((a) => ({
      id: a._id,
      label: a.siteName ?? a._id,
      value: measure === 'consumption' ? round(energy(a.totals), 3) : (figureOf(a.totals, measure) ?? 0),
      unit,
      to: `/assets/${a._id}/overview`,
    }))
    .filter((r) => r.value > 0)
    .sort((a, b) => b.value - a.value)
    .slice(0, 5);
  return {
    restricted: answer.scope.restricted,
    ...(wanted === 'cost' ? { costHidden: measure !== 'cost' } : {}),
    headline: {
      label:
        measure === 'cost'
          ? 'Net cost, top sites'
          : measure === 'consumption'
            ? 'Energy, top sites'
            : 'Emissions, top sites',
      value: round(
        rows.reduce((t, r) => t + r.value, 0),
        3,
      ),
      unit,
    },
    rows,
    empty: rows.length === 0,
  };
}

interface MeterScope {
  accounts: StoredItem[];
  restricted: boolean;
}

async function portfolioSites(companyId: string, groupId: string): Promise<string[]> {
  const group = await getItem(scopeCollectionPk(companyId, 'asset-groups'), groupId);
  const ids = group && group.deleted !== true && Array.isArray(group.assetIds) ? group.assetIds : [];
  return ids.filter((id): id is string => typeof id === 'string');
}

/** The live meters the widget counts: those the caller may read, within the selected site or portfolio. */
async function metersInScope(
  caller: Caller,
  s: WidgetSettings,
  lists: ReadLists | undefined,
): Promise<MeterScope> {
  const readable = lists ? new Set(lists.accounts) : undefined;
  let accounts: StoredItem[] = (await allAccounts(caller.companyId)).filter(
    (a) => a.deleted !== true && (!readable || readable.has(a._id)),
  );
  if (s.selectedId) {
    const sites = new Set(
      isPortfolio(s) ? await portfolioSites(caller.companyId, s.selectedId) : [s.selectedId],
    );
    accounts = accounts.filter((a) => sites.has(String(a.assetId)));
  }
  return { accounts, restricted: lists !== undefined };
}

/** How complete the meters' bills are over the window: coverage, and the meters with the most missing. */
async function dataQualityWidget(ctx: OpContext, s: WidgetSettings, window: DateRange, lists?: ReadLists) {
  const { accounts, restricted } = await metersInScope(ctx.caller, s, lists);
  const active = accounts.filter((a) => a.status !== 'inactive' && a.parentAccountId === undefined);
  const byAccount = new Map<string, StoredItem[]>();
  for (const invoice of await allInvoices(ctx.caller.companyId)) {
    const id = str(invoice.accountId);
    if (id) byAccount.set(id, [...(byAccount.get(id) ?? []), invoice]);
  }
  const sites = new Map(
    (await assetFieldsOf(ctx.caller.companyId, ['siteName'])).map((a) => [a._id, a.siteName]),
  );
  let gaps = 0;
  let overlaps = 0;
  let estimates = 0;
  let outliers = 0;
  let coverage = 0;
  const meters = active.map((account) => {
    const { quality } = qualityOfMeter(account, byAccount.get(account._id) ?? [], window);
    coverage += quality.coverage;
    if (quality.gapDays > 0) gaps++;
    if (quality.overlapDays > 0) overlaps++;
    if (quality.estimatedReadBills.length > 0 || quality.estimatedDays > 0) estimates++;
    if (quality.outliers.length > 0) outliers++;
    const assetId = String(account.assetId ?? '');
    const name = str(account.name) ?? str(account.meterPointNumber) ?? utilityOf(account);
    return {
      id: account._id,
      label: `${sites.get(assetId) ?? 'Site'} · ${name}`,
      value: round(quality.coverage * 100, 1),
      unit: '%',
      to: `/assets/${assetId}/accounts/${account._id}/data-quality`,
    };
  });
  const rows = meters
    .filter((m) => m.value < 100)
    .sort((a, b) => a.value - b.value)
    .slice(0, 5);
  return {
    restricted,
    headline: {
      label: 'Days covered by bills',
      value: active.length === 0 ? 0 : round((coverage / active.length) * 100, 1),
      unit: '%',
    },
    series: [
      { label: 'With gaps', value: gaps },
      { label: 'With overlaps', value: overlaps },
      { label: 'With estimates', value: estimates },
      { label: 'With outliers', value: outliers },
    ],
    seriesUnit: 'meters',
    rows,
    empty: active.length === 0,
  };
}

const VALIDATION_ORDER = ['failed', 'error', 'warning', 'pending', 'passed'] as const;

/** Bills still to be reviewed, by validation status, for the meters the caller may read. */
async function billValidationWidget(ctx: OpContext, s: WidgetSettings, lists?: ReadLists) {
  const { accounts, restricted } = await metersInScope(ctx.caller, s, lists);
  const counted = new Set(accounts.map((a) => a._id));
  const whole = !restricted && !s.selectedId;
  const counts = new Map<string, number>(VALIDATION_ORDER.map((st) => [st, 0]));
  let open = 0;
  for (const invoice of await allInvoices(ctx.caller.companyId)) {
    if (invoice.deleted === true || invoice.completed === true) continue;
    const accountId = str(invoice.accountId);
    if (!whole && !(accountId && counted.has(accountId))) continue;
    const status = str(invoice.validationStatus);
    if (!status || !counts.has(status)) continue;
    counts.set(status, (counts.get(status) ?? 0) + 1);
    open++;
  }
  return {
    restricted,
    headline: { label: 'Bills awaiting review', value: open, unit: 'bills' },
    series: VALIDATION_ORDER.map((st) => ({ label: st, value: counts.get(st) ?? 0 })),
    seriesUnit: 'bills',
    empty: open === 0,
  };
}

/**
 * Who the caller is for the widget rules (02 §5, §6): undefined when they hold no permission to read
 * anything at all; company users and admins read everything.
 */
function subjectOf(caller: Caller, lists: ReadLists | undefined) {
  const read = lists ?? { assets: [], assetGroups: [], accounts: [], entities: [] };
  if (isCompanyWide(caller)) return { ...caller, read };
  const none = Object.values(read).every((l) => l.length === 0);
  return none ? undefined : { ...caller, read };
}

/**
 * GET /dashboards/{dashboardId}/widgets/{widgetId}/data: a widget of the caller's own dashboard, else
 * 'Widget not found'; a caller with nothing to read, 'No permissions provided'; a widget naming a site or
 * portfolio the caller may not read, 'You do not have access to this data'.
 */
const widgetData = operation({ params: ['dashboardId', 'widgetId'] }, async (ctx): Promise<OpResult> => {
  const parsed = widgetDataParamsSchema.safeParse(ctx.params);
  if (!parsed.success) throw widgetNotFound();
  const { dashboardId, widgetId } = parsed.data;
  const companyId = ctx.caller.companyId;
  const [dashboard, widget] = await Promise.all([
    getDashboard(companyId, dashboardId),
    getWidget(companyId, widgetId),
  ]);
  if (!dashboard || dashboard.createdBy !== ctx.caller.sub) throw widgetNotFound();
  if (!widget || widget.dashboardId !== dashboardId) throw widgetNotFound();
  const lists = await readListsOf(ctx.caller);
  const s = settingsOf(widget);
  const selection = s.selectedId
    ? { selectedId: s.selectedId, ...(s.source ? { selectedType: s.source } : {}) }
    : {};
  const access = widgetAccess(subjectOf(ctx.caller, lists), { settings: selection });
  if (access === MESSAGES.noWidgetPermissions || access === MESSAGES.noDataAccess) throw forbidden(access);
  if (access !== 'ok') throw widgetNotFound();

  const window = widgetWindow(s.period, today());
  let figures: Omit<WidgetData, 'widgetId' | 'type' | 'title' | 'window' | 'link'>;
  switch (s.type) {
    case 'consumption':
    case 'emissions':
    case 'cost':
      figures = await measureWidget(ctx, s, window, s.type);
      break;
    case 'top-sites':
      figures = await topSitesWidget(ctx, s, window);
      break;
    case 'data-quality':
      figures = await dataQualityWidget(ctx, s, window, lists);
      break;
    default:
      figures = await billValidationWidget(ctx, s, lists);
  }
  const body: WidgetData = {
    widgetId,
    type: s.type,
    title: s.title,
    window: { startDate: window.start, endDate: window.end },
    link: WIDGET_LINKS[s.type],
    ...figures,
  };
  return { body };
});

export const DASHBOARD_WIDGET_OPERATIONS: Operations = {
  'dashboards.widgetData': widgetData,
};
