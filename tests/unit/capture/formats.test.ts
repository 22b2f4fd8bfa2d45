import { describe, expect, it } from 'vitest';
import {
  findDates,
  findPrices,
  parseBoolean,
  parseDate,
  parseNumber,
  parsePrice,
  parseReadType,
} from '../../../shared/capture/formats.ts';
import { DATE_FORMATS, NUMBER_FORMATS, PRICE_FORMATS } from '../../../shared/data/template-value-format.ts';

describe('parsePrice with a format', () => {
  const examples: Record<string, string> = {
    '£0,000.00': '£1,234.56',
    '£0.000,00': '£1.234,56',
    '£0 000.00': '£1 234.56',
    '£0000.00': '£1234.56',
    '0,000.00 £': '1,234.56 £',
    '0.000,00 £': '1.234,56 £',
    '0 000,00 £': '1 234,56 £',
    '0,000.00': '1,234.56',
    '0.000,00': '1.234,56',
    '0000.00': '1234.56',
  };

  it('has an example for each of the ten price formats', () => {
    expect(Object.keys(examples).sort()).toEqual(PRICE_FORMATS.map((f) => f.value).sort());
  });

  for (const [format, text] of Object.entries(examples)) {
    it(`reads ${text} as ${format}`, () => {
      expect(parsePrice(text, format)).toBe(1234.56);
    });
  }

  it('reads millions in every grouped format', () => {
    expect(parsePrice('£12,345,678.90', '£0,000.00')).toBe(12345678.9);
    expect(parsePrice('12.345.678,90 £', '0.000,00 £')).toBe(12345678.9);
    expect(parsePrice('12 345 678,90 £', '0 000,00 £')).toBe(12345678.9);
  });

  it('lets the format decide a separator that could be either', () => {
    expect(parsePrice('1.234', '0.000,00')).toBe(1234);
    expect(parsePrice('1.234', '0,000.00')).toBe(1.234);
    expect(parsePrice('1,234', '0.000,00')).toBe(1.234);
    expect(parsePrice('1,234', '0,000.00')).toBe(1234);
  });

  it('falls back to guessing when the text does not fit the format', () => {
    expect(parsePrice('£1,234.56', '£0000.00')).toBe(1234.56);
    expect(parsePrice('1.234,56', '0,000.00')).toBe(1234.56);
  });

  it('reads amounts without pence and with one decimal', () => {
    expect(parsePrice('£1,234', '£0,000.00')).toBe(1234);
    expect(parsePrice('£5.5', '£0,000.00')).toBe(5.5);
  });
});

describe('parsePrice without a format', () => {
  it.each([
    ['£1,234.56', 1234.56],
    ['1.234,56 £', 1234.56],
    ['1 234,56 £', 1234.56],
    ['£1 234.56', 1234.56],
    ['GBP 1,000.00', 1000],
    ['€5', 5],
    ['12.34', 12.34],
    ['0,5', 0.5],
    ['1,234', 1234],
    ['£0.234', 0.234],
    ['.75', 0.75],
  ])('reads %s as %d', (text, value) => {
    expect(parsePrice(text)).toBe(value);
  });

  it.each([
    ['(12.34)', -12.34],
    ['£(12.34)', -12.34],
    ['(£12.34)', -12.34],
    ['12.34 CR', -12.34],
    ['£12.34CR', -12.34],
    ['-£12.34', -12.34],
    ['£-12.34', -12.34],
    ['−£12.34', -12.34],
    ['12.34-', -12.34],
  ])('reads the credit %s as negative', (text, value) => {
    expect(parsePrice(text)).toBe(value);
  });

  it('keeps a debit marker positive', () => {
    expect(parsePrice('12.34 DR')).toBe(12.34);
  });

  it('converts pence to pounds only when asked', () => {
    expect(parsePrice('25.123p')).toBe(25.123);
    expect(parsePrice('25.123p', undefined, { penceToPounds: true })).toBe(0.25123);
    expect(parsePrice('25.123p/kWh', undefined, { penceToPounds: true })).toBe(0.25123);
    expect(parsePrice('45 pence per day', undefined, { penceToPounds: true })).toBe(0.45);
    expect(parsePrice('0.5p', undefined, { penceToPounds: true })).toBe(0.005);
    expect(parsePrice('1,234.5p', undefined, { penceToPounds: true })).toBe(12.345);
    expect(parsePrice('(25p)', undefined, { penceToPounds: true })).toBe(-0.25);
  });

  it('picks the amount of a text holding several numbers', () => {
    expect(parsePrice('VAT @ 20% £12.00')).toBe(12);
    expect(parsePrice('31 days @ 25.00p £7.75')).toBe(7.75);
    expect(parsePrice('Total (3 items) £45.00')).toBe(45);
    expect(parsePrice('Due 15/02/2025 £120.50')).toBe(120.5);
  });

  it('ignores percentages and the pieces of dates', () => {
    expect(parsePrice('20%')).toBeNull();
    expect(parsePrice('31/01/2025')).toBeNull();
    expect(parsePrice('2025-01-31')).toBeNull();
    expect(parsePrice('10:30')).toBeNull();
  });

  it('returns null when there is no number', () => {
    expect(parsePrice('')).toBeNull();
    expect(parsePrice('Total due')).toBeNull();
    expect(parsePrice('INV12345')).toBeNull();
  });

  it('lists every amount of a text in order', () => {
    const found = findPrices('Net £100.00 VAT £20.00 Total £120.00');
    expect(found.map((t) => t.value)).toEqual([100, 20, 120]);
    expect(found.every((t) => t.currency === 'before')).toBe(true);
  });
});

describe('parseNumber', () => {
  const examples: Record<string, string> = {
    '0,000.00': '12,345.6',
    '0.000,00': '12.345,6',
    '0 000,00': '12 345,6',
    '0000.00': '12345.6',
  };

  for (const format of NUMBER_FORMATS) {
    it(`reads ${examples[format.value]} as ${format.value}`, () => {
      expect(parseNumber(examples[format.value] ?? '', format.value)).toBe(12345.6);
    });
  }

  it('reads quantities with units, leading zeros, signs and percentages', () => {
    expect(parseNumber('12,345 kWh')).toBe(12345);
    expect(parseNumber('1234kWh')).toBe(1234);
    expect(parseNumber('012345 E')).toBe(12345);
    expect(parseNumber('-5')).toBe(-5);
    expect(parseNumber('(5)')).toBe(-5);
    expect(parseNumber('20%')).toBe(20);
    expect(parseNumber('VAT at 5.0%')).toBe(5);
  });

  it('takes the first number and skips dates', () => {
    expect(parseNumber('on 31/01/2025 read 12345')).toBe(12345);
    expect(parseNumber('1,000 then 2,000')).toBe(1000);
  });

  it('returns null without a number', () => {
    expect(parseNumber('no read')).toBeNull();
  });
});

describe('parseDate with a format', () => {
  for (const format of DATE_FORMATS) {
    it(`reads ${format.example} as ${format.value}`, () => {
      const expected = format.value === 'MMM YYYY' ? '2025-01-01' : '2025-01-31';
      expect(parseDate(format.example, format.value)).toBe(expected);
    });
  }

  it('reads a month alone as its last day for the end of a period', () => {
    expect(parseDate('Jan 2025', 'MMM YYYY', { monthEnd: true })).toBe('2025-01-31');
    expect(parseDate('Feb 2024', 'MMM YYYY', { monthEnd: true })).toBe('2024-02-29');
  });

  it('reads month first when the format says so', () => {
    expect(parseDate('01/02/2025', 'MM/DD/YYYY')).toBe('2025-01-02');
    expect(parseDate('01/02/2025', 'DD/MM/YYYY')).toBe('2025-02-01');
  });

  it('still reads a date printed another way than the format', () => {
    expect(parseDate('31 January 2025', 'DD/MM/YYYY')).toBe('2025-01-31');
  });
});

describe('parseDate without a format', () => {
  it.each([
    ['31/01/2025', '2025-01-31'],
    ['01/02/2025', '2025-02-01'],
    ['01/31/2025', '2025-01-31'],
    ['31/01/25', '2025-01-31'],
    ['31-01-2025', '2025-01-31'],
    ['31.01.2025', '2025-01-31'],
    ['2025-01-31', '2025-01-31'],
    ['2025/01/31', '2025-01-31'],
    ['1st January 2025', '2025-01-01'],
    ['2nd Feb 2025', '2025-02-02'],
    ['3rd March 2025', '2025-03-03'],
    ['22nd of April, 2025', '2025-04-22'],
    ['31 Jan 25', '2025-01-31'],
    ['31-Jan-2025', '2025-01-31'],
    ['Monday 3 February 2025', '2025-02-03'],
    ['January 31, 2025', '2025-01-31'],
    ['Sept 5 2025', '2025-09-05'],
    ['Jan-25', '2025-01-01'],
    ["Jan '25", '2025-01-01'],
    ['September 2025', '2025-09-01'],
    ['01/01/99', '1999-01-01'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseDate(text)).toBe(iso);
  });

  it('prefers day first when both orders make a date', () => {
    expect(parseDate('05/03/2025')).toBe('2025-03-05');
    expect(parseDate('12/11/2024')).toBe('2024-11-12');
  });

  it('finds the date in a longer text', () => {
    expect(parseDate('Invoice date: 05/03/2025')).toBe('2025-03-05');
    expect(parseDate('Issued on the 1st January 2025 by us')).toBe('2025-01-01');
  });

  it('rejects dates that do not exist and words that only look like months', () => {
    expect(parseDate('31/02/2025')).toBeNull();
    expect(parseDate('13/13/2025')).toBeNull();
    expect(parseDate('29/02/2025')).toBeNull();
    expect(parseDate('29/02/2024')).toBe('2024-02-29');
    expect(parseDate('Summary 2025')).toBeNull();
    expect(parseDate('Mayfair 2025')).toBeNull();
    expect(parseDate('no date here')).toBeNull();
  });

  it('finds both ends of a range in order', () => {
    expect(findDates('01/01/2025 to 31/01/2025').map((d) => d.iso)).toEqual(['2025-01-01', '2025-01-31']);
    expect(findDates('01/01/2025-31/01/2025').map((d) => d.iso)).toEqual(['2025-01-01', '2025-01-31']);
    expect(findDates('1 Jan 2025 - 31 Jan 2025').map((d) => d.iso)).toEqual(['2025-01-01', '2025-01-31']);
  });

  it('says when only a month was printed', () => {
    const [token] = findDates('Billing period: Jan-25');
    expect(token?.monthOnly).toBe(true);
    expect(findDates('Jan-25', undefined, { monthEnd: true })[0]?.iso).toBe('2025-01-31');
  });
});

describe('parseBoolean and parseReadType', () => {
  it.each(['E', 'e', 'Est', 'Est.', 'Estimated', 'Estimate', '(E)', 'Yes', 'Y'])(
    'reads %s as estimated',
    (text) => {
      expect(parseBoolean(text)).toBe(true);
    },
  );

  it.each(['A', 'Actual', '(A)', 'act', 'C', 'Customer', 'No', 'N'])('reads %s as not estimated', (text) => {
    expect(parseBoolean(text)).toBe(false);
  });

  it('finds the marker beside a read', () => {
    expect(parseBoolean('12345 E')).toBe(true);
    expect(parseBoolean('12345 (A)')).toBe(false);
    expect(parseBoolean('Estimated reading')).toBe(true);
  });

  it('returns null when the text says neither', () => {
    expect(parseBoolean('')).toBeNull();
    expect(parseBoolean('12345')).toBeNull();
    expect(parseBoolean('Reading')).toBeNull();
  });

  it('tells customer reads from actual and estimated ones', () => {
    expect(parseReadType('C')).toBe('customer');
    expect(parseReadType('Customer read')).toBe('customer');
    expect(parseReadType('A')).toBe('actual');
    expect(parseReadType('Est')).toBe('estimated');
    expect(parseReadType('read')).toBeNull();
  });
});
