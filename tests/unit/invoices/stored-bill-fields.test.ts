import { describe, expect, it } from 'vitest';
import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import { contributionsOf } from '../../../functions/invoices/invoice-confirm.ts';

/*
 * A bill is confirmed from what is stored on it, which an older release, an import or a hand edit may have
 * written loosely: what is not of its kind is passed over, rather than failing the confirmation.
 */
const account: StoredItem = { _id: 'acc-1', type: 'electricity', unit: 'kWh' };
const bill = (fields: Record<string, unknown>): StoredItem => ({
  _id: 'inv-1',
  values: { startDate: '2025-03-01', endDate: '2025-03-31', consumption: 1000, netTotal: 250 },
  ...fields,
});

describe('a stored bill confirmed into its account', () => {
  it('adds its VAT charge lines, passing over a line that is not one', () => {
    const [march] = contributionsOf(bill({ rates: [null, { kind: 'vat', amount: 12.5 }, 'vat'] }), account);
    expect(march?.consumption).toBe(1000);
    expect(march?.vat).toBe(12.5);
  });

  it('asks for the period when the stored values are not a set of fields', () => {
    expect(() => contributionsOf(bill({ values: 'March' }), account)).toThrow(
      expect.objectContaining({
        formMessages: expect.objectContaining({ 'values.startDate': expect.any(String) }),
      }),
    );
  });
});
