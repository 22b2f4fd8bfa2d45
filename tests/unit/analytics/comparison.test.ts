import { describe, expect, it } from 'vitest';
import {
  comparisonWindow,
  defaultAnalyticsWindow,
  widgetComparisonWindow,
} from '../../../shared/analytics/comparison.ts';

describe('comparison windows', () => {
  const march = { start: '2025-03-01', end: '2025-03-31' };

  it('compares with the same number of days just before for "period"', () => {
    expect(comparisonWindow(march, 'period')).toEqual({ start: '2025-01-29', end: '2025-02-28' });
  });

  it('moves back a month, a quarter or a year, keeping month ends on month ends', () => {
    expect(comparisonWindow(march, 'month')).toEqual({ start: '2025-02-01', end: '2025-02-28' });
    expect(comparisonWindow({ start: '2025-04-01', end: '2025-06-30' }, 'quarter')).toEqual({
      start: '2025-01-01',
      end: '2025-03-31',
    });
    expect(comparisonWindow({ start: '2025-06-01', end: '2025-06-30' }, 'month')).toEqual({
      start: '2025-05-01',
      end: '2025-05-31',
    });
    expect(comparisonWindow({ start: '2024-02-01', end: '2024-02-29' }, 'year')).toEqual({
      start: '2023-02-01',
      end: '2023-02-28',
    });
    expect(comparisonWindow({ start: '2025-03-10', end: '2025-03-20' }, 'year')).toEqual({
      start: '2024-03-10',
      end: '2024-03-20',
    });
  });

  it('has no comparison for "none"', () => {
    expect(comparisonWindow(march, 'none')).toBeUndefined();
  });

  it('compares a widget by whole month, whole year or days before', () => {
    expect(widgetComparisonWindow(march)).toEqual({ start: '2025-02-01', end: '2025-02-28' });
    expect(widgetComparisonWindow({ start: '2024-01-01', end: '2024-12-31' })).toEqual({
      start: '2023-01-01',
      end: '2023-12-31',
    });
    expect(widgetComparisonWindow({ start: '2025-03-10', end: '2025-03-19' })).toEqual({
      start: '2025-02-28',
      end: '2025-03-09',
    });
  });

  it('defaults to the start of the month a year ago up to the end of last month', () => {
    expect(defaultAnalyticsWindow('2026-11-26')).toEqual({ start: '2025-11-01', end: '2026-10-31' });
    expect(defaultAnalyticsWindow('2026-01-01')).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });
});
