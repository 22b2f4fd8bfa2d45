import type { ExtractedRate, ExtractedReading, ExtractedValues, InvoiceKey } from '../capture/model.ts';
import type { UtilityType } from '../schemas/common.ts';
import type { VALIDATION_STATUSES } from '../schemas/invoice-validation.ts';

/**
 * What the checks know about a bill and its account. Money is in pounds as read (a credit note's
 * amounts are negative), dates are YYYY-MM-DD, the VAT rate is a percentage (20, not 0.2).
 */
export interface InvoiceFacts {
  invoiceNumber?: string;
  supplierId?: string;
  utilityType?: UtilityType;
  accountId?: string;
  /** MPAN (core or full) for electricity, MPRN for gas */
  meterPointNumber?: string;
  meterSerialNumber?: string;
  invoiceDate?: string;
  startDate?: string;
  endDate?: string;
  openingRead?: number;
  closingRead?: number;
  isEstimate?: boolean;
  consumption?: number;
  /** Absent: the utility's default unit. */
  consumptionUnit?: string;
  /** Gas read by volume: the calorific value printed on the bill, MJ/m³ */
  calorificValue?: number;
  /** A single unit rate printed on the bill (pounds per unit), for bills without unit lines. */
  unitRate?: number;
  /** The standing charge amount for the period, in pounds. */
  standingCharge?: number;
  climateChangeLevy?: number;
  netTotal?: number;
  vatRate?: number;
  vatTotal?: number;
  grossTotal?: number;
  /** ISO code of the currency the bill's amounts are in; absent: not marked, taken as pounds. */
  currency?: string;
  rates: ExtractedRate[];
  readings: ExtractedReading[];
  isCreditNote: boolean;
}

export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

/** Another bill the checks compare with. */
export interface PriorInvoice {
  id: string;
  status: ValidationStatus;
  facts: InvoiceFacts;
}

export interface AccountFacts {
  id?: string;
  utilityType: UtilityType;
  meterPointNumber?: string;
  meterSerialNumber?: string;
  /** Domestic supply: reduced VAT, no Climate Change Levy, back-billing protection. */
  domestic?: boolean;
  /** Charity non-business use: reduced VAT, no Climate Change Levy. */
  charity?: boolean;
  /** Exempt from the Climate Change Levy for another reason (an exemption certificate). */
  cclExempt?: boolean;
  /** Holds a climate change agreement: the levy at the reduced share. */
  climateChangeAgreement?: boolean;
  /** Back-billing protection. */
  microbusiness?: boolean;
}

export interface ConsumptionMonth {
  /** YYYY-MM */
  month: string;
  consumption: number;
  unit: string;
}

export interface ContractRate {
  name: string;
  kind: 'unit' | 'standing';
  /** Pounds per unit */
  rate: number;
  /** kWh, MWh, m³, day, ... */
  unit: string;
  /** YYYY-MM-DD, inclusive; absent: open */
  validFrom?: string;
  validTo?: string;
}

export interface ValidationContext {
  /** The id of the bill being validated, so that it is not compared with itself. */
  invoiceId?: string;
  /** The account the bill was matched to; absent: the bill cannot be validated. */
  account?: AccountFacts;
  /** The account's other bills and credit notes, of any date. */
  previousInvoices: PriorInvoice[];
  /** Bills of any account of the company that have the bill's supplier invoice number. */
  sameNumberInvoices: PriorInvoice[];
  /** The account's consumption by calendar month. */
  consumptionHistory: ConsumptionMonth[];
  contractRates: ContractRate[];
  /** Absent: the length of the previous bill stands in for it. */
  billingCycleDays?: number;
  /** YYYY-MM-DD */
  today: string;
}

// ---------------------------------------------------------------- from an extract

function raw(values: ExtractedValues, key: InvoiceKey): string | number | boolean | null | undefined {
  return values[key]?.value;
}

function text(values: ExtractedValues, key: InvoiceKey): string | undefined {
  const v = raw(values, key);
  if (v === null || v === undefined || typeof v === 'boolean') return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : s;
}

function num(values: ExtractedValues, key: InvoiceKey): number | undefined {
  const v = raw(values, key);
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

function date(values: ExtractedValues, key: InvoiceKey): string | undefined {
  const s = text(values, key);
  return s && /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : undefined;
}

function bool(values: ExtractedValues, key: InvoiceKey): boolean | undefined {
  const v = raw(values, key);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (/^(true|yes|y|e|estimated?)$/i.test(v.trim())) return true;
    if (/^(false|no|n|a|actual)$/i.test(v.trim())) return false;
  }
  return undefined;
}

function sum(values: (number | undefined)[]): number | undefined {
  if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
  return values.reduce<number>((a, b) => a + (b ?? 0), 0);
}

export interface ExtractExtras {
  supplierId?: string;
  utilityType?: UtilityType;
  accountId?: string;
  /** The meter point of the meter the values belong to (MeterRef), when the values do not name it. */
  meterPointNumber?: string;
  /** Absent: a bill whose total (or net) is negative is a credit note. */
  isCreditNote?: boolean;
}

/**
 * The facts of a bill from what capture read (values already normalised: ISO dates, pounds, numbers).
 * Gaps are filled from the lines and readings where they say the same thing: consumption from the
 * readings or the unit lines, VAT from VAT lines, reads from a single reading. A credit note printed with
 * positive amounts gets them negated, so that it offsets the bill it credits.
 */
export function factsFromExtract(
  values: ExtractedValues,
  rates: ExtractedRate[],
  readings: ExtractedReading[],
  extras: ExtractExtras = {},
): InvoiceFacts {
  const unitLines = rates.filter((r) => r.kind === 'unit');
  const single = readings.length === 1 ? readings[0] : undefined;
  let consumption = num(values, 'consumption');
  let consumptionUnit = text(values, 'consumptionUnit');
  if (consumption === undefined && readings.length > 0) consumption = sum(readings.map((r) => r.consumption));
  const lineUnits = new Set(unitLines.map((r) => r.unit ?? ''));
  if (consumption === undefined && unitLines.length > 0 && lineUnits.size === 1) {
    consumption = sum(unitLines.map((r) => r.units));
    if (consumption !== undefined && !consumptionUnit) consumptionUnit = unitLines[0]?.unit || undefined;
  }

  let vatRate = num(values, 'vatRate');
  // A rate read as a fraction ("0.2") rather than a percentage; no VAT rate is under 1%.
  if (vatRate !== undefined && vatRate > 0 && vatRate < 1) vatRate = Math.round(vatRate * 10000) / 100;
  const vatLines = rates.filter((r) => r.kind === 'vat');
  const vatTotal =
    num(values, 'vatTotal') ?? (vatLines.length > 0 ? sum(vatLines.map((r) => r.amount)) : undefined);

  const facts: InvoiceFacts = {
    invoiceNumber: text(values, 'invoiceNumber'),
    supplierId: extras.supplierId,
    utilityType: extras.utilityType,
    accountId: extras.accountId,
    meterPointNumber: text(values, 'meterPointNumber') ?? extras.meterPointNumber,
    meterSerialNumber: text(values, 'meterSerialNumber') ?? single?.meterSerialNumber,
    invoiceDate: date(values, 'invoiceDate'),
    startDate: date(values, 'startDate'),
    endDate: date(values, 'endDate'),
    openingRead: num(values, 'openingRead') ?? single?.openingRead,
    closingRead: num(values, 'closingRead') ?? single?.closingRead,
    isEstimate: bool(values, 'isEstimate'),
    consumption,
    consumptionUnit,
    calorificValue: num(values, 'calorificValue'),
    unitRate: num(values, 'unitRate'),
    standingCharge: num(values, 'standingCharge'),
    climateChangeLevy: num(values, 'climateChangeLevy'),
    netTotal: num(values, 'netTotal'),
    currency: text(values, 'currency')?.toUpperCase(),
    vatRate,
    vatTotal,
    grossTotal: num(values, 'grossTotal'),
    rates,
    readings,
    isCreditNote: false,
  };
  const total = facts.grossTotal ?? facts.netTotal;
  facts.isCreditNote = extras.isCreditNote ?? (total !== undefined && total < 0);
  if (facts.isCreditNote && total !== undefined && total > 0) return negated(facts);
  return facts;
}

function flip(v: number | undefined): number | undefined {
  return v === undefined || v === 0 ? v : -v;
}

/** A credit note's money turned to credits; quantities, rates and reads stay as printed. */
function negated(facts: InvoiceFacts): InvoiceFacts {
  return {
    ...facts,
    standingCharge: flip(facts.standingCharge),
    climateChangeLevy: flip(facts.climateChangeLevy),
    netTotal: flip(facts.netTotal),
    vatTotal: flip(facts.vatTotal),
    grossTotal: flip(facts.grossTotal),
    rates: facts.rates.map((r) => (r.amount === undefined ? r : { ...r, amount: flip(r.amount) })),
  };
}
