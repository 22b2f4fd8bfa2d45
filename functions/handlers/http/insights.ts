import { provenanceQuery } from '../../../shared/schemas/provenance.ts';
import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { REPORTS_AREA } from '../../../shared/system/areas/reports.ts';
import { registerResourceSchemasLater } from '../../../shared/system/resource-schemas.ts';
// The area's own modules, not its index: the index names every module of the area, and a module named on
// the start path is read at start even when only a call loaded later uses it.
import { ANALYTICS_OPERATIONS } from '../../analytics/analytics-service.ts';
import { METER_QUALITY_OPERATIONS } from '../../analytics/dashboard-quality.ts';
import { DASHBOARD_WIDGET_OPERATIONS } from '../../analytics/dashboard-widget-service.ts';
import type { Operations } from '../../core/middleware/api-context.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { onFirstCall } from '../../core/middleware/operation.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';

/** A figure's provenance is asked for when someone questions it: its tracing code loads on that call. */
const PROVENANCE_OPERATIONS: Operations = {
  'analytics.provenance': onFirstCall(
    { query: provenanceQuery },
    async () => (await import('../../analytics/provenance-service.ts')).provenance,
  ),
};

/**
 * Reports (their templates, schedules and mail) and the emission factor sets with their restatements are
 * called far less than the figures: they load on the first call of one, so a cold start serving Insights
 * does not carry them.
 */
const laterOperations = async (): Promise<Operations> =>
  (await import('./later/insights.ts')).LATER_OPERATIONS;

const FIGURE_OPERATIONS: Operations = {
  ...ANALYTICS_OPERATIONS,
  ...PROVENANCE_OPERATIONS,
  ...DASHBOARD_WIDGET_OPERATIONS,
  ...METER_QUALITY_OPERATIONS,
};

/** The factor sets and restatements parse no stored shape either (later/insights.ts). */
const LATER_FIGURE_OPERATIONS = ['analytics.factorSets', 'analytics.restate', 'analytics.restatementJob'];

/**
 * The stored shapes of dashboards, widgets and reports are parsed by the generic calls only: built on the
 * first of those. The figures, the dashboard's widgets, data quality and restatements parse none.
 */
registerResourceSchemasLater('insights', () => import('../../../shared/system/resource-schemas/insights.ts'));

export const handler = httpFunction(
  'insights',
  [ANALYTICS_AREA, REPORTS_AREA],
  { ...GENERIC_OPERATIONS, ...FIGURE_OPERATIONS },
  {
    later: laterOperations,
    withoutResourceSchemas: [...Object.keys(FIGURE_OPERATIONS), ...LATER_FIGURE_OPERATIONS],
  },
);
