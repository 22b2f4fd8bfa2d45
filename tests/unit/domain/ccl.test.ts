import { describe, expect, it } from 'vitest';
import { cclCharge, cclRate } from '../../../shared/domain/ccl.ts';

describe('Climate Change Levy', () => {
  it('charges electricity 0.00775 until 31 March 2026 and 0.00801 from 1 April 2026', () => {
    expect(cclRate('electricity', '2022-04-01')).toBe(0.00775);
    expect(cclRate('electricity', '2026-03-31')).toBe(0.00775);
    expect(cclRate('electricity', '2026-04-01')).toBe(0.00801);
  });

  it('charges gas by levy year', () => {
    expect(cclRate('gas', '2022-06-15')).toBe(0.00568);
    expect(cclRate('gas', '2023-04-01')).toBe(0.00672);
    expect(cclRate('gas', '2024-03-31')).toBe(0.00672);
    expect(cclRate('gas', '2024-04-01')).toBe(0.00775);
    expect(cclRate('gas', '2025-12-01')).toBe(0.00775);
    expect(cclRate('gas', '2026-04-01')).toBe(0.00801);
  });

  it('knows no rate before the table starts', () => {
    expect(cclRate('gas', '2021-12-31')).toBeUndefined();
  });

  it('relieves climate change agreement holders and skips domestic supply', () => {
    expect(cclRate('electricity', '2025-01-01', { cca: true })).toBeCloseTo(0.00775 * 0.08, 10);
    expect(cclRate('gas', '2025-01-01', { cca: true })).toBeCloseTo(0.00775 * 0.11, 10);
    expect(cclRate('gas', '2025-01-01', { domestic: true })).toBe(0);
  });

  it('rounds the charge to the penny', () => {
    expect(cclCharge('electricity', 12_345, '2025-06-01')).toBe(95.67);
  });
});
