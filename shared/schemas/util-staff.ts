import * as z from 'zod';
import { isValidMpanCore } from '../domain/mpan.ts';
import { idField, isoDateField, nonEmptyField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';
import { MONTH_MESSAGE, MONTH_PATTERN } from './util-staff-queries.ts';

export {
  GAS_METER_CHOICES_LIMIT,
  gasMeterChoicesQuerySchema,
  gridfetchUsageQuerySchema,
} from './util-staff-queries.ts';

/**
 * The staff utilities of 02 §7 (grid-data fetch usage and letters of authority, global statistics, gas
 * prediction) and the util calls beside them (asset certificates, company logo search).
 */

export const UTIL_MESSAGES = {
  logoSearchProblem: 'There was a problem searching for company logos.',
  companyNotFound: 'No such company',
  loaNotPdf: 'Must be a PDF file',
  loaMissing: 'The uploaded file was not found: please upload it again',
  notGas: 'Must be a gas account',
  accountNotFound: 'No such account',
} as const;

// The schemas are built on the first call that parses one. The queries the routes declare are in
// `util-staff-queries.ts`, of zod's small build, so the function declaring the routes starts without this module.
const month = () => z.string().regex(MONTH_PATTERN, MONTH_MESSAGE);

/**
 * POST /util/gridfetch-loa: without `key`, asks for a presigned PUT for the PDF (so the browser can show
 * upload progress); with the `key` it was given, records the uploaded letter for the company.
 */
export const gridfetchLoaSchema = onFirstUse(() =>
  z
    .object({
      companyId: idField(),
      fileName: nonEmptyField().max(200),
      key: z.string().max(500).optional(),
      /** The electricity meters (MPAN cores) the letter covers. */
      mpans: z
        .array(z.string().trim().refine(isValidMpanCore, 'Must be a valid 13-digit MPAN core'))
        .max(500)
        .default([]),
      validFrom: isoDateField().optional(),
      validUntil: isoDateField().optional(),
    })
    .refine((l) => !l.validFrom || !l.validUntil || l.validFrom <= l.validUntil, {
      path: ['validUntil'],
      message: 'Must be on or after the start date',
    }),
);

export interface GridfetchLoaView {
  _id: string;
  companyId: string;
  fileName: string;
  mpans: string[];
  validFrom?: string;
  validUntil?: string;
  uploadedAt: string;
  uploadedBy: string;
  /** A short-lived link to the PDF. */
  downloadUrl: string;
}

export interface GridfetchUsageMonth {
  month: string;
  /** Calls made to the grid data service. */
  fetches: number;
  /** Half-hourly values received. */
  intervals: number;
}

export interface GridfetchUsageReport {
  from: string;
  to: string;
  months: string[];
  data: {
    company: { _id: string; name: string };
    months: GridfetchUsageMonth[];
    totals: { fetches: number; intervals: number };
    loas: GridfetchLoaView[];
  }[];
  totals: { fetches: number; intervals: number };
}

export interface GlobalStats {
  generatedAt: string;
  /** The calendar month (UTC) that "this month" counts. */
  month: string;
  totals: {
    companies: number;
    /** People with access to at least one company, each counted once. */
    users: number;
    entities: number;
    assets: number;
    accounts: number;
    invoicesThisMonth: number;
  };
  companies: {
    _id: string;
    name: string;
    isDemo: boolean;
    users: number;
    entities: number;
    assets: number;
    accounts: number;
    invoicesThisMonth: number;
  }[];
}

export interface AssetCertificate {
  assetId: string;
  siteName: string;
  addressString: string;
  band: string;
  /** From a certificate looked up on the register; sites with only a band recorded have none of these. */
  certificateId?: string;
  kind?: string;
  rating?: number;
  lodgementDate?: string;
  /** Certificates are valid for ten years from lodgement. */
  validUntil?: string;
  status: 'valid' | 'expired' | 'unknown';
}

/** POST /util/gas-prediction-data. */
export const gasPredictionSchema = onFirstUse(() =>
  z
    .object({
      accountId: idField(),
      /** The company of the account; staff may predict for any company, by default their own. */
      companyId: idField().optional(),
      startDate: isoDateField(),
      endDate: isoDateField(),
      /** Heating degree days by month (YYYY-MM): for history months to fit, and for every month predicted. */
      degreeDays: z.record(month(), z.number({ error: 'Must be a number' }).nonnegative('Must be 0 or more')),
      /** How many months before the start to learn from. */
      historyMonths: z.number().int().min(6).max(60).default(24),
    })
    .refine((b) => b.startDate <= b.endDate, {
      path: ['endDate'],
      message: 'Must be on or after the start date',
    })
    .refine((b) => b.endDate.slice(0, 7) <= nextYears(b.startDate, 3), {
      path: ['endDate'],
      message: 'Predict at most three years at a time',
    }),
);

function nextYears(date: string, years: number): string {
  return `${Number(date.slice(0, 4)) + years}${date.slice(4, 7)}`;
}

/** A gas meter as the tool offers it: enough to tell it from the company's others. */
export interface GasMeterChoice {
  _id: string;
  name: string;
  meterPointNumber?: string;
  status?: string;
  assetId?: string;
  siteName?: string;
}

export interface GasMeterChoices {
  data: GasMeterChoice[];
  total: number;
  limit: number;
  skip: number;
}

export interface GasPredictionMonth {
  month: string;
  /** Days of the month inside the period. */
  days: number;
  degreeDays: number;
  baseloadKwh: number;
  heatingKwh: number;
  predictedKwh: number;
}

export interface GasPrediction {
  accountId: string;
  unit: 'kWh';
  period: { startDate: string; endDate: string };
  model: {
    method: 'baseload-and-heating' | 'heating-only' | 'baseload-only';
    baseloadKwhPerDay: number;
    kwhPerDegreeDay: number;
    r2: number;
    cvRmse: number;
    monthsUsed: number;
    historyFrom: string;
    historyTo: string;
  };
  months: GasPredictionMonth[];
  totalKwh: number;
  history: { month: string; kwh: number; degreeDays: number; fittedKwh: number }[];
}

export interface LogoSearchResult {
  name: string;
  domain: string;
  logoUrl: string | null;
  claimed: boolean;
  brandId: string;
}
