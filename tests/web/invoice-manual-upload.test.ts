import { describe, expect, it } from 'vitest';
import { manualUploadErrors, manualUploadRequest } from '../../web/features/invoices/manual-upload.ts';
import { ApiError } from '../../web/lib/api-client.ts';

const ACCOUNT = '0123456789abcdef01234567';
const pdf = { name: 'March bill.pdf', type: 'application/pdf', size: 2048 };

describe('the manual upload form', () => {
  it('sends the file and the typed values, read as their types, leaving empty ones out', () => {
    const request = manualUploadRequest(
      pdf,
      {
        invoiceNumber: ' INV-1 ',
        invoiceDate: '2026-03-05',
        grossTotal: '£1,234.50',
        consumption: '1,200',
        netTotal: '',
      },
      ACCOUNT,
    );
    expect(request).toEqual({
      ok: true,
      body: {
        fileName: 'March bill.pdf',
        contentType: 'application/pdf',
        size: 2048,
        accountId: ACCOUNT,
        values: { invoiceNumber: 'INV-1', invoiceDate: '2026-03-05', grossTotal: 1234.5, consumption: 1200 },
      },
    });
  });

  it('names the file by its extension when the browser gives no type', () => {
    const request = manualUploadRequest({ name: 'scan.TIF', type: '', size: 10 }, {}, ACCOUNT);
    expect(request.ok && request.body.contentType).toBe('image/tiff');
  });

  it('stops before sending: no file, a file that cannot be captured, values that do not read, a backwards period', () => {
    expect(manualUploadRequest(undefined, {}, ACCOUNT)).toEqual({
      ok: false,
      errors: { fields: { file: 'Choose a file' } },
    });
    const request = manualUploadRequest(
      { name: 'bill.docx', type: 'application/msword', size: 10 },
      { grossTotal: 'lots', startDate: '2026-02-01', endDate: '2026-01-31' },
      ACCOUNT,
    );
    expect(request).toEqual({
      ok: false,
      errors: {
        fields: {
          file: 'Only PDF documents and PNG, JPEG or TIFF images can be captured',
          grossTotal: 'Must be a number',
          endDate: 'The period must end on or after its start',
        },
      },
    });
    expect(manualUploadRequest({ ...pdf, size: 21 * 1024 * 1024 }, {}, ACCOUNT)).toMatchObject({
      errors: { fields: { file: 'The file is larger than 20 MB' } },
    });
  });
});

describe('a failed manual upload', () => {
  it('puts the server’s messages into the validation errors beside their fields', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'Form validation error', {
      'values.invoiceDate': 'Must be a date as YYYY-MM-DD',
      size: 'The file is larger than 20 MB',
      accountId: 'You may not add invoices to this account',
    });
    expect(manualUploadErrors(error)).toEqual({
      fields: { invoiceDate: 'Must be a date as YYYY-MM-DD', file: 'The file is larger than 20 MB' },
      message: 'You may not add invoices to this account',
    });
  });

  it('shows a refusal without fields in the server’s words', () => {
    expect(
      manualUploadErrors(new ApiError(403, 'FORBIDDEN', 'You do not have permission to do this')),
    ).toEqual({
      fields: {},
      message: 'You do not have permission to do this',
    });
  });

  it('puts the upload message into the validation errors when the upload fails in transit or the server fails', () => {
    const upload = { fields: {}, message: 'There was a problem uploading the invoice.' };
    expect(manualUploadErrors(new Error('The upload failed (403)'))).toEqual(upload);
    expect(manualUploadErrors(new ApiError(500, 'INTERNAL', 'Internal error'))).toEqual(upload);
  });
});
