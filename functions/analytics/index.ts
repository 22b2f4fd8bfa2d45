export type { HalfHourlyInput, HalfHourlyWriteResult } from './analytics-half-hourly.ts';
export { writeHalfHourlyDays } from './analytics-half-hourly.ts';
export { listIntervalDays } from './analytics-half-hourly-repository.ts';
export { ANALYTICS_OPERATIONS } from './analytics-service.ts';
export { DASHBOARD_HOME_OPERATIONS } from './dashboard-home-service.ts';
export { METER_QUALITY_OPERATIONS } from './dashboard-quality.ts';
export { DASHBOARD_WIDGET_OPERATIONS } from './dashboard-widget-service.ts';
export { PROVENANCE_OPERATIONS } from './provenance-service.ts';
