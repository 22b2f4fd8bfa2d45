import { ANALYTICS_AREA } from '../../../shared/system/areas/analytics.ts';
import { REPORTS_AREA } from '../../../shared/system/areas/reports.ts';
import {
  ANALYTICS_OPERATIONS,
  DASHBOARD_WIDGET_OPERATIONS,
  FACTOR_SET_OPERATIONS,
  METER_QUALITY_OPERATIONS,
  PROVENANCE_OPERATIONS,
} from '../../analytics/index.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { REPORT_OPERATIONS } from '../../reports/index.ts';
import '../../../shared/system/resource-schemas/insights.ts';

export const handler = httpFunction('insights', [ANALYTICS_AREA, REPORTS_AREA], {
  ...GENERIC_OPERATIONS,
  ...ANALYTICS_OPERATIONS,
  ...PROVENANCE_OPERATIONS,
  ...DASHBOARD_WIDGET_OPERATIONS,
  ...METER_QUALITY_OPERATIONS,
  ...FACTOR_SET_OPERATIONS,
  ...REPORT_OPERATIONS,
});
