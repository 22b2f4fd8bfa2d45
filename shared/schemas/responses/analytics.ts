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
  /** VAT charged on top of the net cost. */
  vat?: number;
  /** The Climate Change Levy and the standing charges: parts of the net cost. */
  ccl?: number;
  standingCharge?: number;
  /** Net cost per unit of consumption (pounds per kWh, m³, ...); absent without consumption. */
  unitRate?: number;
  /** Electricity's is market-based scope 2 when the answer's basis is market. */
  emissionsKg: number;
  /** With estimateBreakdown: the part of these figures from estimated months rather than bills. */
  estimated?: { consumption: number; cost?: number; emissionsKg: number };
}

export interface Totals {
  utilities: Partial<Record<UtilityType, UtilityFigures>>;
  /** Summed over utilities; consumption is not, as units differ. */
  cost?: number;
  vat?: number;
  ccl?: number;
  standingCharge?: number;
  emissionsKg: number;
}

export type { ScopeSplit };

export interface BucketFigures extends Bucket, Totals {}

/** Year on year: the change in emissions split into what consumption, factors and floor area added (kg CO2e, rounded to grams). */
export interface EmissionsChange {
  /** The comparison year's and the window's emissions: the answer's comparison and window totals. */
  previousKg: number;
  currentKg: number;
  /** currentKg − previousKg, equal to the sum of the three effects. */
  changeKg: number;
  consumptionKg: number;
  factorKg: number;
  areaKg: number;
  /** Floor area (m²) counted in each year: the scope's sites holding figures that year. */
  floorAreaM2: { previous: number; current: number };
  /** Floor area was known in both years; when not, consumption carries the whole activity effect. */
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
