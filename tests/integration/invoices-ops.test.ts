import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putObject } from '../../functions/core/adapters/s3.ts';
import { bucketName } from '../../functions/core/config.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import type { TestResponse } from '../support/http-events.ts';
import {
  type InvoiceAccountWorld,
  januaryBill,
  putCompanyItem,
  startInvoiceAccountWorld,
  storeCapturedInvoice,
} from './invoices-support.ts';

/**
 * The invoice, capture, validation-queue and e-mail calls as a person (or a machine) uses them: what each
 * answers and what it changes.
 */

const MPAN = '1700000000014';
let w: InvoiceAccountWorld;

const bill = (overrides: Record<string, unknown> = {}) =>
  januaryBill(
    'OPS',
    { meterPointNumber: MPAN, consumption: 2000, netTotal: 500, vatTotal: 100, grossTotal: 600 },
    overrides,
  );

const idsOf = (res: TestResponse) => (res.body.data as { _id: string }[]).map((d) => d._id);
const queuedIds = async () => (await w.drain('validation')).map((b) => String(JSON.parse(b).invoiceId));
const bytesAt = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Canal Wharf',
    meterPointNumber: MPAN,
    name: 'Canal Wharf supply',
  });
});

afterAll(async () => w?.stop());

describe('the capture inbox log', () => {
  it('lists the company’s e-mails and downloads an attachment’s bytes, keeping other companies out', async () => {
    const emailId = newId();
    const key = `invoices/${w.demoId}/${newId()}/march.pdf`;
    await putObject(bucketName('uploads'), key, PDF, 'application/pdf');
    await putCompanyItem(w.demoId, 'emails', [], {
      _id: emailId,
      from: 'billing@supplier.example',
      to: ['invoices@demo.capture.test'],
      subject: 'March invoice',
      status: 'accepted',
      attachments: [{ _id: `${emailId}-1`, fileName: 'march.pdf', key }],
    });
    const list = await w.call('GET', '/emails');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ _id: emailId, subject: 'March invoice', status: 'accepted' }),
    ]);
    const download = await w.call('GET', `/emails/${emailId}/attachments/${emailId}-1/download`);
    expect(download.status).toBe(200);
    expect(download.body.name).toBe('march.pdf');
    expect(await bytesAt(String(download.body.url))).toEqual(PDF);

    expect((await w.call('GET', `/emails/${emailId}/attachments/nope/download`)).status).toBe(404);
    const outsider = w.token('outsider');
    expect(
      (await w.call('GET', `/emails/${emailId}/attachments/${emailId}-1/download`, undefined, outsider))
        .status,
    ).toBe(404);
    expect((await w.call('GET', '/emails', undefined, outsider)).body.total).toBe(0);
  });
});

describe('machine upload', () => {
  it('takes a document from a machine key, marked as sent by the API, and refuses the machine other writes', async () => {
    const machine = await w.call('POST', '/machines', {
      name: 'AP system',
      permissions: ['bill_validation'],
    });
    expect(machine.status).toBe(201);
    const headers = { 'x-key': String(machine.body.xKey) };
    const upload = await w.api({
      method: 'POST',
      path: '/invoices/captur-upload',
      headers,
      body: { fileName: 'from-ap.pdf', contentType: 'application/pdf', size: PDF.length },
    });
    expect(upload.status).toBe(201);
    const put = await fetch(String(upload.body.uploadUrl), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf' },
      body: Buffer.from(PDF),
    });
    expect(put.status).toBe(200);
    const invoice = await w.call('GET', `/invoices/${upload.body._id}`);
    expect(invoice.body).toMatchObject({ source: 'api', status: 'uploading', fileName: 'from-ap.pdf' });
    const capture = await w.call('GET', `/invoice-capture/${upload.body._id}/download`);
    expect(capture.status).toBe(200);
    expect(capture.body.name).toBe('from-ap.pdf');
    expect(await bytesAt(String(capture.body.url))).toEqual(PDF);

    const write = await w.api({
      method: 'PATCH',
      path: `/invoices/${upload.body._id}`,
      headers,
      body: { values: { consumption: 1 } },
    });
    expect(write.status).toBe(401);
  });
});

describe('deleting invoices in bulk', () => {
  it('deletes several, takes a confirmed one’s figures out, marks the ones not to fetch again, and reports the unknown', async () => {
    const a = await w.captured(bill({ startDate: '2025-01-01', endDate: '2025-01-31' }));
    const b = await w.captured(bill());
    expect((await w.call('POST', `/invoices/${a}/confirm`)).status).toBe(200);
    expect(await w.consumptionIn('2025-01')).toBe(2000);
    const unknown = newId();
    const res = await w.call('POST', '/invoices/bulk-delete', { ids: [a, b, unknown], noScrapeIds: [b] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 2, missing: [unknown] });
    expect(await w.consumptionIn('2025-01')).toBe(0);
    expect((await w.call('GET', `/invoices/${b}`)).body).toMatchObject({ deleted: true, noScrape: true });
    expect((await w.call('GET', `/invoices/${a}`)).body).not.toHaveProperty('noScrape');
    const listed = await w.call('GET', `/invoices?accountId=${w.accountId}&limit=1000`);
    expect(idsOf(listed)).not.toContain(a);
    expect((await w.call('POST', '/invoices/bulk-delete', { ids: [] })).status).toBe(400);
  });
});

describe('the validation queue calls', () => {
  it('searches by invoice number and tag', async () => {
    const id = await w.captured(bill({ invoiceNumber: 'SEARCH-7781' }));
    await w.call('POST', '/invoice-validation/bulk-tag', { ids: [id], tags: ['disputed'] });
    expect(idsOf(await w.call('GET', '/invoice-validation/search?query=search-7781'))).toEqual([id]);
    expect(idsOf(await w.call('GET', '/invoice-validation/search?query=disputed'))).toEqual([id]);
    expect(idsOf(await w.call('GET', '/invoice-validation/search?query=nothing-like-it'))).toEqual([]);
    const empty = await w.call('GET', '/invoice-validation/search?query=');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('query is required');
  });

  it('answers a validation stored by an older release with the fields the queue rows and bill page read', async () => {
    const id = newId();
    await putCompanyItem(w.demoId, 'invoice-validation', ['status'], {
      _id: id,
      status: 'failed',
      completed: false,
      invoiceNumber: 'OLD-4410',
      results: [{ key: 'vat-rate', name: 'VAT rate', status: 'failed', reason: 'VAT is 25%' }],
    });
    const queue = await w.call('GET', '/invoice-validation/queue?group=failed&limit=1000');
    const row = (queue.body.data as Record<string, unknown>[]).find((d) => d._id === id);
    expect(row).toMatchObject({
      invoiceId: id,
      status: 'failed',
      completed: false,
      hold: false,
      tags: [],
      displayName: 'OLD-4410',
      results: [{ key: 'vat-rate', name: 'VAT rate', status: 'failed', reason: 'VAT is 25%' }],
    });
    const read = await w.call('GET', `/invoice-validation/${id}`);
    expect(read.body).toMatchObject({ invoiceId: id, hold: false, tags: [], displayName: 'OLD-4410' });
  });

  it('refuse a group, a page or an order they do not know with 400, naming the value', async () => {
    const cases: [string, string][] = [
      [
        '/invoice-validation/queue?group=someday',
        'group: Must be one of passed, failed, pending, completed, open',
      ],
      ['/invoice-validation/queue?limit=ten', 'limit: Must be a whole number of 0 or more'],
      ['/invoice-validation/invoices?skip=-4', 'skip: Must be a whole number of 0 or more'],
      [
        '/invoice-validation/search?query=x&$sort=newest',
        '$sort: Must be createdAt (oldest first) or -createdAt (newest first)',
      ],
      ['/invoices/validation?$limit=1.5', '$limit: Must be a whole number of 0 or more'],
      ['/emails?unmatched=maybe', 'unmatched: Must be true or false'],
      ['/emails/search?query=march&constructor=1', 'Unknown filter constructor'],
    ];
    for (const [path, what] of cases) {
      const res = await w.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toBe(`Invalid query parameter (${what})`);
    }
    // The order of the validation list is its own: any `$sort` is passed over, as before.
    expect((await w.call('GET', '/invoices/validation?$sort=anything')).status).toBe(200);
    expect((await w.call('GET', '/emails/search?query=%20')).body.message).toBe('query is required');
  });

  it('exports an invoice’s values and each check’s result as CSV', async () => {
    const id = await w.captured(bill({ invoiceNumber: 'EXP/01', vatTotal: 120, grossTotal: 620 }));
    const res = await w.call('GET', `/invoice-validation/${id}/export`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fileName: 'validation-EXP-01.csv', contentType: 'text/csv' });
    const lines = String(res.body.csv).trim().split('\n');
    expect(lines[0]).toBe('section,name,status,value or reason');
    expect(lines).toContain('value,vatTotal,,120');
    expect(lines.some((l) => l.startsWith('check,') && l.includes(',failed,'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^result,validation,failed,/);
    expect((await w.call('GET', `/invoice-validation/${newId()}/export`)).status).toBe(404);
  });

  it('re-validates one invoice at once, and forces it through', async () => {
    // A period of its own, so only the VAT fails.
    const period = { startDate: '2023-05-01', endDate: '2023-05-31' };
    const id = await w.captured(bill({ ...period, vatTotal: 120, grossTotal: 620 }));
    const vatOf = (v: Record<string, unknown>) =>
      (v.results as { key: string; status: string }[]).find((r) => r.key === 'vat-amount')?.status;
    expect(vatOf(await w.validationOf(id))).toBe('failed');
    // Corrected behind the queue's back (as an import would): re-validating picks it up at once.
    const invoice = (await w.call('GET', `/invoices/${id}`)).body;
    await putCompanyItem(w.demoId, 'invoices', ['accountId', 'batchId'], {
      ...invoice,
      values: { ...(invoice.values as object), vatTotal: 100, grossTotal: 600 },
    });
    const again = await w.call('PUT', `/invoice-validation/${id}/revalidate`);
    expect(again.status).toBe(200);
    expect(vatOf(again.body)).toBe('passed');
    expect(again.body.status).not.toBe('failed');
    expect((await w.validationOf(id)).status).toBe(again.body.status);

    const other = await w.captured(bill({ vatTotal: 120, grossTotal: 620 }));
    const forced = await w.call('PUT', `/invoice-validation/${other}/force`);
    expect(forced.status).toBe(200);
    expect(await w.validationOf(other)).toMatchObject({
      status: 'passed',
      forced: true,
      forcedFrom: 'failed',
    });

    const uploading = await storeCapturedInvoice(w.demoId, bill(), [], { status: 'uploading' });
    const early = await w.call('PUT', `/invoice-validation/${uploading}/revalidate`);
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/not been captured yet/);
  });

  it('re-validates in bulk by queueing each for the worker', async () => {
    const a = await w.captured(bill());
    const b = await w.captured(bill());
    await w.drain('validation');
    const res = await w.call('POST', '/invoice-validation/bulk-revalidate', { ids: [a, b] });
    expect(res.body).toMatchObject({ updated: 2, missing: [], failed: [] });
    expect((await w.validationOf(a)).status).toBe('pending');
    expect((await queuedIds()).sort()).toEqual([a, b].sort());
  });

  it('completes in bulk, adding each bill to the account once, and says why one cannot be', async () => {
    const a = await w.captured(bill({ startDate: '2025-02-01', endDate: '2025-02-28' }));
    const orphan = await w.captured(bill({ meterPointNumber: '1200000000011' }));
    const res = await w.call('POST', '/invoice-validation/bulk-complete', { ids: [a, orphan] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ updated: 1, missing: [] });
    expect(res.body.failed).toEqual([
      expect.objectContaining({
        id: orphan,
        formMessages: { accountId: 'Choose the account of this invoice before confirming it' },
      }),
    ]);
    expect(await w.consumptionIn('2025-02')).toBe(2000);
    expect((await w.call('GET', `/invoices/${a}`)).body).toMatchObject({
      status: 'completed',
      completed: true,
    });
    const completed = await w.call('GET', '/invoice-validation/queue?group=completed&limit=1000');
    expect(idsOf(completed)).toContain(a);
    expect(idsOf(completed)).not.toContain(orphan);
  });

  it('lists invoices for validation newest first and counts each state', async () => {
    interface Stats {
      statuses: Record<string, { open: number; completed: number }>;
      open: number;
      completed: number;
      total: number;
    }
    const statsNow = async () => (await w.call('GET', '/invoices/validation-stats')).body as unknown as Stats;
    const before = await statsNow();
    const newest = await w.captured(bill({ vatTotal: 120, grossTotal: 620 }));
    const list = await w.call('GET', '/invoices/validation?limit=2');
    expect(list.status).toBe(200);
    expect(list.body.limit).toBe(2);
    expect(idsOf(list)[0]).toBe(newest);
    const stats = await statsNow();
    expect(stats.statuses.failed?.open).toBe((before.statuses.failed?.open ?? 0) + 1);
    expect(stats.total).toBe(before.total + 1);
    expect(stats.open + stats.completed).toBe(stats.total);
  });
});

describe('one invoice’s own calls', () => {
  it('adds and removes a charge line, validating again each time', async () => {
    const id = await w.captured(bill());
    await w.drain('validation');
    const added = await w.call('POST', `/invoices/${id}/rates`, {
      description: 'Day units',
      kind: 'unit',
      units: 2000,
      unit: 'kWh',
      unitRate: 0.25,
      amount: 500,
    });
    expect(added.status).toBe(201);
    const rate = (added.body.rates as { _id: string; description: string }[]).find(
      (r) => r.description === 'Day units',
    );
    expect(rate).toBeDefined();
    expect(await queuedIds()).toEqual([id]);
    const bad = await w.call('POST', `/invoices/${id}/rates`, { description: '', units: 'many' });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toHaveProperty('description');

    const removed = await w.call('DELETE', `/invoices/${id}/rates/${rate?._id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.rates).toEqual([]);
    expect(await queuedIds()).toEqual([id]);
    expect((await w.call('DELETE', `/invoices/${id}/rates/${rate?._id}`)).status).toBe(404);
  });

  it('records tags, hold, owner and a comment on the validation, and refreshes with it', async () => {
    const id = await w.captured(bill());
    const res = await w.call('POST', `/invoices/${id}/update-validation`, {
      tags: ['credit due'],
      hold: true,
      assignedUserId: 'owner',
      comment: 'Supplier to reissue',
    });
    expect(res.status).toBe(200);
    const refreshed = await w.call('GET', `/invoices/${id}/refresh`);
    expect(refreshed.body).toMatchObject({
      _id: id,
      validation: {
        tags: ['credit due'],
        hold: true,
        assignedUserId: 'owner',
        comments: [expect.objectContaining({ text: 'Supplier to reissue', by: 'owner' })],
      },
    });
    const cleared = await w.call('POST', `/invoices/${id}/update-validation`, { assignedUserId: null });
    expect(cleared.body).not.toHaveProperty('assignedUserId');
  });

  it('validates at once and answers the result', async () => {
    const id = await storeCapturedInvoice(w.demoId, bill({ vatTotal: 120, grossTotal: 620 }));
    expect((await w.validationOf(id)).status).toBe('pending');
    const res = await w.call('GET', `/invoices/${id}/validate`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect((await w.validationOf(id)).status).toBe('failed');
  });

  it('converts a consumption to another unit, and says which units do not convert', async () => {
    const res = await w.call('POST', '/invoices/convert-values', {
      values: { consumption: 2500, consumptionUnit: 'kWh', invoiceNumber: 'X1' },
      toUnit: 'MWh',
    });
    expect(res.status).toBe(200);
    expect(res.body.values).toEqual({ consumption: 2.5, consumptionUnit: 'MWh', invoiceNumber: 'X1' });
    const bad = await w.call('POST', '/invoices/convert-values', {
      values: { consumption: 10, consumptionUnit: 'kWh' },
      toUnit: 'litres',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toEqual({ toUnit: 'kWh cannot be converted to litres' });
  });
});

describe('restarting capture and validation of a document', () => {
  it('refuses to capture a document still uploading, and queues a finished one again', async () => {
    const upload = await w.call('POST', '/invoice-capture/upload', {
      fileName: 'April.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    const id = String(upload.body._id);
    const early = await w.call('POST', `/invoice-capture/${id}/start-capture`);
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('The document has not finished uploading');

    const capture = await putCaptureStatus(id, 'error');
    await w.drain('capture');
    const res = await w.call('POST', `/invoice-capture/${id}/start-capture`);
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('queued');
    expect((await w.drain('capture')).map((b) => JSON.parse(b).captureId)).toEqual([capture]);

    await putCaptureStatus(id, 'processing');
    expect((await w.call('POST', `/invoice-capture/${id}/start-capture`)).status).toBe(409);
    expect((await w.call('POST', `/invoice-capture/${newId()}/start-capture`)).status).toBe(404);
  });

  it('validates a document’s captured invoices again, and refuses one with none', async () => {
    const id = await w.captured(bill());
    const { putCapture } = await import('../../functions/invoices/invoice-repository.ts');
    await putCapture(w.demoId, { _id: id, status: 'captured', fileName: 'bill.pdf', invoiceIds: [id] });
    await w.drain('validation');
    const res = await w.call('PUT', `/invoice-capture/${id}/start-validation`);
    expect(res.status).toBe(202);
    expect(res.body.validating).toEqual([id]);
    expect(await queuedIds()).toEqual([id]);

    const upload = await w.call('POST', '/invoice-capture/upload', {
      fileName: 'May.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    const none = await w.call('PUT', `/invoice-capture/${upload.body._id}/start-validation`);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('The document has no captured invoice to validate');
  });
});

/** Sets a capture's status as the capture worker would leave it; answers its id. */
async function putCaptureStatus(id: string, status: string): Promise<string> {
  const { getCapture, putCapture } = await import('../../functions/invoices/invoice-repository.ts');
  const capture = await getCapture(w.demoId, id);
  if (!capture) throw new Error(`No capture ${id}`);
  await putCapture(w.demoId, { ...capture, status });
  return id;
}
