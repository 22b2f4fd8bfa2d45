import { describe, expect, it } from 'vitest';
import type { CaptureResults, InvoiceExtract } from '../../../shared/capture/model.ts';
import { matchInvoiceSuppliers, matchSupplier } from '../../../shared/capture/supplier-match.ts';

const LIST = [
  { _id: 's1', name: 'Enbridge Gas Distribution' },
  { _id: 's2', name: 'British Gas' },
  { _id: 's3', name: 'Électricité de France' },
  { _id: 's4', name: 'Kitchener Utilities' },
  { _id: 's5', name: 'Kitchener-Wilmot Hydro' },
];

describe('matching the supplier read from a bill against the suppliers list', () => {
  it('matches the same name exactly, whatever its case', () => {
    expect(matchSupplier('BRITISH GAS', LIST)).toMatchObject({ how: 'exact', supplierId: 's2' });
  });

  it('matches a name once legal form, accents and punctuation are set aside', () => {
    expect(matchSupplier('Enbridge Gas Distribution Inc.', LIST)).toMatchObject({
      how: 'normalised',
      supplierId: 's1',
    });
    expect(matchSupplier('ELECTRICITE DE FRANCE SA', LIST)).toMatchObject({
      how: 'normalised',
      supplierId: 's3',
    });
  });

  it('matches a misread or shortened name as fuzzy, with how alike the names are', () => {
    const misread = matchSupplier('Kitchener Utilitles', LIST);
    expect(misread).toMatchObject({ how: 'fuzzy', supplierId: 's4' });
    expect(misread.score).toBeGreaterThanOrEqual(0.85);
    expect(matchSupplier('Enbridge', LIST)).toMatchObject({ how: 'fuzzy', supplierId: 's1' });
  });

  it('matches nothing for another supplier, and offers none when two are equally close', () => {
    expect(matchSupplier('Octopus Energy Ltd', LIST)).toEqual({ read: 'Octopus Energy Ltd', how: 'none' });
    // 'Kitchener' leads both Kitchener Utilities and Kitchener-Wilmot Hydro: a person chooses.
    expect(matchSupplier('Kitchener', LIST).how).toBe('none');
  });

  it('gives a templateless invoice the matched supplier, and leaves a template’s invoice as it was', () => {
    const invoice = (supplierId?: string): InvoiceExtract => ({
      index: 0,
      pages: [1],
      method: supplierId ? 'template' : 'generic',
      ...(supplierId ? { supplierId } : {}),
      values: { supplierName: { value: 'British Gas Ltd', text: 'British Gas Ltd', confidence: 90 } },
      rates: [],
      multiMeter: { meters: [] },
    });
    const results: CaptureResults = {
      pageCount: 1,
      ocr: false,
      multiInvoice: { invoices: [invoice(), invoice('s9')] },
      extractMeterValues: [],
      extractRates: [],
      extractReadings: [],
    };
    matchInvoiceSuppliers(results, LIST);
    const [generic, template] = results.multiInvoice.invoices;
    expect(generic?.supplierId).toBe('s2');
    expect(generic?.supplierMatch).toMatchObject({ how: 'normalised', name: 'British Gas' });
    expect(template?.supplierId).toBe('s9');
    expect(template?.supplierMatch).toBeUndefined();
  });
});
