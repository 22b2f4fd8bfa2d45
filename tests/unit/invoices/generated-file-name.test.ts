import { describe, expect, it } from 'vitest';
import { FILE_NAME_PART_LIMIT, generatedFileName } from '../../../functions/invoices/invoice-records.ts';
import { companySettingsSchema, invoiceFileNameLimitSchema } from '../../../shared/schemas/company.ts';

const invoice = {
  _id: '0123456789abcdef01234567',
  fileName: 'scan 0042.PDF',
  invoiceNumber: 'INV-0042',
  invoiceStartDate: '2026-01-01',
  invoiceEndDate: '2026-01-31',
};
const names = {
  legalName: 'The Very Long Name of a Property Holding Company Limited',
  siteName: 'Harbourside Distribution Centre and Regional Offices',
};

describe('generated invoice file names', () => {
  it('cuts the legal name and the site name at 40 characters each by default', () => {
    expect(FILE_NAME_PART_LIMIT).toBe(40);
    expect(generatedFileName(invoice, names)).toBe(
      'The-Very-Long-Name-of-a-Property-Holding-Harbourside-Distribution-Centre-and-Regi-2026-01-01-to-2026-01-31-INV-0042.PDF',
    );
  });

  it('cuts at the company’s own limit, without a trailing space', () => {
    expect(generatedFileName(invoice, names, 12)).toBe(
      'The-Very-Lon-Harbourside-2026-01-01-to-2026-01-31-INV-0042.PDF',
    );
    expect(generatedFileName(invoice, { legalName: 'Acme Ltd', siteName: 'Depot' }, 10)).toBe(
      'Acme-Ltd-Depot-2026-01-01-to-2026-01-31-INV-0042.PDF',
    );
  });

  it('falls back to the uploaded name when nothing names the invoice', () => {
    expect(generatedFileName({ _id: invoice._id, fileName: 'bill (1).png' }, {})).toBe('bill-1.png');
    expect(generatedFileName({ _id: invoice._id }, {})).toBe('invoice.pdf');
  });

  it('accepts a limit from 10 to 120 characters, 40 when unset', () => {
    expect(companySettingsSchema.parse({}).invoiceFileNameLimit).toBe(40);
    for (const ok of [10, 40, 120]) expect(invoiceFileNameLimitSchema.safeParse(ok).success).toBe(true);
    for (const bad of [9, 121, 20.5, '40', null])
      expect(invoiceFileNameLimitSchema.safeParse(bad).success, String(bad)).toBe(false);
  });
});
