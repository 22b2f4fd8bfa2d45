import { describe, expect, it } from 'vitest';
import { formatArea, formatCount, formatDate, formatDateTime, formatNumber } from '../../web/lib/format.ts';

describe('dates', () => {
  it('shows a calendar day as DD/MM/YYYY, whatever the time zone', () => {
    expect(formatDate('2025-08-18')).toBe('18/08/2025');
    expect(formatDate('2024-01-05')).toBe('05/01/2024');
  });

  it('shows a moment as the local DD/MM/YYYY', () => {
    expect(formatDate(new Date(2026, 1, 3, 23, 59))).toBe('03/02/2026');
    expect(formatDate(new Date(2026, 11, 31).getTime())).toBe('31/12/2026');
  });

  it('adds the local time for date-times', () => {
    expect(formatDateTime(new Date(2025, 6, 9, 7, 5))).toBe('09/07/2025 07:05');
  });

  it('shows nothing for a missing or unreadable date', () => {
    expect(formatDate(undefined)).toBe('');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('')).toBe('');
  });
});

describe('numbers', () => {
  it('groups thousands and uses a decimal point, en-GB style', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(-0.5)).toBe('-0.5');
    expect(formatNumber(12.3456, { maximumFractionDigits: 3 })).toBe('12.346');
    expect(formatNumber(2, { minimumFractionDigits: 2 })).toBe('2.00');
  });

  it('shows counts without decimals', () => {
    expect(formatCount(12345.6)).toBe('12,346');
    expect(formatCount(0)).toBe('0');
  });

  it('shows nothing for values that are not numbers', () => {
    expect(formatNumber(undefined)).toBe('');
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('floor area', () => {
  it('shows square metres for metric companies', () => {
    expect(formatArea(1500)).toBe('1,500 m²');
  });

  it('converts to square feet with the 0.092903 factor for imperial companies', () => {
    expect(formatArea(92.903, 'imperial')).toBe('1,000 ft²');
    expect(formatArea(1000, 'imperial')).toBe('10,764 ft²');
  });
});
