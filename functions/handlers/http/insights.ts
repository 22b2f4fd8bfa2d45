import {
  ANALYTICS_OPERATIONS,
  DASHBOARD_WIDGET_OPERATIONS,
  FACTOR_SET_OPERATIONS,
  METER_QUALITY_OPERATIONS,
  PROVENANCE_OPERATIONS,
} from '../../analytics/index.ts';
import { BENCHMARK_OPERATIONS } from '../../benchmarks/index.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import { REPORT_OPERATIONS } from '../../reports/report-service.ts';
import { CALENDAR_OPERATIONS, TARGET_OPERATIONS } from '../../targets/index.ts';
import '../../../shared/system/resource-schemas/insights.ts';

export const handler = httpFunction('insights', {
  ...GENERIC_OPERATIONS,
  ...ANALYTICS_OPERATIONS,
  ...PROVENANCE_OPERATIONS,
  ...DASHBOARD_WIDGET_OPERATIONS,
  ...METER_QUALITY_OPERATIONS,
  ...TARGET_OPERATIONS,
  ...CALENDAR_OPERATIONS,
  ...BENCHMARK_OPERATIONS,
  ...FACTOR_SET_OPERATIONS,
  ...REPORT_OPERATIONS,
});
