import { describe, expect, it } from 'vitest';
import type { SourcedMonth } from '../../../functions/analytics/analytics-estimates.ts';
import type { ReadScope } from '../../../functions/analytics/analytics-scope.ts';
import { SOURCE_DATA_CAP, sourceDataOf } from '../../../functions/analytics/analytics-source-data.ts';

const figure = (month: string) => ({
  month,
  utilityType: 'electricity' as const,
  consumption: 1,
  unit: 'kWh',
  cost: 1,
  emissionsKg: 1,
});
const scope = (kind: ReadScope['kind'], id?: string): ReadScope => ({
  kind,
  ...(id ? { id } : {}),
  wholeCompany: kind === 'company',
  sites: [],
  meters: [],
  restricted: false,
});
const window = { start: '2025-01-15', end: '2025-02-28' };

describe('the records behind a period', () => {
  // 120 meters billed in January, each month with its own bill; 60 estimated in February.
  const months: SourcedMonth[] = [
    ...Array.from({ length: 120 }, (_, i) => ({
      accountId: `m${String(i).padStart(3, '0')}`,
      kind: 'bills' as const,
      invoiceIds: [`i${String(i).padStart(3, '0')}`],
      figure: figure('2025-01'),
    })),
    ...Array.from({ length: 60 }, (_, i) => ({
      accountId: `m${String(i).padStart(3, '0')}`,
      kind: 'estimates' as const,
      invoiceIds: [],
      figure: figure('2025-02'),
    })),
  ];

  it('names at most the cap of each, counting them all, per bucket cut to the window', () => {
    const buckets = [
      { key: '2025-01', label: 'Jan 2025', start: '2025-01-01', end: '2025-01-31' },
      { key: '2025-02', label: 'Feb 2025', start: '2025-02-01', end: '2025-02-28' },
    ];
    const data = sourceDataOf(months, window, buckets, scope('site', 's1'), undefined);
    expect(data.window.invoiceIds).toHaveLength(SOURCE_DATA_CAP);
    expect(data.window).toMatchObject({ invoiceCount: 120, meterMonthCount: 60 });
    expect(data.window.meterMonths).toHaveLength(SOURCE_DATA_CAP);
    const [january, february] = data.buckets ?? [];
    expect(january).toMatchObject({
      start: '2025-01-15',
      end: '2025-01-31',
      invoiceCount: 120,
      meterMonthCount: 0,
    });
    expect(january?.provenance).toBe('/analytics/provenance?from=2025-01-15&to=2025-01-31&assetId=s1');
    expect(february).toMatchObject({ invoiceCount: 0, meterMonthCount: 60 });
  });

  it('links the provenance call only where it narrows to the same figures', () => {
    const link = (s: ReadScope, utilities?: ('electricity' | 'gas')[]) =>
      sourceDataOf(months, window, undefined, s, utilities).window.provenance;
    expect(link(scope('meter', 'a1'), ['electricity'])).toBe(
      '/analytics/provenance?from=2025-01-15&to=2025-02-28&accountId=a1&utilityType=electricity',
    );
    expect(link(scope('company'))).toBe('/analytics/provenance?from=2025-01-15&to=2025-02-28');
    expect(link(scope('company'), ['electricity', 'gas'])).toBeUndefined();
    expect(link(scope('portfolio', 'g1'))).toBeUndefined();
    expect(link(scope('entity', 'e1'))).toBeUndefined();
  });
});
