import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InvoiceAccountWorld, startInvoiceAccountWorld } from './invoices-support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/invoices');
let w: InvoiceAccountWorld;
let owner: string;
let accountId: string;

interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string; message?: string };
}
const call = (method: 'GET' | 'POST' | 'PUT', p: string, token = owner) =>
  w.api({ method, path: p, token }) as Promise<Answer>;

/** Files a document on the account through the manual upload, as the account page does. */
async function filed(fixture: string, invoiceNumber: string): Promise<{ id: string; bytes: Uint8Array }> {
  const bytes = new Uint8Array(await readFile(path.join(FIXTURES, fixture)));
  const body = {
    fileName: fixture,
    contentType: 'application/pdf',
    size: bytes.length,
    accountId,
    values: { invoiceNumber, grossTotal: 120 },
  };
  const ticket = await w.api({ method: 'POST', path: '/invoices/manual-upload', token: owner, body });
  const put = await fetch(String(ticket.body.uploadUrl), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/pdf' },
    body: bytes,
  });
  expect(put.status).toBe(200);
  const invoice = await w.api({
    method: 'POST',
    path: '/invoices/manual-upload',
    token: owner,
    body: { ...body, key: ticket.body.key },
  });
  expect(invoice.status).toBe(201);
  return { id: String(invoice.body._id), bytes };
}

/** Follows a download answer's link to the bytes a browser would save. */
async function fetched(answer: Answer): Promise<Uint8Array> {
  expect(answer.status).toBe(200);
  const res = await fetch(String(answer.body.url));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

async function textOf(pdf: Uint8Array): Promise<string> {
  const doc = await getDocument({ data: pdf.slice(), verbosity: 0, isEvalSupported: false }).promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const text = content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
  await doc.destroy();
  return text;
}

const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-';

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Temple Quay',
    meterPointNumber: '1312345678907',
    name: 'Main incomer',
  });
  ({ owner, accountId } = w);
});

afterAll(async () => w?.stop());

describe('stamping an invoice', () => {
  it('has no stamped copy to download until it is stamped, and says so', async () => {
    const { id } = await filed('bgb-electricity-digital.pdf', 'STAMP-0');
    for (const p of [
      `/invoices/${id}/download?stamped=true`,
      `/accounts/${accountId}/invoice/${id}/download?stamped=true`,
    ]) {
      const res = await call('GET', p);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'This invoice has not been stamped yet' });
    }
  });

  it('keeps a stamped PDF copy beside the untouched original, downloadable from both invoice calls', async () => {
    const { id, bytes } = await filed('bgb-electricity-digital.pdf', 'STAMP-1');
    expect(await textOf(bytes)).not.toContain('RECEIVED');
    const stamped = await call('POST', `/invoices/${id}/stamp`);
    expect(stamped.status).toBe(200);
    expect(stamped.body.stampedAt).toEqual(expect.any(String));
    const today = new Date().toISOString().slice(0, 10);

    const direct = await call('GET', `/invoices/${id}/download?stamped=true`);
    expect(String(direct.body.name)).toMatch(/-stamped\.pdf$/);
    const copy = await fetched(direct);
    expect(isPdf(copy)).toBe(true);
    expect(copy).not.toEqual(bytes);
    const text = await textOf(copy);
    expect(text).toContain(`RECEIVED ${today}`);
    expect(text).toContain('STAMP-1');

    const viaAccount = await fetched(
      await call('GET', `/accounts/${accountId}/invoice/${id}/download?stamped=true`),
    );
    expect(viaAccount).toEqual(copy);
    // Without the flag it is still the document as uploaded.
    expect(await fetched(await call('GET', `/invoices/${id}/download`))).toEqual(bytes);
    expect(await fetched(await call('GET', `/accounts/${accountId}/invoice/${id}/download`))).toEqual(bytes);
    // The list the account page reads shows it as stamped.
    const list = await call('GET', `/invoices?accountId=${accountId}&isCreditNote=false`);
    const row = (list.body.data as Record<string, unknown>[]).find((i) => i._id === id);
    expect(row?.stampedAt).toBe(stamped.body.stampedAt);
  });

  it('stamps a credit note as a credit note, downloaded from the credit note calls', async () => {
    const { id, bytes } = await filed('edf-gas-digital.pdf', 'CN-1');
    expect((await call('PUT', `/accounts/${accountId}/invoices/${id}/to-credit-note`)).status).toBe(200);
    const none = await call('GET', `/accounts/${accountId}/credit-notes/${id}/download?stamped=true`);
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('This credit note has not been stamped yet');

    expect((await call('POST', `/accounts/${accountId}/credit-notes/${id}/stamp`)).status).toBe(200);
    const copy = await fetched(
      await call('GET', `/accounts/${accountId}/credit-notes/${id}/download?stamped=true`),
    );
    expect(copy).not.toEqual(bytes);
    expect(await textOf(copy)).toContain('CREDIT NOTE');
  });

  it('refuses to stamp an encrypted PDF with a reason, keeping no copy', async () => {
    const { id } = await filed('thames-water-encrypted.pdf', 'ENC-1');
    const res = await call('POST', `/invoices/${id}/stamp`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This document cannot be stamped: it is not a readable PDF, PNG or JPEG');
    expect((await call('GET', `/invoices/${id}/download?stamped=true`)).status).toBe(404);
  });
});
