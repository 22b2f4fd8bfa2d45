import type { Granularity } from '../../../shared/analytics/calendars.ts';
import type { ComparePeriod } from '../../../shared/analytics/comparison.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';

/** One utility's figures in an analytics answer (GET /analytics/v2/{id}). */
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

/** Emissions by GHG Protocol scope, in kg CO2e, each scope naming the factor sets behind it. */
export interface ScopeSplit {
  scope1: number;
  scope2Location: number;
  scope2Market: number;
  scope3: number;
  scope3Parts: { transmissionDistribution: number; water: number; waste: number; wellToTank: number };
  totalLocation: number;
  totalMarket: number;
  factorSets: { scope1: string[]; scope2Location: string[]; scope2Market: string[]; scope3: string[] };
  notCovered: string[];
}

export interface BucketFigures extends Totals {
  key: string;
  label: string;
  start: string;
  end: string;
}

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
    scopes?: ScopeSplit;
    emissionsChange?: EmissionsChange;
  };
  /** Emissions by scope over the window (and per period with the breakdown). */
  scopes?: { totals: ScopeSplit; buckets?: (ScopeSplit & { key: string })[] };
  assets?: SiteTotals[];
  factorVersions: string[];
  /** Which scope 2 figure electricity's emissions hold. */
  emissionsBasis?: 'location' | 'market';
}
