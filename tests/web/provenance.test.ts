import { describe, expect, it } from 'vitest';
import { addsUp, fromTotals, sumOf } from '../../web/features/analytics/provenance-figures.ts';
import {
  monthWindow,
  readProvenance,
  withoutProvenance,
  withProvenance,
} from '../../web/lib/provenance-link.ts';

describe('the figure a page asks about, in its address', () => {
  it('is added beside the page’s own search, read back whole, and removed again', () => {
    const page = new URLSearchParams('tab=consumption');
    const search = withProvenance(page, {
      assetId: 'a'.repeat(24),
      accountId: 'b'.repeat(24),
      month: '2025-02',
      ...monthWindow('2025-02'),
    });
    const params = new URLSearchParams(search);
    expect(params.get('tab')).toBe('consumption');
    expect(readProvenance(params)).toEqual({
      from: '2025-02-01',
      to: '2025-02-28',
      assetId: 'a'.repeat(24),
      accountId: 'b'.repeat(24),
      month: '2025-02',
    });
    expect(withoutProvenance(params).toString()).toBe('tab=consumption');
  });

  it('opens nothing without a whole window', () => {
    expect(readProvenance(new URLSearchParams('source.from=2025-02-01'))).toBeUndefined();
    expect(readProvenance(new URLSearchParams('source.from=2025-02-01&source.to=soon'))).toBeUndefined();
  });

  it('knows the last day of each month', () => {
    expect(monthWindow('2024-02')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthWindow('2025-12')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });
});

describe('parts adding up to a figure', () => {
  const bill = (consumption: number, cost: number, emissionsKg: number) => ({
    consumption: { value: consumption, unit: 'kWh' },
    cost,
    emissionsKg,
  });

  it('sums the parts without the float noise of adding decimals', () => {
    const sum = sumOf([bill(0.1, 0.1, 0.1), bill(0.2, 0.2, 0.2)]);
    expect(sum).toEqual({ consumption: { value: 0.3, unit: 'kWh' }, cost: 0.3, emissionsKg: 0.3 });
    expect(addsUp(sum, bill(0.3, 0.3, 0.3))).toBe(true);
  });

  it('tells a figure its parts do not make', () => {
    const sum = sumOf([bill(1400, 280, 247.8), bill(1400, 280, 247.8)]);
    expect(addsUp(sum, bill(2800, 560, 495.6))).toBe(true);
    expect(addsUp(sum, bill(2800, 560.01, 495.6))).toBe(false);
    expect(addsUp(sum, bill(2801, 560, 495.6))).toBe(false);
  });

  it('adds consumption only in one unit', () => {
    const mixed = sumOf([bill(10, 1, 1), { consumption: { value: 5, unit: 'm³' }, cost: 1, emissionsKg: 1 }]);
    expect(mixed.consumption).toBeUndefined();
    const site = fromTotals({
      utilities: {
        electricity: { consumption: 2800, unit: 'kWh', cost: 560, emissionsKg: 495.6 },
        gas: { consumption: 500, unit: 'kWh', cost: 50, emissionsKg: 91.155 },
      },
      cost: 610,
      emissionsKg: 586.755,
    });
    expect(site).toEqual({ consumption: undefined, cost: 610, emissionsKg: 586.755 });
  });
});
