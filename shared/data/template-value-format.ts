/**
 * What an invoice template can read from a supplier's invoice (02 §3 Template, Price formats): the values
 * it extracts, their types, and the formats prices and dates are written in on the page.
 */
export const TEMPLATE_VALUE_FORMAT_VERSION = '2025.1';

export const TEMPLATE_VALUE_TYPES = ['text', 'number', 'price', 'date', 'boolean'] as const;
export type TemplateValueType = (typeof TEMPLATE_VALUE_TYPES)[number];

export interface TemplateValueOption {
  value: string;
  name: string;
  type: TemplateValueType;
}

export const TEMPLATE_VALUES: readonly TemplateValueOption[] = [
  { value: 'invoiceNumber', name: 'Invoice number', type: 'text' },
  { value: 'invoiceDate', name: 'Invoice date', type: 'date' },
  { value: 'dueDate', name: 'Payment due', type: 'date' },
  { value: 'startDate', name: 'Period start', type: 'date' },
  { value: 'endDate', name: 'Period end', type: 'date' },
  { value: 'accountNumber', name: 'Account number', type: 'text' },
  { value: 'meterPointNumber', name: 'Meter point number', type: 'text' },
  { value: 'meterSerialNumber', name: 'Meter serial number', type: 'text' },
  { value: 'recipient', name: 'Recipient', type: 'text' },
  { value: 'siteAddress', name: 'Supply address', type: 'text' },
  { value: 'openingRead', name: 'Opening read', type: 'number' },
  { value: 'closingRead', name: 'Closing read', type: 'number' },
  { value: 'isEstimate', name: 'Estimated read', type: 'boolean' },
  { value: 'consumption', name: 'Consumption', type: 'number' },
  { value: 'consumptionUnit', name: 'Consumption unit', type: 'text' },
  { value: 'calorificValue', name: 'Calorific value (MJ/m³)', type: 'number' },
  { value: 'unitRate', name: 'Unit rate', type: 'price' },
  { value: 'standingCharge', name: 'Standing charge', type: 'price' },
  { value: 'climateChangeLevy', name: 'Climate Change Levy', type: 'price' },
  { value: 'netTotal', name: 'Net total', type: 'price' },
  { value: 'vatRate', name: 'VAT rate', type: 'number' },
  { value: 'vatTotal', name: 'VAT', type: 'price' },
  { value: 'grossTotal', name: 'Total', type: 'price' },
  { value: 'supplierName', name: 'Supplier', type: 'text' },
  { value: 'currency', name: 'Currency (ISO code)', type: 'text' },
];

export interface PriceFormat {
  /** How the format is shown and stored, e.g. '£0,000.00'. */
  value: string;
  thousands: ',' | '.' | ' ' | '';
  decimal: '.' | ',';
  currency: 'before' | 'after' | 'none';
}

/** The ten ways invoices write an amount (02 §3). */
export const PRICE_FORMATS: readonly PriceFormat[] = [
  { value: '£0,000.00', thousands: ',', decimal: '.', currency: 'before' },
  { value: '£0.000,00', thousands: '.', decimal: ',', currency: 'before' },
  { value: '£0 000.00', thousands: ' ', decimal: '.', currency: 'before' },
  { value: '£0000.00', thousands: '', decimal: '.', currency: 'before' },
  { value: '0,000.00 £', thousands: ',', decimal: '.', currency: 'after' },
  { value: '0.000,00 £', thousands: '.', decimal: ',', currency: 'after' },
  { value: '0 000,00 £', thousands: ' ', decimal: ',', currency: 'after' },
  { value: '0,000.00', thousands: ',', decimal: '.', currency: 'none' },
  { value: '0.000,00', thousands: '.', decimal: ',', currency: 'none' },
  { value: '0000.00', thousands: '', decimal: '.', currency: 'none' },
];

/** Date layouts seen on invoices, in the tokens of common date libraries. */
export const DATE_FORMATS: readonly { value: string; example: string }[] = [
  { value: 'DD/MM/YYYY', example: '31/01/2025' },
  { value: 'DD/MM/YY', example: '31/01/25' },
  { value: 'DD-MM-YYYY', example: '31-01-2025' },
  { value: 'DD.MM.YYYY', example: '31.01.2025' },
  { value: 'D MMM YYYY', example: '31 Jan 2025' },
  { value: 'DD MMM YYYY', example: '31 Jan 2025' },
  { value: 'D MMMM YYYY', example: '31 January 2025' },
  { value: 'MMM YYYY', example: 'Jan 2025' },
  { value: 'YYYY-MM-DD', example: '2025-01-31' },
  { value: 'MM/DD/YYYY', example: '01/31/2025' },
];

/** Number layouts for plain quantities (reads, consumption). */
export const NUMBER_FORMATS: readonly {
  value: string;
  thousands: ',' | '.' | ' ' | '';
  decimal: '.' | ',';
}[] = [
  { value: '0,000.00', thousands: ',', decimal: '.' },
  { value: '0.000,00', thousands: '.', decimal: ',' },
  { value: '0 000,00', thousands: ' ', decimal: ',' },
  { value: '0000.00', thousands: '', decimal: '.' },
];

/** The answer of GET /util/template-value-format. */
export const TEMPLATE_VALUE_FORMAT = {
  version: TEMPLATE_VALUE_FORMAT_VERSION,
  values: TEMPLATE_VALUES,
  types: TEMPLATE_VALUE_TYPES,
  formats: { price: PRICE_FORMATS, date: DATE_FORMATS, number: NUMBER_FORMATS },
} as const;
