import { describe, expect, it } from 'vitest';
import { INVOICE_KEYS } from '../../shared/capture/model.ts';
import { TEMPLATE_VALUES } from '../../shared/data/template-value-format.ts';

describe('template value keys', () => {
  it('names every invoice key a template can fill, and no other', () => {
    expect(TEMPLATE_VALUES.map((v) => v.value).sort()).toEqual([...INVOICE_KEYS].sort());
  });
});
