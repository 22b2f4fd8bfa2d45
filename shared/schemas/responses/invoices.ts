import type { SupplierMatch, TotalsCheck } from '../../capture/model.ts';
import type { BoundingBox } from '../../capture/textract.ts';

/** Answers of the bill calls (`/invoices…`, `/invoice-capture…`, `/invoice-validation…`), as the browser reads them. */

export type CheckStatus = 'passed' | 'warning' | 'failed' | 'skipped';

/** How many checks passed, warned, failed and were skipped. */
export type CheckCounts = Record<CheckStatus, number>;

/** One bill check's outcome. */
export interface CheckResultView {
  key: string;
  /** The rule's group; a result stored by an older release may have none. */
  group?: string;
  name: string;
  status: string;
  reason: string;
}

export interface InvoiceError {
  type: string;
  message: string;
}

/** An invoice as the batch poll answers it (GET /invoices?batchId=). */
export interface PolledInvoice {
  _id: string;
  status: string;
  fileName?: string;
  error?: InvoiceError;
  invoiceNumber?: string;
  sisterId?: string;
  invoiceValidationId?: string;
  /** The bill checks' outcome, once validation has run: pending, passed, warning, failed or error */
  validationStatus?: string;
}

/** POST /invoices/captur-upload and POST /invoice-capture/upload. */
export interface InvoiceUploadTicket {
  _id: string;
  batchId: string;
  key: string;
  uploadUrl: string;
  fileName: string;
  status: string;
  headers?: Record<string, string>;
}

/** What a queue row shows of its bill: where it is, for when and how much. */
export interface BillSummary {
  siteName?: string;
  meterName?: string;
  meterPointNumber?: string;
  startDate?: string;
  endDate?: string;
  grossTotal?: number;
}

export interface ValidationItem {
  _id: string;
  invoiceId: string;
  status: string;
  completed: boolean;
  hold: boolean;
  tags?: string[];
  assignedUserId?: string;
  supplierId?: string;
  accountId?: string;
  displayName: string;
  invoiceNumber?: string;
  invoiceCapture?: { _id: string; userSub?: string; fileName?: string; source?: string };
  /** What the bill is: where, for when and how much; absent until it has been validated. */
  bill?: BillSummary;
  results?: CheckResultView[];
  /** How many checks passed, warned, failed and were skipped. */
  summary?: Partial<CheckCounts>;
  reason?: string;
  createdAt: string;
}

export interface CaptureItem {
  _id: string;
  fileName: string;
  status: string;
  source?: string;
  error?: InvoiceError;
  invoiceIds?: string[];
  createdAt: string;
}

export interface ExtractedValueView {
  value: string | number | boolean | null;
  text?: string;
  page?: number;
  bbox?: BoundingBox;
  confidence?: number;
}

export interface RateView {
  _id: string;
  description: string;
  kind: string;
  units?: number;
  unit?: string;
  unitRate?: number;
  amount?: number;
}

export interface InvoiceAccount {
  _id: string;
  name?: string;
  meterPointNumber?: string;
  assetId?: string;
  siteName?: string;
}

/** GET /invoices/{id}. */
export interface InvoiceView {
  _id: string;
  status: string;
  fileName?: string;
  /** Where its document is stored; absent when it has none (imported as data). */
  key?: string;
  accountId?: string;
  account?: InvoiceAccount;
  values: Record<string, unknown>;
  results?: {
    values?: Record<string, ExtractedValueView | undefined>;
    pages?: number[];
    method?: string;
    pageCount?: number;
    /** Set when the invoice was read without a template. */
    totalsCheck?: TotalsCheck;
    supplierMatch?: SupplierMatch;
  };
  rates?: RateView[];
  completed?: boolean;
  isCreditNote?: boolean;
  invoiceValidationId?: string;
  invoiceNumber?: string;
  invoiceStartDate?: string;
  invoiceEndDate?: string;
  grossTotal?: number;
  error?: InvoiceError;
  deleted?: boolean;
  stamped?: boolean;
  createdAt?: string;
}

export interface ValidationSummary {
  invoice?: InvoiceView;
  validation?: ValidationItem;
  account?: InvoiceAccount;
}

export interface FileLink {
  url: string;
  name?: string;
}

export interface UserOption {
  userSub: string;
  name?: string;
  email?: string;
}

/** What a bulk call answers: how many it changed, and which it could not (and why). */
export interface BulkAnswer {
  updated: number;
  missing?: string[];
  failed?: { id: string; message: string; formMessages?: Record<string, string> }[];
}

/** POST /invoices/manual-upload without a key: where to PUT the document. */
export interface ManualTicket {
  key: string;
  fileName: string;
  status: 'uploading';
  uploadUrl: string;
  headers?: Record<string, string>;
}
