import { describe, expect, it } from 'vitest';
import { toCapture } from '../../../functions/invoices/invoice-repository.ts';

describe('a stored capture', () => {
  it('reads with its fields typed as its readers use them', () => {
    const capture = toCapture({
      _id: 'c1',
      fileName: 'bill.pdf',
      key: 'invoices/c/c1/bill.pdf',
      invoiceIds: ['c1'],
    });
    expect(capture.invoiceIds).toEqual(['c1']);
    expect(capture.fileName).toBe('bill.pdf');
  });

  it('is refused, naming the field, when a field its readers rely on has another type', () => {
    expect(() => toCapture({ _id: 'c2', invoiceIds: [7] })).toThrow(
      'The stored capture c2 has invoice ids that are not ids',
    );
    expect(() => toCapture({ _id: 'c3', key: 42 })).toThrow(
      'The stored capture c3 has a key that is not text',
    );
  });
});
