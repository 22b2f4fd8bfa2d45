import { ANALYTICS_OPERATIONS } from '../../analytics/analytics-service.ts';
import { PROVENANCE_OPERATIONS } from '../../analytics/provenance-service.ts';
import { DASHBOARD_WIDGET_OPERATIONS, METER_QUALITY_OPERATIONS } from '../../analytics/index.ts';
import { httpFunction } from '../../core/middleware/http-function.ts';
import { GENERIC_OPERATIONS } from '../../core/resources/resource-service.ts';
import '../../../shared/system/resource-schemas/insights.ts';

export const handler = httpFunction('insights', {
  ...GENERIC_OPERATIONS,
  ...ANALYTICS_OPERATIONS,
  ...PROVENANCE_OPERATIONS,
  ...DASHBOARD_WIDGET_OPERATIONS,
  ...METER_QUALITY_OPERATIONS,
});
