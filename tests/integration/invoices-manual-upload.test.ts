import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/core/lib/ids.ts';
import { type InvoiceAccountWorld, startInvoiceAccountWorld } from './invoices-support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/invoices');
let w: InvoiceAccountWorld;
let owner: string;
let accountId: string;
let assetId: string;
let billPdf: Uint8Array<ArrayBuffer>;

const VALUES = {
  invoiceNumber: 'MAN-0001',
  invoiceDate: '2026-03-05',
  startDate: '2026-02-01',
  endDate: '2026-02-28',
  consumption: 1200,
  consumptionUnit: 'kWh',
  netTotal: 314,
  vatTotal: 62.8,
  grossTotal: 376.8,
};

interface Answer {
  status: number;
  body: Record<string, unknown> & { formMessages?: Record<string, string> };
}

const manualUpload = (body: Record<string, unknown>, token = owner) =>
  w.api({ method: 'POST', path: '/invoices/manual-upload', token, body }) as Promise<Answer>;

const request = (overrides: Record<string, unknown> = {}) => ({
  fileName: 'March bill.pdf',
  contentType: 'application/pdf',
  size: billPdf.length,
  accountId,
  values: VALUES,
  ...overrides,
});

const put = (url: unknown, bytes: Uint8Array<ArrayBuffer>, contentType = 'application/pdf') =>
  fetch(String(url), { method: 'PUT', headers: { 'Content-Type': contentType }, body: bytes });

async function accountInvoices(): Promise<Record<string, unknown>[]> {
  const res = await w.api({
    method: 'GET',
    path: `/invoices?accountId=${accountId}&isCreditNote=false`,
    token: owner,
  });
  return (res.body as { data: Record<string, unknown>[] }).data;
}

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Temple Quay',
    meterPointNumber: '1312345678907',
    name: 'Main incomer',
  });
  ({ owner, accountId, assetId } = w);
  billPdf = new Uint8Array(await readFile(path.join(FIXTURES, 'bgb-electricity-digital.pdf')));
});

afterAll(async () => w?.stop());

describe('manual upload', () => {
  it('files a typed-in invoice on its account once its document has arrived, and sends it to validation', async () => {
    const ticket = await manualUpload(request());
    expect(ticket.status).toBe(200);
    expect(String(ticket.body.key)).toMatch(new RegExp(`^manual/${w.demoId}/[0-9a-f]{24}/March-bill\\.pdf$`));
    // Nothing is filed before the document is there.
    expect(await accountInvoices()).toEqual([]);

    expect((await put(ticket.body.uploadUrl, billPdf)).status).toBe(200);
    await w.drain('validation');
    const filed = await manualUpload(request({ key: ticket.body.key }));
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({
      status: 'manual',
      source: 'manual',
      accountId,
      invoiceNumber: 'MAN-0001',
      grossTotal: 376.8,
      values: VALUES,
    });
    const id = String(filed.body._id);
    const queued = (await w.drain('validation')).map((b) => JSON.parse(b) as { invoiceId: string });
    expect(queued.map((m) => m.invoiceId)).toContain(id);

    // Sent again (a retry after a lost answer), it is the same invoice, not a second one.
    const again = await manualUpload(request({ key: ticket.body.key }));
    expect(again.body._id).toBe(id);
    expect((await accountInvoices()).map((i) => i._id)).toEqual([id]);

    // The document is the one uploaded.
    const link = await w.api({ method: 'GET', path: `/invoices/${id}/download`, token: owner });
    const bytes = new Uint8Array(await (await fetch(String(link.body.url))).arrayBuffer());
    expect(bytes).toEqual(billPdf);
    // Shown in the page, it is typed by its name, as a download is, not by what its upload declared.
    const preview = await w.api({
      method: 'GET',
      path: `/invoices/${id}/download?preview=true`,
      token: owner,
    });
    const asked = new URL(String(preview.body.url)).searchParams;
    expect(asked.get('response-content-type')).toBe('application/pdf');
    expect(asked.get('response-content-disposition')).toBeNull();
  });

  it('puts the reason a document was refused beside the file, and files nothing', async () => {
    const before = (await accountInvoices()).length;
    const missing = await manualUpload(request());
    const notArrived = await manualUpload(request({ key: missing.body.key }));
    expect(notArrived.status).toBe(400);
    expect(notArrived.body.formMessages).toEqual({ file: 'The document did not arrive. Upload it again.' });

    const word = await manualUpload(request());
    await put(word.body.uploadUrl, new TextEncoder().encode('PK\u0003\u0004 word document'));
    const notPdf = await manualUpload(request({ key: word.body.key }));
    expect(notPdf.status).toBe(400);
    expect(notPdf.body.formMessages).toEqual({
      file: 'The file is not a PDF document or a PNG, JPEG or TIFF image',
    });
    // The refused document is not kept: sent again with the same key, it has not arrived.
    const retried = await manualUpload(request({ key: word.body.key }));
    expect(retried.body.formMessages).toEqual({ file: 'The document did not arrive. Upload it again.' });

    const forged = await manualUpload(request({ key: `manual/${w.otherId}/${newId()}/bill.pdf` }));
    expect(forged.status).toBe(400);
    expect(forged.body.formMessages).toEqual({ file: 'Upload the document first' });
    expect(await accountInvoices()).toHaveLength(before);
  });

  it('refuses a wrong account, bad values or a file of another type before anything is uploaded', async () => {
    const res = await manualUpload(
      request({ accountId: newId(), values: { invoiceDate: '05/03/2026', grossTotal: 'lots' } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      accountId: 'Account not found',
      'values.invoiceDate': 'Must be a date as YYYY-MM-DD',
      'values.grossTotal': 'Must be a number',
    });
    expect(res.body.uploadUrl).toBeUndefined();

    const docx = await manualUpload(request({ fileName: 'bill.docx', contentType: 'application/msword' }));
    expect(docx.status).toBe(400);
    expect(String(docx.body.formMessages?.contentType)).toContain('PDF');
    const big = await manualUpload(request({ size: 21 * 1024 * 1024 }));
    expect(big.body.formMessages).toMatchObject({ size: 'The file is larger than 20 MB' });
  });

  it('lets a bill validation user file only on accounts they may change', async () => {
    const elsewhere = await w.addUser('biller-elsewhere', ['bill_validation'], {
      assets: { read: [newId()], write: [] },
    });
    expect((await manualUpload(request(), elsewhere)).body.formMessages).toEqual({
      accountId: 'Account not found',
    });
    const reader = await w.addUser('biller-reader', ['bill_validation'], {
      assets: { read: [assetId], write: [] },
    });
    expect((await manualUpload(request(), reader)).body.formMessages).toEqual({
      accountId: 'You may not add invoices to this account',
    });
    const writer = await w.addUser('biller-writer', ['bill_validation'], {
      assets: { read: [assetId], write: [assetId] },
    });
    expect((await manualUpload(request(), writer)).status).toBe(200);
    const siteUser = await w.addUser('site-only', ['asset_user'], {
      assets: { read: [assetId], write: [assetId] },
    });
    expect((await manualUpload(request(), siteUser)).status).toBe(403);
  });
});
