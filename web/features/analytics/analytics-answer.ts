export type {
  AnalyticsAnswerView as AnalyticsAnswer,
  BucketFigures,
  EmissionsChange,
  ScopeSplit,
  SiteTotals,
  Totals,
  UtilityFigures,
} from '../../../shared/schemas/responses/analytics.ts';
