import { describe, expect, it } from 'vitest';
import { extractGeneric } from '../../../shared/capture/generic-extractor.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import { analysis, at, type PageSpec, row } from './blocks.ts';

/**
 * Bills laid out as North American utilities print them, read without a template: a collective bill
 * whose later pages are each account's own bill, the payee named on the payment stub, an account
 * number with its check digit printed apart, a reminder dated by its notice date, a city's water bill
 * whose amounts carry no dollar sign, and a water meter's number that is no metering point.
 */

const read = (...pages: PageSpec[]) =>
  extractGeneric(
    buildPages(analysis(pages)),
    pages.map((_p, i) => i + 1),
  );

describe('a collective gas bill (a summary page, then each account it covers)', () => {
  const summary: PageSpec = {
    lines: [
      ...row(0.07, [0.5, 'Collective Customer Number:'], [0.74, '3048569396']),
      ...row(0.1, [0.5, 'Customer Name:'], [0.74, 'KELLER ISD']),
      ...row(0.11, [0.5, 'Billing Date:'], [0.74, '05/31/19']),
      ...row(0.24, [0.52, 'TOTAL AMOUNT DUE'], [0.84, '13,711.87']),
    ],
  };
  const account: PageSpec = {
    lines: [
      at(0.44, 0.02, 'Service Account Number: 3028521652'),
      at(0.42, 0.03, 'Collective Account Number: 3048569396'),
      at(0.51, 0.14, 'Billing Date: 5/10/19'),
      ...row(0.21, [0.55, 'Total Amount Due'], [0.88, '$154.34']),
    ],
  };

  it('is dated and numbered by its summary page, not by the first account bill after it', () => {
    const { values } = read(summary, account);
    expect(values.invoiceDate?.value).toBe('2019-05-31');
    expect(values.accountNumber?.value).toBe('3048569396');
    expect(values.grossTotal?.value).toBe(13711.87);
  });
});

describe('a utility bill whose letterhead is its customer', () => {
  it('comes from the payee the stub names ("make payable to LADWP."), not from the customer', () => {
    const { values } = read({
      lines: [
        ...row(0.02, [0.53, 'BILL DATE'], [0.76, 'DATE DUE']),
        ...row(0.04, [0.53, 'Jan 14, 2020'], [0.76, 'Feb 3, 2020']),
        at(0.36, 0.11, 'DOUGLAS EMMETT MANAGEMENT, LLC DOUGLAS EMMETT REAL,'),
        ...row(0.27, [0.74, 'Total Amount Due'], [0.9, '$ 47.48']),
        at(0.75, 0.91, 'Write account number on check or money order'),
        at(0.75, 0.92, 'and make payable to LADWP.'),
      ],
    });
    expect(values.supplierName?.value).toBe('LADWP');
  });

  it('comes from the one to mail the check to, up to its post box', () => {
    const { values } = read({
      lines: [
        at(0.21, 0.05, 'APPLE INC'),
        ...row(0.08, [0.77, 'BILLING DATE:'], [0.89, 'Jul 10, 2019']),
        ...row(0.14, [0.76, 'AMOUNT DUE:'], [0.88, '$851,167.98']),
        at(
          0.06,
          0.67,
          'Write account number on check & mail to: Pacific Power, PO Box 26000, Portland, OR 97256-0001',
        ),
      ],
    });
    expect(values.supplierName?.value).toBe('Pacific Power');
  });
});

describe('an account number with its check digit printed apart', () => {
  it('keeps the check digit ("28706321-003 6")', () => {
    const { values } = read({
      lines: [
        ...row(0.1, [0.75, 'ACCOUNT NUMBER:'], [0.87, '28706321-003 6']),
        ...row(0.14, [0.76, 'AMOUNT DUE:'], [0.88, '$563.60']),
      ],
    });
    expect(String(values.accountNumber?.value).replace(/\W/g, '')).toBe('287063210036');
  });
});

describe('a payment reminder', () => {
  it('is dated by its notice date', () => {
    const { values } = read({
      lines: [
        ...row(0.02, [0.53, 'NOTICE DATE'], [0.76, 'DATE DUE']),
        ...row(0.04, [0.53, 'August 5, 2020'], [0.76, 'Due NOW']),
        ...row(0.07, [0.53, '377 015 1000'], [0.76, '$ 296.17']),
      ],
    });
    expect(values.invoiceDate?.value).toBe('2020-08-05');
  });
});

describe("a city's water bill", () => {
  it('is in US dollars when no amount carries a sign but the address is American', () => {
    const { values } = read({
      lines: [
        at(0.03, 0.14, 'ACCOUNT NUMBER'),
        at(0.06, 0.15, '001-0000838-000'),
        ...row(0.33, [0.53, 'Water'], [0.89, '209.90']),
        ...row(0.49, [0.53, 'CURRENT BILL DUE 07/22/2019'], [0.89, '344.85']),
        at(0.57, 0.91, 'CITY OF KELLER'),
        at(0.57, 0.93, 'PO BOX 164189'),
        at(0.57, 0.94, 'FT WORTH TX 76161-4189'),
      ],
    });
    expect(values.currency?.value).toBe('USD');
  });

  it("takes a meter's number for its serial, not for a metering point, on a bill in dollars", () => {
    const { values } = read({
      lines: [
        at(0.37, 0.1, 'Water Schedule A - Commercial'),
        ...row(
          0.38,
          [0.37, 'METER NUMBER'],
          [0.57, 'CURRENT READ'],
          [0.73, 'PREVIOUS READ'],
          [0.9, 'TOTAL USED'],
        ),
        ...row(0.4, [0.37, '96168269'], [0.6, '2856'], [0.75, '2497'], [0.91, '359 HCF']),
        ...row(0.5, [0.45, 'Water Charges'], [0.83, '$2,523.12']),
        ...row(0.55, [0.68, 'Total Amount Due'], [0.87, '$ 2,523.12']),
      ],
    });
    expect(values.meterPointNumber).toBeUndefined();
  });
});
