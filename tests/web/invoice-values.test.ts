import { describe, expect, it } from 'vitest';
import {
  checkDrafts,
  expectedAmount,
  inputOf,
  parseRate,
  parseValue,
  VALUE_FIELDS,
} from '../../web/features/invoices/invoice-values.ts';

describe('typed values', () => {
  it('gives dates, numbers and prices their own inputs', () => {
    const type = (key: string) => VALUE_FIELDS.find((f) => f.key === key)?.type;
    expect(type('startDate')).toBe('date');
    expect(type('consumption')).toBe('number');
    expect(type('grossTotal')).toBe('price');
    expect(type('vatRate')).toBe('percent');
    expect(type('invoiceNumber')).toBe('text');
  });

  it('reads real dates only', () => {
    expect(parseValue('date', '2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    expect(parseValue('date', '2026-02-30')).toEqual({ ok: false, message: 'Must be a date as YYYY-MM-DD' });
    expect(parseValue('date', '28/02/2026').ok).toBe(false);
  });

  it('reads prices with a pound sign and grouping, to 4 decimals', () => {
    expect(parseValue('price', '£1,234.5')).toEqual({ ok: true, value: 1234.5 });
    expect(parseValue('price', '0.123456')).toEqual({ ok: true, value: 0.1235 });
    expect(parseValue('price', '-12.40')).toEqual({ ok: true, value: -12.4 });
    expect(parseValue('number', 'twelve')).toEqual({ ok: false, message: 'Must be a number' });
    expect(parseValue('percent', '120').ok).toBe(false);
    expect(parseValue('percent', '20%')).toEqual({ ok: true, value: 20 });
  });

  it('clears a value left empty', () => {
    expect(parseValue('price', '  ')).toEqual({ ok: true, value: null });
  });

  it('shows stored values in their inputs', () => {
    expect(inputOf('date', '2026-01-31T00:00:00.000Z')).toBe('2026-01-31');
    expect(inputOf('price', 12.5)).toBe('12.5');
    expect(inputOf('boolean', false)).toBe('false');
    expect(inputOf('text', null)).toBe('');
  });

  it('holds back a period that ends before it starts', () => {
    const stored = { startDate: '2026-01-01', endDate: '2026-01-31' };
    expect(checkDrafts(stored, { endDate: '2025-12-31' }).errors).toEqual({
      endDate: 'The period must end on or after its start',
    });
    expect(checkDrafts(stored, { startDate: '2026-01-15' }).errors).toEqual({});
  });

  it('sends only what changed, and holds back what cannot be read', () => {
    const stored = { netTotal: 100, vatTotal: 20, startDate: '2026-01-01' };
    const { changes, errors } = checkDrafts(stored, {
      netTotal: '100.00',
      vatTotal: '£21',
      startDate: '2026-13-01',
      invoiceNumber: 'INV-9',
    });
    expect(changes).toEqual({ vatTotal: 21, invoiceNumber: 'INV-9' });
    expect(errors).toEqual({ startDate: 'Must be a date as YYYY-MM-DD' });
  });
});

describe('rates', () => {
  it('needs a description and an amount, and numbers that read as numbers', () => {
    const bad = parseRate({
      description: ' ',
      kind: 'unit',
      units: 'lots',
      unit: '',
      unitRate: '',
      amount: '',
    });
    expect(bad).toEqual({
      ok: false,
      errors: {
        description: 'This field is required',
        amount: 'This field is required',
        units: 'Must be a number',
      },
    });
  });

  it('builds the rate the API takes', () => {
    expect(
      parseRate({
        description: 'Day units',
        kind: 'unit',
        units: '1,200',
        unit: 'kWh',
        unitRate: '0.2512',
        amount: '301.44',
      }),
    ).toEqual({
      ok: true,
      rate: {
        description: 'Day units',
        kind: 'unit',
        units: 1200,
        unit: 'kWh',
        unitRate: 0.2512,
        amount: 301.44,
      },
    });
  });

  it('works out what units times rate come to', () => {
    expect(expectedAmount({ units: 1200, unitRate: 0.2512 })).toBe(301.44);
    expect(expectedAmount({ units: 1200 })).toBeUndefined();
  });
});
