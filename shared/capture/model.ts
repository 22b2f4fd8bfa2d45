import type { UtilityType } from '../schemas/common.ts';
import type { BoundingBox } from './textract.ts';

/**
 * The invoice capture model (02 §3 Invoice capture, Template): what a supplier template says about a
 * layout, and what extraction reads from a document. Extraction fills `CaptureResults`; validation and
 * the invoice page read it.
 */

/** The keys a template value or the generic extractor can fill (GET /templates/invoice-keys). */
export const INVOICE_KEYS = [
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'startDate',
  'endDate',
  'accountNumber',
  'meterPointNumber',
  'meterSerialNumber',
  'recipient',
  'siteAddress',
  'openingRead',
  'closingRead',
  'isEstimate',
  'consumption',
  'consumptionUnit',
  'calorificValue',
  'unitRate',
  'standingCharge',
  'climateChangeLevy',
  'netTotal',
  'vatRate',
  'vatTotal',
  'grossTotal',
  'supplierName',
  'currency',
] as const;
export type InvoiceKey = (typeof INVOICE_KEYS)[number];

// ---------------------------------------------------------------- templates

/** Text that must (or must not) appear on a page, as words or as a regular expression. */
export interface TextRule {
  _id: string;
  type: 'contains' | 'regex';
  value: string;
  /** 1-based page of the invoice to look on; absent: any page. */
  page?: number;
  /** The rule holds when the text is absent. */
  negate?: boolean;
}

/** Supplier rules identify the supplier: all rules of a template must hold. */
export type SupplierRule = TextRule;

/** A version of a supplier's layout; suppliers change their bills every few years. */
export interface TemplateVersion {
  _id: string;
  name: string;
  createdAt: string;
}

/** Version rules choose the version: the first version all of whose rules hold wins. */
export interface VersionRule extends TextRule {
  versionId: string;
}

/** How the pages of a document fall into invoices, per version. */
export interface TemplatePages {
  versionId: string;
  /** Marks the first page of each invoice in a document holding several. Absent: one invoice. */
  invoiceStartRule?: TextRule;
  /** Pages per invoice when every invoice is the same length (used when there is no start rule). */
  pagesPerInvoice?: number;
}

/**
 * A rectangle drawn on a page of the sample, in Textract's page fractions. With an anchor the rectangle
 * is placed relative to where the anchor text is found on the page, so a layout that shifts down by a
 * line still reads the right value.
 */
export interface TemplateBound extends BoundingBox {
  _id: string;
  versionId: string;
  name: string;
  /** 1-based page of the invoice; -1 is its last page. */
  page: number;
  anchor?: { text: string; left: number; top: number };
}

export type TemplateValueType = 'text' | 'number' | 'price' | 'date' | 'boolean';

/** One value read from a bound. */
export interface TemplateValue {
  _id: string;
  versionId: string;
  key: InvoiceKey;
  boundId: string;
  type: TemplateValueType;
  /** A price, number or date format of GET /util/template-value-format. */
  format?: string;
  /** Applied to the text of the bound; the first capture group (or the whole match) is the value. */
  regex?: string;
  /** Which meter of a multi-meter invoice the value belongs to (0-based); absent: the invoice. */
  meterIndex?: number;
  utilityType?: UtilityType;
}

export const RATE_COLUMNS = [
  'description',
  'units',
  'unitRate',
  'amount',
  'unit',
  'startDate',
  'endDate',
] as const;
export type RateColumn = (typeof RATE_COLUMNS)[number];

/** Charge lines read as rows of a table within a bound, each column by its horizontal extent. */
export interface TemplateRate {
  _id: string;
  versionId: string;
  boundId: string;
  columns: { field: RateColumn; left: number; right: number; format?: string }[];
  /** Rows whose text matches are skipped (headings, sub-totals). */
  skipRegex?: string;
  meterIndex?: number;
  utilityType?: UtilityType;
}

export interface Template {
  _id: string;
  supplierId: string;
  /** The utility of the invoices it reads. */
  type: UtilityType;
  name?: string;
  status: 'preupload' | 'uploaded' | 'ready';
  /** The sample document the template was drawn on (uploads bucket key). */
  sampleKey?: string;
  supplierRules: SupplierRule[];
  versions: TemplateVersion[];
  versionRules: VersionRule[];
  pages: TemplatePages[];
  bounds: TemplateBound[];
  values: TemplateValue[];
  rates: TemplateRate[];
  createdAt?: string;
  updatedAt?: string;
}

// ---------------------------------------------------------------- extraction results

/** A value as read: normalised (ISO date, pounds, number, boolean), with its text and where it was. */
export interface ExtractedValue {
  value: string | number | boolean | null;
  /** The text on the page the value was read from. */
  text: string;
  /** 1-based page of the document */
  page?: number;
  bbox?: BoundingBox;
  /** 0 to 100 */
  confidence: number;
}

export type ExtractedValues = Partial<Record<InvoiceKey, ExtractedValue>>;

export const RATE_KINDS = ['unit', 'standing', 'ccl', 'vat', 'other'] as const;
export type RateKind = (typeof RATE_KINDS)[number];

/** A charge line of an invoice. Prices are pounds; a unit rate is pounds per unit. */
export interface ExtractedRate {
  _id: string;
  description: string;
  kind: RateKind;
  units?: number;
  /** kWh, m3, day, ... */
  unit?: string;
  unitRate?: number;
  amount?: number;
  startDate?: string;
  endDate?: string;
  page?: number;
  bbox?: BoundingBox;
}

export interface ExtractedReading {
  meterSerialNumber?: string;
  register?: string;
  openingRead?: number;
  closingRead?: number;
  readType: 'actual' | 'estimated' | 'customer';
  consumption?: number;
  date?: string;
}

export interface MeterRef {
  utilityType: UtilityType;
  /** 0-based position of the meter on the invoice */
  index: number;
  meterPointNumber?: string;
  comment?: string;
}

/** Results for one meter are keyed by the invoice's index and the meter's utility type and index. */
export interface MeterKeyed {
  invoiceIndex: number;
  utilityType: UtilityType;
  meterIndex: number;
}

export interface InvoiceExtract {
  /** 0-based position of the invoice in its document */
  index: number;
  /** 1-based pages of the document that hold this invoice */
  pages: number[];
  method: 'template' | 'generic';
  supplierId?: string;
  templateId?: string;
  versionId?: string;
  utilityType?: UtilityType;
  values: ExtractedValues;
  rates: ExtractedRate[];
  multiMeter: { meters: MeterRef[] };
  /** How the totals read without a template agree with each other and with the charges. */
  totalsCheck?: TotalsCheck;
  /** What the bill prints of who sent it besides a name, for a bill read without a template. */
  supplierClues?: SupplierClues;
  /** The supplier named on the bill, as found on the suppliers list (or not). */
  supplierMatch?: SupplierMatch;
}

/** The supplier's VAT numbers, web domains and e-mail domains a bill prints, each written one way. */
export interface SupplierClues {
  /** With their country prefix: 'GB123456789', 'DE136695976'. */
  vatNumbers: string[];
  /** Registered domains of its web addresses: 'northwind-power.co.uk'. */
  webDomains: string[];
  /** Registered domains of its e-mail addresses. */
  mailDomains: string[];
}

/**
 * The supplier list's entry for a bill, by the strongest evidence that found one: its VAT number, its
 * web address, its e-mail domain, then its name; 'none' when no supplier is it.
 */
export interface SupplierMatch {
  /** The name as read from the bill ('' when none was read). */
  read: string;
  how: 'vatNumber' | 'website' | 'email' | 'exact' | 'normalised' | 'fuzzy' | 'none';
  /** What matched when it was not the name: the VAT number or the domain. */
  evidence?: string;
  supplierId?: string;
  /** The matched supplier's name on the list. */
  name?: string;
  /** How alike the names are, 0 to 1, for a fuzzy match. */
  score?: number;
  /** For a supplier to be created when none matched: the VAT number and web domain the bill prints. */
  vatNumber?: string;
  website?: string;
}

/** Whether net + tax makes the total, and the charges table adds up to the net or the total. */
export interface TotalsCheck {
  /** Unset when net, tax or total was not read. */
  taxAdds?: boolean;
  /** Unset when fewer than two charge lines were read. */
  chargesAdd?: boolean;
  /** Whether a statement's balance forward plus its new charges make the amount due; unset when not printed. */
  balanceAdds?: boolean;
  /** Each disagreement, as a reviewer reads it. */
  problems: string[];
}

export interface CaptureResults {
  pageCount: number;
  /** Read by OCR from images rather than from a text layer. */
  ocr: boolean;
  multiInvoice: { invoices: InvoiceExtract[] };
  extractMeterValues: (MeterKeyed & { values: ExtractedValues })[];
  extractRates: (MeterKeyed & { rates: ExtractedRate[] })[];
  extractReadings: (MeterKeyed & { readings: ExtractedReading[] })[];
}
