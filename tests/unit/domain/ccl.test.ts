import { describe, expect, it } from 'vitest';
import { CCA_DISCOUNTS, ccaDiscount, cclCharge, cclRate } from '../../../shared/domain/ccl.ts';

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

  it('relieves agreement holders of gas levy by the discount of the levy year: 86%, 88%, then 89%', () => {
    expect(ccaDiscount('gas', '2022-06-01')).toBe(0.86);
    expect(ccaDiscount('gas', '2023-06-01')).toBe(0.88);
    expect(ccaDiscount('gas', '2024-04-01')).toBe(0.89);
    expect(ccaDiscount('gas', '2026-06-01')).toBe(0.89);
    expect(ccaDiscount('electricity', '2023-06-01')).toBe(0.92);
    expect(CCA_DISCOUNTS.every((d) => d.source.includes('rates-and-allowances-climate-change-levy'))).toBe(
      true,
    );
    // 100,000 kWh in June 2023: 12% of 0.00672 is £80.64, where 11% would be £73.92.
    expect(cclCharge('gas', 100_000, '2023-06-15', { cca: true })).toBe(80.64);
    expect(cclCharge('gas', 100_000, '2022-06-15', { cca: true })).toBe(79.52);
  });

  it('rounds the charge to the penny', () => {
    expect(cclCharge('electricity', 12_345, '2025-06-01')).toBe(95.67);
  });
});
