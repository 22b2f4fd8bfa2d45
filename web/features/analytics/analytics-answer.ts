import type { Granularity } from '../../../shared/analytics/calendars.ts';
import type { ComparePeriod } from '../../../shared/analytics/comparison.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';

/** One utility's figures in an analytics answer (GET /analytics/v2/{id}). */
export interface UtilityFigures {
  consumption: number;
  /** The utility's default unit; 'mixed' when some figure could not be converted to it. */
  unit: string;
  cost?: number;
  emissionsKg: number;
  /** The part of the figures from estimated months rather than bills. */
  estimated?: { consumption: number; cost?: number; emissionsKg: number };
}

export interface Totals {
  utilities: Partial<Record<UtilityType, UtilityFigures>>;
  cost?: number;
  emissionsKg: number;
}

export interface BucketFigures extends Totals {
  key: string;
  label: string;
  start: string;
  end: string;
}

export interface SiteTotals {
  _id: string;
  siteName?: string;
  totals: Totals;
}

export interface AnalyticsAnswer {
  id: 'consumption' | 'asset-consumption';
  scope: { type: string; id?: string; name?: string; restricted: boolean; sites?: number; meters?: number };
  window: { startDate: string; endDate: string };
  granularity: Granularity;
  costsIncluded: boolean;
  buckets?: BucketFigures[];
  totals: Totals;
  comparison?: {
    comparePeriod: ComparePeriod;
    window: { startDate: string; endDate: string };
    totals: Totals;
  };
  assets?: SiteTotals[];
  factorVersions: string[];
  /** Which scope 2 figures the answer holds, when the service tells. */
  emissionsBasis?: 'location' | 'market';
}
