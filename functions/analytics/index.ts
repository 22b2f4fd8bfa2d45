export type { MeterCoverage } from './analytics-coverage.ts';
export { meterCoverage } from './analytics-coverage.ts';
export type {
  HalfHourlyInput,
  HalfHourlyWriteOptions,
  HalfHourlyWriteResult,
} from './analytics-half-hourly.ts';
export { addHalfHourlyRollups, writeHalfHourlyDays } from './analytics-half-hourly.ts';
export { listIntervalDays, listIntervalMeters } from './analytics-half-hourly-repository.ts';
export { ANALYTICS_CHANGED, announceFiguresChange } from './analytics-live.ts';
export type { AnalyticsQuery } from './analytics-params.ts';
export { analyticsQuerySchema } from './analytics-params.ts';
export type { AnalyticsAnswer } from './analytics-service.ts';
export { ANALYTICS_OPERATIONS, consumptionAnalytics } from './analytics-service.ts';
export type { SiteYear, SiteYears } from './analytics-site-years.ts';
export { siteYearFigures } from './analytics-site-years.ts';
export { siteYearsOf } from './analytics-yearly.ts';
export { DASHBOARD_HOME_OPERATIONS } from './dashboard-home-service.ts';
export { METER_QUALITY_OPERATIONS } from './dashboard-quality.ts';
export { DASHBOARD_WIDGET_OPERATIONS } from './dashboard-widget-service.ts';
export { FACTOR_SET_OPERATIONS } from './factor-set-service.ts';
