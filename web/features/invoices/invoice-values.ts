import { INVOICE_KEYS, type InvoiceKey, RATE_KINDS, type RateKind } from '../../../shared/capture/model.ts';
import { formatNumber } from '../../lib/format.ts';

/** An amount in pounds, to the penny; nothing for no amount. */
export const money = (n: number | undefined) =>
  n === undefined ? '' : `£${formatNumber(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The editable values of an invoice, each with the input its type calls for. */
export type ValueType = 'text' | 'date' | 'number' | 'price' | 'percent' | 'boolean';

export interface ValueField {
  key: InvoiceKey;
  label: string;
  type: ValueType;
}

const TYPES: Partial<Record<InvoiceKey, ValueType>> = {
  invoiceDate: 'date',
  dueDate: 'date',
  startDate: 'date',
  endDate: 'date',
  openingRead: 'number',
  closingRead: 'number',
  consumption: 'number',
  calorificValue: 'number',
  unitRate: 'price',
  standingCharge: 'price',
  climateChangeLevy: 'price',
  netTotal: 'price',
  vatTotal: 'price',
  grossTotal: 'price',
  vatRate: 'percent',
  isEstimate: 'boolean',
};

const LABELS: Record<InvoiceKey, string> = {
  invoiceNumber: 'Invoice number',
  invoiceDate: 'Invoice date',
  dueDate: 'Due date',
  startDate: 'Period start',
  endDate: 'Period end',
  accountNumber: 'Account number',
  meterPointNumber: 'Meter point number',
  meterSerialNumber: 'Meter serial number',
  recipient: 'Recipient',
  siteAddress: 'Site address',
  openingRead: 'Opening read',
  closingRead: 'Closing read',
  isEstimate: 'Estimated read',
  consumption: 'Consumption',
  consumptionUnit: 'Consumption unit',
  calorificValue: 'Calorific value (MJ/m³)',
  unitRate: 'Unit rate (£)',
  standingCharge: 'Standing charge (£)',
  climateChangeLevy: 'Climate Change Levy (£)',
  netTotal: 'Net total (£)',
  vatRate: 'VAT rate (%)',
  vatTotal: 'VAT total (£)',
  grossTotal: 'Gross total (£)',
  supplierName: 'Supplier (as printed)',
  currency: 'Currency',
};

export const VALUE_FIELDS: readonly ValueField[] = INVOICE_KEYS.map((key) => ({
  key,
  label: LABELS[key],
  type: TYPES[key] ?? 'text',
}));

export type Value = string | number | boolean | null;

/** The text an input shows for a stored value. */
export function inputOf(type: ValueType, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (type === 'boolean') return value === true ? 'true' : value === false ? 'false' : '';
  if (type === 'date' && typeof value === 'string')
    return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '';
  return String(value);
}

export type Parsed = { ok: true; value: Value } | { ok: false; message: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/**
 * What an input's text means as a value: empty clears it; dates are YYYY-MM-DD; numbers and prices
 * accept grouping commas and a pound sign; a price keeps at most 4 decimals (unit rates run to pence
 * fractions), a percent is between 0 and 100.
 */
export function parseValue(type: ValueType, text: string): Parsed {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  switch (type) {
    case 'text':
      return { ok: true, value: t };
    case 'boolean':
      return t === 'true' || t === 'false'
        ? { ok: true, value: t === 'true' }
        : { ok: false, message: 'Choose yes or no' };
    case 'date':
      return isRealDate(t) ? { ok: true, value: t } : { ok: false, message: 'Must be a date as YYYY-MM-DD' };
    default: {
      const cleaned = t.replace(/[£,\s%]/g, '');
      if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return { ok: false, message: 'Must be a number' };
      const n = Number(cleaned);
      if (type === 'percent' && (n < 0 || n > 100))
        return { ok: false, message: 'Must be between 0 and 100' };
      if (type === 'price') return { ok: true, value: Math.round(n * 10_000) / 10_000 };
      return { ok: true, value: n };
    }
  }
}

/** Inputs as typed, keyed by value. */
export type Drafts = Partial<Record<InvoiceKey, string>>;

export interface DraftCheck {
  /** Values whose meaning differs from the stored one. */
  changes: Partial<Record<InvoiceKey, Value>>;
  errors: Partial<Record<InvoiceKey, string>>;
}

/** Reads the drafts against the stored values: what changed, and what cannot be read. */
export function checkDrafts(stored: Record<string, unknown>, drafts: Drafts): DraftCheck {
  const changes: DraftCheck['changes'] = {};
  const errors: DraftCheck['errors'] = {};
  for (const field of VALUE_FIELDS) {
    const draft = drafts[field.key];
    if (draft === undefined) continue;
    const parsed = parseValue(field.type, draft);
    if (!parsed.ok) {
      errors[field.key] = parsed.message;
      continue;
    }
    const before = stored[field.key] ?? null;
    if (parsed.value !== before) changes[field.key] = parsed.value;
  }
  const after = (key: 'startDate' | 'endDate') => (key in changes ? changes[key] : stored[key]);
  const start = after('startDate');
  const end = after('endDate');
  if (
    typeof start === 'string' &&
    typeof end === 'string' &&
    end < start &&
    !errors.startDate &&
    !errors.endDate
  )
    errors.endDate = 'The period must end on or after its start';
  return { changes, errors };
}

// ---------------------------------------------------------------- rates

export interface RateDraft {
  description: string;
  kind: RateKind;
  units: string;
  unit: string;
  unitRate: string;
  amount: string;
}

export const EMPTY_RATE: RateDraft = {
  description: '',
  kind: 'unit',
  units: '',
  unit: '',
  unitRate: '',
  amount: '',
};
export const RATE_KIND_LABELS: Record<RateKind, string> = {
  unit: 'Unit charge',
  standing: 'Standing charge',
  ccl: 'Climate Change Levy',
  vat: 'VAT',
  other: 'Other',
};
export { RATE_KINDS };

export interface RateBody {
  description: string;
  kind: RateKind;
  units?: number;
  unit?: string;
  unitRate?: number;
  amount?: number;
}

/** A rate row as typed: a description and an amount at least; numbers must read as numbers. */
export function parseRate(
  draft: RateDraft,
): { ok: true; rate: RateBody } | { ok: false; errors: Partial<Record<keyof RateDraft, string>> } {
  const errors: Partial<Record<keyof RateDraft, string>> = {};
  const num = (field: 'units' | 'unitRate' | 'amount', type: ValueType) => {
    const p = parseValue(type, draft[field]);
    if (!p.ok) errors[field] = p.message;
    return p.ok && typeof p.value === 'number' ? p.value : undefined;
  };
  const units = num('units', 'number');
  const unitRate = num('unitRate', 'price');
  const amount = num('amount', 'price');
  if (!draft.description.trim()) errors.description = 'This field is required';
  if (draft.amount.trim() === '' && !errors.amount) errors.amount = 'This field is required';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    rate: {
      description: draft.description.trim(),
      kind: draft.kind,
      ...(units !== undefined ? { units } : {}),
      ...(draft.unit.trim() ? { unit: draft.unit.trim() } : {}),
      ...(unitRate !== undefined ? { unitRate } : {}),
      ...(amount !== undefined ? { amount } : {}),
    },
  };
}

/** Units times rate, when both are there: what the amount should be, to the penny. */
export function expectedAmount(rate: { units?: number; unitRate?: number }): number | undefined {
  if (rate.units === undefined || rate.unitRate === undefined) return undefined;
  return Math.round(rate.units * rate.unitRate * 100) / 100;
}
