import type { Bucket, Granularity } from '../../analytics/calendars.ts';
import type { ComparePeriod } from '../../analytics/comparison.ts';
import type { ScopeSplit } from '../../analytics/emission-scopes.ts';
import type { UtilityType } from '../common.ts';

/**
 * The answer of the analytics calls (GET /analytics/v2/{id}, GET /assets/{id}/analytics), as the browser
 * reads it. The service's own answer type extends this one, so a figure renamed there fails to compile.
 */

/** Which scope 2 figure electricity's emissions are given by. */
export type EmissionsBasis = 'location' | 'market';

/** One utility's figures in an analytics answer. */
export interface UtilityFigures {
  consumption: number;
  /** The utility's default unit; 'mixed' when some figure could not be converted to it. */
  unit: string;
  cost?: number;
  /** VAT on top of the net cost; the levy and standing charges within it (present where bills held them). */
  vat?: number;
  ccl?: number;
  standingCharge?: number;
  /** Net cost per unit consumed. */
  unitRate?: number;
  emissionsKg: number;
  /** The part of the figures from estimated months rather than bills. */
  estimated?: { consumption: number; cost?: number; emissionsKg: number };
}

export interface Totals {
  utilities: Partial<Record<UtilityType, UtilityFigures>>;
  cost?: number;
  vat?: number;
  ccl?: number;
  standingCharge?: number;
  emissionsKg: number;
}

export type { ScopeSplit };

export interface BucketFigures extends Bucket, Totals {}

/** Year on year: the change in emissions split into what consumption, factors and floor area added (kg CO2e). */
export interface EmissionsChange {
  previousKg: number;
  currentKg: number;
  changeKg: number;
  consumptionKg: number;
  factorKg: number;
  areaKg: number;
  floorAreaM2: { previous: number; current: number };
  areaUsed: boolean;
}

export interface SiteTotals {
  _id: string;
  siteName?: string;
  totals: Totals;
}

export interface AnalyticsAnswerView {
  id: 'consumption' | 'asset-consumption';
  scope: { type: string; id?: string; name?: string; restricted: boolean; sites?: number; meters?: number };
  window: { startDate: string; endDate: string };
  /** Hourly and half-hourly come from interval data only. */
  granularity: Granularity | 'hourly' | 'halfhourly';
  costsIncluded: boolean;
  buckets?: BucketFigures[];
  totals: Totals;
  comparison?: {
    comparePeriod: ComparePeriod;
    window: { startDate: string; endDate: string };
    totals: Totals;
    scopes?: ScopeSplit;
    emissionsChange?: EmissionsChange;
  };
  /** Emissions by scope over the window (and per period with the breakdown). */
  scopes?: { totals: ScopeSplit; buckets?: (ScopeSplit & { key: string })[] };
  assets?: SiteTotals[];
  factorVersions: string[];
  /** Which scope 2 figure electricity's emissions hold. */
  emissionsBasis?: EmissionsBasis;
}
