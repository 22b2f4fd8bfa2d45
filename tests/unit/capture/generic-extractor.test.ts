import { describe, expect, it } from 'vitest';
import { extractGeneric, splitGeneric } from '../../../shared/capture/generic-extractor.ts';
import { findMpans } from '../../../shared/capture/meter-points.ts';
import type { ExtractedValues } from '../../../shared/capture/model.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import type { ExpenseAnalysis } from '../../../shared/capture/textract.ts';
import { analysis, at, expense, type Line, type PageSpec, row, summaryField } from './blocks.ts';
import { brightwatt, METER_A, METER_B, MPAN_C, northgrid } from './sample-invoices.ts';

function read(pages: (Line[] | PageSpec)[], expenseAnalysis?: ExpenseAnalysis) {
  const doc = buildPages(analysis(pages));
  return extractGeneric(
    doc,
    doc.pages.map((p) => p.number),
    expenseAnalysis,
  );
}

const plain = (values: ExtractedValues) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v?.value]));

describe('generic extraction of a whole bill', () => {
  it('reads every field of a bill it has never seen', () => {
    const result = read([brightwatt()]);
    expect(result.utilityType).toBe('electricity');
    expect(plain(result.values)).toEqual({
      invoiceNumber: 'BW-1001',
      invoiceDate: '2025-02-05',
      accountNumber: '55512345',
      startDate: '2025-01-01',
      endDate: '2025-01-31',
      dueDate: '2025-02-19',
      meterPointNumber: '1312345678907',
      meterSerialNumber: 'E12K34567',
      openingRead: 10000,
      closingRead: 11500,
      isEstimate: true,
      consumption: 1500,
      consumptionUnit: 'kWh',
      standingCharge: 13.95,
      climateChangeLevy: 11.63,
      netTotal: 351.81,
      vatRate: 20,
      vatTotal: 70.36,
      grossTotal: 422.17,
      supplierName: 'Brightwatt Energy Ltd',
      currency: 'GBP',
    });
  });

  it('gives a unit rate only when the energy is billed at one rate', () => {
    expect(read([brightwatt()]).values.unitRate).toBeUndefined();
    const single = brightwatt().filter(
      (l) => !['Night units', '500 kWh', '15.000p', '£75.00'].includes(l.text),
    );
    expect(read([single]).values.unitRate?.value).toBe(0.25123);
  });

  it('keeps the text, page and box of each value', () => {
    const { values } = read([brightwatt()]);
    expect(values.grossTotal).toMatchObject({ text: '£422.17', page: 1, confidence: 99 });
    expect(values.grossTotal?.bbox?.Left).toBeCloseTo(0.8);
    expect(values.meterPointNumber?.text).toBe('13 1234 5678 907');
  });

  it('reads charge lines from aligned rows with pence rates in pounds', () => {
    const { rates } = read([brightwatt()]);
    expect(rates.map((r) => [r.kind, r.description, r.units, r.unitRate, r.amount])).toEqual([
      ['unit', 'Day units', 1000, 0.25123, 251.23],
      ['unit', 'Night units', 500, 0.15, 75],
      ['standing', 'Standing charge', 31, 0.45, 13.95],
      ['ccl', 'Climate Change Levy', 1500, 0.00775, 11.63],
    ]);
  });

  it('reads the meter and its reading with the marker of an actual read', () => {
    const { meters } = read([brightwatt({ closingMarker: 'A' })]);
    expect(meters).toHaveLength(1);
    expect(meters[0]?.readings).toEqual([
      {
        meterSerialNumber: 'E12K34567',
        openingRead: 10000,
        closingRead: 11500,
        readType: 'actual',
        consumption: 1500,
        date: '2025-01-31',
      },
    ]);
  });
});

describe('labels and values', () => {
  it('reads values after their label on the same line', () => {
    const { values } = read([
      [
        at(0.1, 0.1, 'Invoice No: 004512'),
        at(0.1, 0.12, 'Account number: AB-1234 Invoice date: 05/03/2025'),
        at(0.1, 0.3, 'Total due £1,234.56 Pay by 20/03/2025'),
      ],
    ]);
    expect(plain(values)).toMatchObject({
      invoiceNumber: '004512',
      accountNumber: 'AB-1234',
      invoiceDate: '2025-03-05',
      grossTotal: 1234.56,
      dueDate: '2025-03-20',
    });
  });

  it('reads values below their labels when the labels head columns', () => {
    const { values } = read([
      [
        ...row(0.1, [0.1, 'Invoice number'], [0.35, 'Invoice date'], [0.6, 'Amount due']),
        ...row(0.12, [0.1, 'INV 77881'], [0.35, '1st March 2025'], [0.6, '£88.20']),
      ],
    ]);
    expect(plain(values)).toMatchObject({
      invoiceNumber: '77881',
      invoiceDate: '2025-03-01',
      grossTotal: 88.2,
    });
  });

  it('prefers a naming label to a word that only hints, and lowers the confidence of a hint', () => {
    const strong = read([
      [
        ...row(0.1, [0.1, 'Date'], [0.3, '05/03/2025']),
        ...row(0.2, [0.1, 'Invoice date'], [0.3, '06/03/2025']),
      ],
    ]);
    expect(strong.values.invoiceDate?.value).toBe('2025-03-06');
    expect(strong.values.invoiceDate?.confidence).toBe(99);
    const weak = read([row(0.1, [0.1, 'Date'], [0.3, '05/03/2025'])]);
    expect(weak.values.invoiceDate?.value).toBe('2025-03-05');
    expect(weak.values.invoiceDate?.confidence).toBeCloseTo(69.3);
  });

  it('uses Textract key-value pairs where the page layout does not show the pairing', () => {
    const { values } = read([
      { lines: [], keyValues: [{ key: at(0.1, 0.1, 'Invoice Number:'), value: at(0.6, 0.7, 'KV-5521') }] },
    ]);
    expect(values.invoiceNumber?.value).toBe('KV-5521');
  });

  it('uses AnalyzeExpense summary fields', () => {
    const fields = expense([
      summaryField('INVOICE_RECEIPT_ID', 'EXP-901'),
      summaryField('INVOICE_RECEIPT_DATE', '07/04/2025'),
      summaryField('DUE_DATE', '21/04/2025'),
      summaryField('ACCOUNT_NUMBER', '99887766'),
      summaryField('SUBTOTAL', '£100.00'),
      summaryField('TAX', '£20.00'),
      summaryField('TOTAL', '£120.00', 1, 88),
    ]);
    const { values } = read([[at(0.1, 0.1, 'A bill with no labels')]], fields);
    expect(plain(values)).toMatchObject({
      invoiceNumber: 'EXP-901',
      invoiceDate: '2025-04-07',
      dueDate: '2025-04-21',
      accountNumber: '99887766',
      netTotal: 100,
      vatTotal: 20,
      grossTotal: 120,
    });
    expect(values.grossTotal?.confidence).toBe(88);
  });

  it('chooses the totals that add up when a balance brought forward competes with the invoice total', () => {
    const { values } = read([
      [
        ...row(0.5, [0.5, 'Net charges'], [0.8, '£100.00']),
        ...row(0.52, [0.5, 'VAT @ 5%'], [0.8, '£5.00']),
        ...row(0.54, [0.5, 'Balance due'], [0.8, '£155.00']),
        ...row(0.6, [0.5, 'Total charges including VAT'], [0.8, '£105.00']),
      ],
    ]);
    expect(plain(values)).toMatchObject({ netTotal: 100, vatTotal: 5, vatRate: 5, grossTotal: 105 });
  });
});

describe('periods', () => {
  it.each([
    ['01/01/2025 to 31/01/2025', ['Period', '01/01/2025 to 31/01/2025']],
    ['a dash and month names', ['Billing period', '1 Jan 2025 - 31 Jan 2025']],
    ['From ... To ...', ['Supply', 'From 1st January 2025 To 31st January 2025']],
    ['a single month', ['Billing period:', 'January 2025']],
  ])('reads a period printed as %s', (_name, [label, text]) => {
    const { values } = read([row(0.2, [0.1, label as string], [0.3, text as string])]);
    expect([values.startDate?.value, values.endDate?.value]).toEqual(['2025-01-01', '2025-01-31']);
  });

  it('reads a period from labels on separate lines', () => {
    const { values } = read([
      [
        ...row(0.2, [0.1, 'Period start date'], [0.35, '01/12/2024']),
        ...row(0.22, [0.1, 'Period end date'], [0.35, '31/12/2024']),
      ],
    ]);
    expect([values.startDate?.value, values.endDate?.value]).toEqual(['2024-12-01', '2024-12-31']);
  });

  it('does not take a range that runs backwards or over a year', () => {
    const { values } = read([
      [at(0.1, 0.2, 'Period 31/01/2025 to 01/01/2025'), at(0.1, 0.3, 'Contract 01/01/2023 to 31/12/2025')],
    ]);
    expect(values.startDate).toBeUndefined();
  });
});

describe('meter points', () => {
  it('finds an MPAN by its check digit, printed whole, grouped or as the full 21 digits', () => {
    expect(findMpans('1312345678907').map((m) => m.core)).toEqual(['1312345678907']);
    expect(findMpans('MPAN: 13 1234 5678 907').map((m) => m.core)).toEqual(['1312345678907']);
    expect(findMpans('S 02 801 100 20 9999 9999 993')).toEqual([
      expect.objectContaining({ core: '2099999999993', topLine: '02801100' }),
    ]);
  });

  it('does not take a number whose check digit fails or that starts mid-group', () => {
    expect(findMpans('1312345678900')).toEqual([]);
    expect(findMpans('100 13 1234 5678')).toEqual([]);
  });

  it('reads the core of an S-box printed over two rows', () => {
    const { values, utilityType } = read([
      [
        at(0.1, 0.2, 'S'),
        at(0.14, 0.19, '02 801 100'),
        at(0.14, 0.21, '20 9999 9999 993'),
        at(0.1, 0.4, 'Electricity'),
      ],
    ]);
    expect(values.meterPointNumber?.value).toBe(METER_A);
    expect(utilityType).toBe('electricity');
  });

  it('reads a gas MPRN near its label and tells the utility from it', () => {
    const { values, utilityType } = read([
      [
        at(0.1, 0.05, 'Your gas bill'),
        ...row(0.2, [0.1, 'Meter Point Reference'], [0.4, '7412 3456 78']),
        ...row(0.22, [0.1, 'Gas used'], [0.4, '2,931 kWh']),
        ...row(0.24, [0.1, 'Previous read'], [0.4, '01234']),
        ...row(0.26, [0.1, 'Current read'], [0.4, '01500 E']),
      ],
    ]);
    expect(utilityType).toBe('gas');
    expect(plain(values)).toMatchObject({
      meterPointNumber: '7412345678',
      consumption: 2931,
      consumptionUnit: 'kWh',
      openingRead: 1234,
      closingRead: 1500,
      isEstimate: true,
    });
  });

  it('reads the calorific value a gas bill read in m³ prints', () => {
    const { values } = read([
      [
        at(0.1, 0.05, 'Your gas bill'),
        ...row(0.2, [0.1, 'Meter Point Reference'], [0.4, '7412 3456 78']),
        ...row(0.22, [0.1, 'Gas used'], [0.4, '1,000 m3']),
        ...row(0.24, [0.1, 'Calorific value'], [0.4, '39.2 MJ/m3']),
        ...row(0.26, [0.1, 'Volume correction'], [0.4, '1.02264']),
      ],
    ]);
    expect(plain(values)).toMatchObject({ consumption: 1000, calorificValue: 39.2 });
  });

  it('tells a water bill by its words and keeps its unit', () => {
    const { utilityType, values } = read([
      [
        at(0.1, 0.05, 'Clearwater Water Services'),
        at(0.1, 0.1, 'Water supply and sewerage'),
        ...row(0.2, [0.1, 'Total consumption'], [0.4, '42 m3']),
      ],
    ]);
    expect(utilityType).toBe('water');
    expect(values.consumption?.value).toBe(42);
    expect(values.consumptionUnit?.value).toBe('m³');
  });
});

describe('charge lines from tables', () => {
  it('reads a Textract table by its header, pence rates by the header unit', () => {
    const { rates, values } = read([
      {
        lines: [],
        tables: [
          {
            columns: [0.05, 0.4, 0.55, 0.75],
            y: 0.4,
            header: true,
            rows: [
              ['Description', 'Units', 'Rate (p/kWh)', 'Amount (£)'],
              ['Unit charge', '2,000', '24.5', '490.00'],
              ['Standing charge', '30 days', '60.0', '18.00'],
              ['Sub total', '', '', '508.00'],
            ],
          },
        ],
      },
    ]);
    expect(rates.map((r) => [r.kind, r.units, r.unitRate, r.amount])).toEqual([
      ['unit', 2000, 0.245, 490],
      ['standing', 30, 0.6, 18],
    ]);
    expect(values.standingCharge?.value).toBe(18);
  });
});

describe('several invoices in one document', () => {
  it('starts a new invoice where a page carries a different invoice number', () => {
    const page = (number: string, extra: string) => [
      ...row(0.1, [0.1, 'Invoice number'], [0.4, number]),
      at(0.1, 0.3, extra),
    ];
    const doc = buildPages(
      analysis([
        page('INV-A1', 'first'),
        page('INV-A1', 'first continued'),
        [at(0.1, 0.1, 'terms')],
        page('INV-B2', 'second'),
      ]),
    );
    expect(splitGeneric(doc)).toEqual([[1, 2, 3], [4]]);
  });
});

describe('several meters on one invoice', () => {
  it('reads each meter from its own section', () => {
    const { meters, values, rates } = read(northgrid());
    expect(
      meters.map((m) => [m.meterIndex, m.values.meterPointNumber?.value, m.values.meterSerialNumber?.value]),
    ).toEqual([
      [0, METER_A, 'K1111111'],
      [1, METER_B, 'K2222222'],
    ]);
    expect(meters.map((m) => m.readings[0])).toEqual([
      expect.objectContaining({ openingRead: 5000, closingRead: 5800, readType: 'actual', consumption: 800 }),
      expect.objectContaining({
        openingRead: 700,
        closingRead: 900,
        readType: 'estimated',
        consumption: 200,
      }),
    ]);
    expect(meters.map((m) => m.rates.map((r) => r.amount))).toEqual([
      [160, 15.5],
      [40, 15.5],
    ]);
    expect(rates).toEqual([]);
    expect(plain(values)).toMatchObject({
      invoiceNumber: 'NG/2025/0042',
      invoiceDate: '2025-02-03',
      startDate: '2025-01-01',
      endDate: '2025-01-31',
      netTotal: 231,
      vatTotal: 46.2,
      grossTotal: 277.2,
      consumption: 1000,
    });
  });

  it('gives a summary table of meter numbers no claim over the detail below it', () => {
    const pages = northgrid();
    const first = pages[0] as PageSpec;
    first.lines.push(at(0.6, 0.2, `Meters: ${METER_A}`), at(0.6, 0.215, MPAN_C));
    const { meters } = read(pages);
    expect(meters.map((m) => m.values.meterPointNumber?.value)).toEqual([METER_A, MPAN_C, METER_B]);
    expect(meters[0]?.values.openingRead?.value).toBe(5000);
    expect(meters[2]?.values.openingRead?.value).toBe(700);
  });
});

describe('tables of reads', () => {
  // Headings left-aligned over their columns, figures right-aligned under them, as EDF prints them.
  const reads = [
    ...row(
      0.3,
      [0.07, 'Meter serial'],
      [0.2, 'Register'],
      [0.33, 'Previous read'],
      [0.6, 'Latest read'],
      [0.87, 'Units used'],
    ),
    ...row(
      0.32,
      [0.07, 'K19W04421'],
      [0.2, 'Day'],
      [0.33, '1 Sep 2026'],
      [0.51, '466,019 (A)'],
      [0.6, '30 Sep 2026'],
      [0.78, '497,881 (E)'],
      [0.88, '31,862'],
    ),
    ...row(
      0.34,
      [0.07, 'K19W04421'],
      [0.2, 'Night'],
      [0.33, '1 Sep 2026'],
      [0.51, '199,647 (A)'],
      [0.6, '30 Sep 2026'],
      [0.78, '213,790 (A)'],
      [0.88, '14,143'],
    ),
  ];

  it('reads a reading per register, the meter as estimated when a closing read is', () => {
    const { values, meters } = read([reads]);
    expect(meters[0]?.readings).toEqual([
      {
        meterSerialNumber: 'K19W04421',
        register: 'Day',
        openingRead: 466019,
        closingRead: 497881,
        readType: 'estimated',
        consumption: 31862,
      },
      {
        meterSerialNumber: 'K19W04421',
        register: 'Night',
        openingRead: 199647,
        closingRead: 213790,
        readType: 'actual',
        consumption: 14143,
      },
    ]);
    expect(values.openingRead).toBeUndefined();
    expect(values.closingRead).toBeUndefined();
    expect(values.isEstimate?.value).toBe(true);
    expect(values.consumption?.value).toBe(46005);
    expect(values.meterSerialNumber?.value).toBe('K19W04421');
  });

  it('gives a meter with one register its opening and closing read', () => {
    const { values } = read([reads.filter((l) => l.y !== 0.34)]);
    expect([values.openingRead?.value, values.closingRead?.value, values.consumption?.value]).toEqual([
      466019, 497881, 31862,
    ]);
  });
});

describe('addresses', () => {
  it('reads the recipient from the address block, not the return address above it', () => {
    const { values } = read([
      [
        at(0.07, 0.12, 'Brightwatt Energy, PO Box 12, Leeds LS1 4AB'),
        at(0.07, 0.14, 'Acme Property Holdings Ltd'),
        at(0.07, 0.155, 'FAO Accounts Payable'),
        at(0.07, 0.17, '1 High Street'),
        at(0.07, 0.185, 'London'),
        at(0.07, 0.2, 'EC1A 1BB'),
      ],
    ]);
    expect(values.recipient?.value).toBe('Acme Property Holdings Ltd');
  });

  it('reads a supply address under its label down to the postcode', () => {
    const { values } = read([
      [
        ...row(0.4, [0.07, 'Supply address'], [0.7, 'Supply number (MPAN)']),
        at(0.07, 0.415, 'Unit 4 Riverside'),
        at(0.07, 0.43, 'Dock Road, Salford'),
        at(0.07, 0.445, 'M50 3AA'),
        at(0.07, 0.47, 'Meter serial number E12K34567'),
      ],
    ]);
    expect(values.siteAddress?.value).toBe('Unit 4 Riverside, Dock Road, Salford, M50 3AA');
  });

  it('joins a supply address that wraps beside its label', () => {
    const { values } = read([
      [
        ...row(
          0.3,
          [0.06, 'Supply address'],
          [0.27, 'Aldgate House, 33 Aldgate High'],
          [0.5, 'Meter serial'],
          [0.7, '23M824046'],
        ),
        at(0.27, 0.315, 'Street, London, EC3N 1DL'),
      ],
    ]);
    expect(values.siteAddress?.value).toBe('Aldgate House, 33 Aldgate High Street, London, EC3N 1DL');
  });
});

describe('what is not a value', () => {
  it('does not take the supplier’s bank account for the customer’s account number', () => {
    const { values } = read([
      [
        ...row(0.15, [0.57, 'Account number'], [0.73, '6010519846']),
        at(0.08, 0.78, 'Account name: Brightwatt Trading Ltd'),
        ...row(0.8, [0.08, 'Sort code: 40-11-62'], [0.22, 'Account number: 21479815']),
      ],
    ]);
    expect(values.accountNumber?.value).toBe('6010519846');
  });

  it('reads no levy from a sentence saying it does not apply, nor amounts from phone numbers', () => {
    const { values } = read([
      [
        at(0.07, 0.2, 'rate of 5% and the Climate Change Levy does not apply.'),
        at(0.07, 0.22, 'Call us on 0333 200 5100.'),
        at(0.07, 0.3, 'Standing charge'),
        at(0.5, 0.3, '112.50p per day'),
      ],
    ]);
    expect(values.climateChangeLevy).toBeUndefined();
    expect(values.standingCharge).toBeUndefined();
  });

  it('tells a standing charge, energy and other charges apart by their descriptions', () => {
    const { rates } = read([
      [
        at(0.07, 0.5, 'Water supply fixed charge 92 days at £0.3912 a day £35.99'),
        at(0.07, 0.52, 'Water supply volumetric charge 653 m³ at £1.7318 per m³ £1130.87'),
        at(0.07, 0.54, 'Meter operation and data collection 30 days 95.00p per day 28.50'),
        at(0.07, 0.56, 'Renewables Obligation 91,994 kWh 2.512p per kWh 2,310.89'),
        at(0.07, 0.58, 'Availability charge (400 kVA) 12,000 kVA day 3.12p per kVA day 374.40'),
      ],
    ]);
    expect(rates.map((r) => [r.kind, r.units, r.unit, r.unitRate, r.amount])).toEqual([
      ['standing', 92, 'day', 0.3912, 35.99],
      ['unit', 653, 'm³', 1.7318, 1130.87],
      ['other', 30, 'day', 0.95, 28.5],
      ['other', 91994, 'kWh', 0.02512, 2310.89],
      ['other', 12000, 'kVA day', 0.0312, 374.4],
    ]);
  });
});

describe('awkward layouts', () => {
  it('reads a period that wraps in a narrow column', () => {
    const { values } = read([
      [
        at(0.65, 0.23, 'Invoice period'),
        at(0.65, 0.242, '1 September 2026 to 30'),
        at(0.65, 0.254, 'September 2026'),
      ],
    ]);
    expect([values.startDate?.value, values.endDate?.value]).toEqual(['2026-09-01', '2026-09-30']);
  });

  it('reads the rows of a scan fed in askew', () => {
    const slope = 0.012;
    const line = (x: number, y: number, text: string) => ({ ...at(x, y + slope * x, text), slope });
    const { rates, values } = read([
      [
        line(0.07, 0.2, 'We read your meter on the date shown and worked out the charges below for you.'),
        line(0.07, 0.22, 'Questions about this bill? Call our business team, Monday to Friday.'),
        line(0.07, 0.24, 'Please keep this bill for your records and pass it to your accounts team.'),
        line(0.07, 0.4, 'Day units'),
        line(0.55, 0.4, '1,000 kWh'),
        line(0.7, 0.4, '25.123p/kWh'),
        line(0.86, 0.4, '£251.23'),
        line(0.07, 0.5, 'Total charges excluding VAT'),
        line(0.86, 0.5, '£251.23'),
      ],
    ]);
    expect(rates.map((r) => [r.description, r.units, r.unitRate, r.amount])).toEqual([
      ['Day units', 1000, 0.25123, 251.23],
    ]);
    expect(values.netTotal?.value).toBe(251.23);
  });
});
