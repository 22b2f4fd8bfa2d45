import * as z from 'zod/mini';
import type { BoundingBox } from '../capture/textract.ts';
import { idField, isoDateField, utilityTypeField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/** The longest window a provenance answer covers: it lists bills one by one. */
export const PROVENANCE_MAX_DAYS = 3 * 366;

const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
// Date.parse rolls 30 February over into March: a date is real only when it reads back as written.
const isReal = (v: string) => {
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
};

/**
 * GET /analytics/provenance: where a figure of Insights comes from. `from` and `to` are the figure's
 * window (inclusive); a site, a meter and a utility narrow it as the figure was narrowed. Built on first
 * use: the functions that declare the route mostly serve others.
 */
export const provenanceQuery = onFirstUse(() => {
  const realDate = isoDateField().check(z.refine(isReal, 'Must be a date as YYYY-MM-DD'));
  return z
    .object({
      from: realDate,
      to: realDate,
      assetId: z.optional(idField()),
      accountId: z.optional(idField()),
      utilityType: z.optional(utilityTypeField()),
    })
    .check(
      z.superRefine((q, ctx) => {
        if (q.to < q.from)
          ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be on or after from' });
        else if (dayOf(q.to) - dayOf(q.from) + 1 > PROVENANCE_MAX_DAYS) {
          ctx.addIssue({ code: 'custom', path: ['to'], message: 'The window is at most three years' });
        }
      }),
    );
});

export type ProvenanceQuery = z.output<typeof provenanceQuery>;

/** Consumption in one unit, net cost (absent when the company hides costs) and emissions. */
export interface ProvenanceFigure {
  consumption: number;
  unit: string;
  cost?: number;
  emissionsKg: number;
}

/** A figure over several utilities: costs and emissions add up, consumption only per utility. */
export interface ProvenanceTotals {
  utilities: Partial<Record<string, ProvenanceFigure>>;
  cost?: number;
  emissionsKg: number;
}

/** A value's place on the bill's document: a 1-based page and a box in fractions of the page. */
export interface ProvenancePosition {
  page: number;
  bbox: BoundingBox;
  /** The text read there. */
  text?: string;
}

/** The emission factor a figure was worked out with. */
export interface ProvenanceFactor {
  /** kg CO2e per unit */
  value: number;
  unit: string;
  activity: string;
  scope: number;
  year: number;
  /** The factor set, e.g. the DESNZ conversion factors of a year. */
  set: string;
  version: string;
  /** Unconfirmed figure, or another year's standing in: shown beside the factor. */
  note?: string;
}

export interface ProvenanceConfirmation {
  /** confirmed: a person confirmed the bill; imported: it arrived as data; pending: not confirmed yet. */
  how: 'confirmed' | 'imported' | 'pending';
  by?: { sub: string; name?: string };
  at?: string;
}

export interface ProvenanceReading {
  meterSerialNumber?: string;
  openingRead?: number;
  closingRead?: number;
  readType?: string;
  date?: string;
}

/** One bill whose period overlaps the window, and the part of it that falls in the window. */
export interface ProvenanceBill {
  invoiceId: string;
  invoiceNumber?: string;
  period: { start: string; end: string };
  /** Days of the period, and of those inside the window. */
  days: number;
  daysInWindow: number;
  /** daysInWindow / days: the share of the bill the window takes, calendarised by days. */
  share: number;
  /** The whole bill as printed: consumption and net cost, and its total with VAT. */
  bill: { consumption?: number; unit?: string; netTotal?: number; grossTotal?: number };
  /** What the bill adds to the figure. */
  part: ProvenanceFigure;
  /** The bill's part month by month, as it went into the monthly figures. */
  months: {
    month: string;
    consumption: number;
    cost?: number;
    emissionsKg: number;
    factorVersion?: string;
  }[];
  factors: ProvenanceFactor[];
  confirmation: ProvenanceConfirmation;
  /** Where capture read the total, the net total and the consumption, when it kept their place. */
  positions: {
    grossTotal?: ProvenancePosition;
    netTotal?: ProvenancePosition;
    consumption?: ProvenancePosition;
  };
  readings: ProvenanceReading[];
  hasDocument: boolean;
  fileName?: string;
}

/** A part of a meter's figure that no bill holds: a gap estimate, imported data, or a rest. */
export interface ProvenanceOtherPart {
  kind: 'estimate' | 'import' | 'unattributed';
  month: string;
  part: ProvenanceFigure;
  factorVersion?: string;
}

export interface ProvenanceMeter {
  _id: string;
  name?: string;
  utilityType: string;
  meterPointNumber?: string;
  /** The sum of the parts below. */
  figure: ProvenanceFigure;
  bills: ProvenanceBill[];
  others: ProvenanceOtherPart[];
}

export interface ProvenanceSite {
  _id: string;
  siteName?: string;
  /** The sum of the meters' figures when they are listed, else the site's monthly roll-ups. */
  figure: ProvenanceTotals;
  /** Listed when one site or one meter was asked for. */
  meters?: ProvenanceMeter[];
  /**
   * For one site read whole: its monthly roll-ups over the window, the figure Insights shows. It equals the
   * meters' sum unless the roll-ups have drifted from the meters' months and need rebuilding.
   */
  recorded?: ProvenanceTotals;
}

export interface ProvenanceAnswer {
  window: { from: string; to: string };
  utilityType?: string;
  costsIncluded: boolean;
  level: 'company' | 'site' | 'meter';
  /** The sum of the sites' figures. */
  figure: ProvenanceTotals;
  sites: ProvenanceSite[];
}
