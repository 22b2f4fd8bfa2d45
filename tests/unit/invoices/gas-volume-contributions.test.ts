import { describe, expect, it } from 'vitest';
import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import { contributionsOf } from '../../../functions/invoices/invoice-confirm.ts';

const gasAccount = (unit: string) => ({ id: 'acc-gas', type: 'gas', unit }) as unknown as StoredItem;
const bill = (values: Record<string, unknown>) =>
  ({
    id: 'inv-1',
    values: { startDate: '2025-03-01', endDate: '2025-03-31', netTotal: 500, ...values },
  }) as unknown as StoredItem;

describe('a gas bill read by volume, confirmed into its account', () => {
  it('counts kWh at the bill’s calorific value on a kWh account, with emissions', () => {
    const [march] = contributionsOf(
      bill({ consumption: 1000, consumptionUnit: 'm³', calorificValue: 39.2 }),
      gasAccount('kWh'),
    );
    expect(march?.consumption).toBeCloseTo(11_135.413, 3);
    expect(march?.emissionsKg).toBeCloseTo(11_135.413 * 0.18296, 2);
  });

  it('keeps m³ on an m³ account and still works out its emissions', () => {
    const [march] = contributionsOf(
      bill({ consumption: 40, consumptionUnit: 'hcf', calorificValue: 39.2 }),
      gasAccount('m³'),
    );
    expect(march?.consumption).toBeCloseTo(113.267, 3);
    expect(march?.emissionsKg).toBeCloseTo(((113.2672 * 39.2 * 1.02264) / 3.6) * 0.18296, 2);
    expect(march?.factorVersion).toBe('desnz-2025-v2');
  });
});
