import type { Template } from '../../../shared/capture/model.ts';
import { at, type Line, mpan, type PageSpec, row } from './blocks.ts';

/**
 * Invoices of made-up suppliers laid out as their bills would be, and a template drawn on one of them.
 */

export interface BrightwattOptions {
  /** How far everything below the heading moved down (page fractions). */
  dy?: number;
  invoiceNumber?: string;
  mpanText?: string;
  closingMarker?: string;
}

/** A one-page electricity bill: the charges as aligned rows, totals at the bottom right. */
export function brightwatt(options: BrightwattOptions = {}): Line[] {
  const dy = options.dy ?? 0;
  const y = (v: number) => v + dy;
  return [
    at(0.1, 0.04, 'Brightwatt Energy Ltd'),
    at(0.1, 0.065, 'Business electricity invoice'),
    ...row(y(0.12), [0.1, 'Invoice number'], [0.35, options.invoiceNumber ?? 'BW-1001']),
    ...row(y(0.14), [0.1, 'Invoice date'], [0.35, '05/02/2025']),
    ...row(y(0.16), [0.1, 'Account number'], [0.35, '55512345']),
    ...row(y(0.18), [0.1, 'Billing period'], [0.35, '01/01/2025 to 31/01/2025']),
    ...row(y(0.2), [0.1, 'Payment due'], [0.35, '19/02/2025']),
    ...row(y(0.22), [0.1, 'MPAN'], [0.35, options.mpanText ?? '13 1234 5678 907']),
    ...row(y(0.3), [0.1, 'Meter serial'], [0.3, 'Previous read'], [0.5, 'Present read'], [0.7, 'Units']),
    ...row(
      y(0.32),
      [0.1, 'E12K34567'],
      [0.3, '10000 A'],
      [0.5, `11500 ${options.closingMarker ?? 'E'}`],
      [0.7, '1500'],
    ),
    ...row(y(0.4), [0.1, 'Description'], [0.45, 'Units'], [0.6, 'Rate'], [0.8, 'Amount']),
    ...row(y(0.42), [0.1, 'Day units'], [0.45, '1,000 kWh'], [0.6, '25.123p'], [0.8, '£251.23']),
    ...row(y(0.44), [0.1, 'Night units'], [0.45, '500 kWh'], [0.6, '15.000p'], [0.8, '£75.00']),
    ...row(y(0.46), [0.1, 'Standing charge'], [0.45, '31 days'], [0.6, '45.00p'], [0.8, '£13.95']),
    ...row(y(0.48), [0.1, 'Climate Change Levy'], [0.45, '1,500 kWh'], [0.6, '0.775p'], [0.8, '£11.63']),
    ...row(y(0.52), [0.6, 'Net total'], [0.8, '£351.81']),
    ...row(y(0.54), [0.6, 'VAT @ 20%'], [0.8, '£70.36']),
    ...row(y(0.56), [0.6, 'Total amount due'], [0.8, '£422.17']),
  ];
}

/** The template drawn on the Brightwatt sample: anchored bounds, a rate table with pence rates. */
export function brightwattTemplate(): Template {
  const v = 'v2';
  return {
    _id: 'tpl-bw',
    supplierId: 'sup-bw',
    type: 'electricity',
    status: 'ready',
    supplierRules: [{ _id: 'sr1', type: 'contains', value: 'Brightwatt Energy' }],
    versions: [
      { _id: 'v1', name: '2019 layout', createdAt: '2019-01-01T00:00:00.000Z' },
      { _id: v, name: '2024 layout', createdAt: '2024-01-01T00:00:00.000Z' },
    ],
    versionRules: [
      { _id: 'vr1', versionId: 'v1', type: 'contains', value: 'Customer reference' },
      { _id: 'vr2', versionId: v, type: 'regex', value: 'Invoice number\\s+BW-' },
    ],
    pages: [{ versionId: v }],
    bounds: [
      {
        _id: 'b-inv',
        versionId: v,
        name: 'Invoice number',
        page: 1,
        Left: 0.33,
        Top: 0.112,
        Width: 0.2,
        Height: 0.026,
        anchor: { text: 'Invoice number', left: 0.1, top: 0.12 },
      },
      {
        _id: 'b-date',
        versionId: v,
        name: 'Invoice date',
        page: 1,
        Left: 0.33,
        Top: 0.135,
        Width: 0.2,
        Height: 0.02,
      },
      {
        _id: 'b-period',
        versionId: v,
        name: 'Period',
        page: 1,
        Left: 0.33,
        Top: 0.175,
        Width: 0.4,
        Height: 0.02,
        anchor: { text: 'Billing period', left: 0.1, top: 0.18 },
      },
      {
        _id: 'b-reads',
        versionId: v,
        name: 'Reads',
        page: 1,
        Left: 0.05,
        Top: 0.315,
        Width: 0.9,
        Height: 0.02,
        anchor: { text: 'Previous read', left: 0.3, top: 0.3 },
      },
      {
        _id: 'b-rates',
        versionId: v,
        name: 'Charges',
        page: 1,
        Left: 0.05,
        Top: 0.395,
        Width: 0.9,
        Height: 0.1,
        anchor: { text: 'Description', left: 0.1, top: 0.4 },
      },
      {
        _id: 'b-total',
        versionId: v,
        name: 'Total',
        page: -1,
        Left: 0.55,
        Top: 0.555,
        Width: 0.4,
        Height: 0.02,
        anchor: { text: 'Total amount due', left: 0.6, top: 0.56 },
      },
    ],
    values: [
      { _id: 'tv1', versionId: v, key: 'invoiceNumber', boundId: 'b-inv', type: 'text' },
      { _id: 'tv2', versionId: v, key: 'invoiceDate', boundId: 'b-date', type: 'date', format: 'DD/MM/YYYY' },
      {
        _id: 'tv3',
        versionId: v,
        key: 'startDate',
        boundId: 'b-period',
        type: 'date',
        format: 'DD/MM/YYYY',
        regex: '^(\\S+)',
      },
      {
        _id: 'tv4',
        versionId: v,
        key: 'endDate',
        boundId: 'b-period',
        type: 'date',
        format: 'DD/MM/YYYY',
        regex: 'to\\s+(\\S+)',
      },
      {
        _id: 'tv5',
        versionId: v,
        key: 'openingRead',
        boundId: 'b-reads',
        type: 'number',
        regex: '^\\S+\\s+(\\d+)',
      },
      {
        _id: 'tv6',
        versionId: v,
        key: 'closingRead',
        boundId: 'b-reads',
        type: 'number',
        regex: '^\\S+\\s+\\d+\\s+\\w\\s+(\\d+)',
      },
      {
        _id: 'tv7',
        versionId: v,
        key: 'isEstimate',
        boundId: 'b-reads',
        type: 'boolean',
        regex: '^\\S+\\s+\\d+\\s+\\w\\s+\\d+\\s+(\\w)',
      },
      { _id: 'tv8', versionId: v, key: 'grossTotal', boundId: 'b-total', type: 'price', format: '£0,000.00' },
    ],
    rates: [
      {
        _id: 'r1',
        versionId: v,
        boundId: 'b-rates',
        skipRegex: '^Description',
        columns: [
          { field: 'description', left: 0.05, right: 0.44 },
          { field: 'units', left: 0.44, right: 0.58 },
          { field: 'unitRate', left: 0.58, right: 0.78 },
          { field: 'amount', left: 0.78, right: 0.95, format: '£0,000.00' },
        ],
      },
    ],
  };
}

export const METER_A = '2099999999993';
export const METER_B = '1312345678907';

/** A two-page bill for two electricity supplies, each with its own section, totals on the last page. */
export function northgrid(): PageSpec[] {
  const meter = (
    y: number,
    n: number,
    mpanText: string,
    serial: string,
    reads: [string, string],
    units: number,
  ) => [
    at(0.1, y, `Supply ${n}`),
    ...row(y + 0.02, [0.1, 'MPAN'], [0.35, mpanText]),
    ...row(y + 0.04, [0.1, 'Meter serial number'], [0.35, serial]),
    ...row(y + 0.06, [0.1, 'Previous reading'], [0.35, reads[0]]),
    ...row(y + 0.08, [0.1, 'Present reading'], [0.35, reads[1]]),
    ...row(y + 0.1, [0.1, 'Consumption'], [0.35, `${units} kWh`]),
    ...row(
      y + 0.12,
      [0.1, 'Unit charge'],
      [0.35, `${units} kWh @ 20.00p`],
      [0.8, `£${(units * 0.2).toFixed(2)}`],
    ),
    ...row(y + 0.14, [0.1, 'Standing charge'], [0.35, '31 days @ 50.00p'], [0.8, '£15.50']),
  ];
  return [
    {
      lines: [
        at(0.1, 0.04, 'Northgrid Power plc'),
        ...row(0.1, [0.1, 'Invoice No.'], [0.35, 'NG/2025/0042']),
        ...row(0.12, [0.1, 'Date of invoice'], [0.35, '3rd February 2025']),
        ...row(0.14, [0.1, 'Account no'], [0.35, 'ACC-778899']),
        at(0.1, 0.16, 'Charges for the period 1 Jan 2025 - 31 Jan 2025'),
        ...meter(0.25, 1, '20 9999 9999 993', 'K1111111', ['5000 A', '5800 A'], 800),
        ...meter(0.55, 2, `S 02 801 100 ${METER_B}`, 'K2222222', ['700 E', '900 E'], 200),
      ],
    },
    {
      lines: [
        at(0.1, 0.04, 'Northgrid Power plc'),
        ...row(0.2, [0.5, 'Total charges before VAT'], [0.8, '£231.00']),
        ...row(0.22, [0.5, 'VAT at 20%'], [0.8, '£46.20']),
        ...row(0.24, [0.5, 'Amount due'], [0.8, '£277.20']),
      ],
    },
  ];
}

/** Valid MPANs for tests that need more meters. */
export const MPAN_C = mpan('141234567890');
