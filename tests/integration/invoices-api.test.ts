import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InvoiceAccountWorld, januaryBill, startInvoiceAccountWorld } from './invoices-support.ts';

const MPAN = '1312345678907';
let w: InvoiceAccountWorld;
let owner: string;
let accountId: string;
let assetId: string;

/** A January 2026 electricity bill: 10,000 kWh at 22p, 31 days at 96.77p, CCL at £0.00775/kWh, 20% VAT. */
const bill = (overrides: Record<string, unknown> = {}) =>
  januaryBill(
    'EDF',
    { meterPointNumber: MPAN, consumption: 10000, netTotal: 2307.5, vatTotal: 461.5, grossTotal: 2769 },
    overrides,
  );

const RATES = [
  {
    _id: 'r1',
    description: 'Unit charge',
    kind: 'unit',
    units: 10000,
    unit: 'kWh',
    unitRate: 0.22,
    amount: 2200,
  },
  {
    _id: 'r2',
    description: 'Standing charge',
    kind: 'standing',
    units: 31,
    unit: 'day',
    unitRate: 0.9677,
    amount: 30,
  },
  {
    _id: 'r3',
    description: 'Climate Change Levy',
    kind: 'ccl',
    units: 10000,
    unit: 'kWh',
    unitRate: 0.00775,
    amount: 77.5,
  },
];

/** Stores an invoice as capture leaves it, with its pending validation, and runs the validation worker. */
const captured = (values: Record<string, unknown>, rates = RATES) => w.captured(values, rates);

/** Runs the validation worker on whatever the API queued. */
async function runQueuedValidation() {
  const bodies = await w.drain('validation');
  if (bodies.length > 0) await w.runValidation(bodies);
  return bodies.length;
}

const get = (path: string, token = owner) => w.api({ method: 'GET', path, token });

interface CheckResult {
  key: string;
  group: string;
  status: string;
  reason: string;
}
interface ValidationView {
  status: string;
  results: CheckResult[];
  reason?: string;
  hold?: boolean;
  tags?: string[];
  assignedUserId?: string;
}
interface ListView<T> {
  data: T[];
  total: number;
}
/** Answers as the validation pages read them. */
const summaryOf = (res: { body: unknown }) =>
  res.body as { validation: ValidationView; invoice: Record<string, unknown> };
interface Row {
  _id: string;
  status: string;
  createdAt: string;
  consumption: number;
  cost: number;
  emissionsKg: number;
}
const listOf = (res: { body: unknown }) => res.body as ListView<Row>;
const formOf = (res: { body: unknown }) =>
  (res.body as { formMessages?: Record<string, string> }).formMessages ?? {};

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Temple Quay Point',
    meterPointNumber: MPAN,
    name: 'Main incomer',
  });
  ({ owner, accountId, assetId } = w);
});

afterAll(async () => w?.stop());

describe('invoice upload', () => {
  it('refuses a file over 20 MB or of another type, with a message for the field', async () => {
    const big = await w.api({
      method: 'POST',
      path: '/invoices/captur-upload',
      token: owner,
      body: { fileName: 'huge.pdf', contentType: 'application/pdf', size: 21 * 1024 * 1024 },
    });
    expect(big.status).toBe(400);
    expect(big.body.formMessages).toMatchObject({ size: 'The file is larger than 20 MB' });
    const word = await w.api({
      method: 'POST',
      path: '/invoice-capture/upload',
      token: owner,
      body: { fileName: 'bill.docx', contentType: 'application/msword', size: 1000 },
    });
    expect(word.status).toBe(400);
    expect(String(formOf(word).contentType)).toContain('PDF');
  });

  it('answers a presigned URL and lists the upload in its batch as uploading', async () => {
    const document = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
    const res = await w.api({
      method: 'POST',
      path: '/invoices/captur-upload',
      token: owner,
      body: { fileName: 'March bill.pdf', contentType: 'application/pdf', size: document.byteLength },
    });
    expect(res.status).toBe(201);
    expect(String(res.body.uploadUrl)).toMatch(/^http/);
    // The declared size is signed, so S3 refuses a body of any other size.
    const signed = new URL(String(res.body.uploadUrl)).searchParams.get('X-Amz-SignedHeaders');
    expect(signed?.split(';')).toContain('content-length');
    expect(String(res.body.key)).toBe(`invoices/${w.demoId}/${res.body._id}/March-bill.pdf`);
    const put = await fetch(String(res.body.uploadUrl), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/pdf' },
      body: document,
    });
    expect(put.status).toBe(200);
    const batch = await get(`/invoices?batchId=${res.body.batchId}`);
    expect(listOf(batch).data).toEqual([
      expect.objectContaining({ _id: res.body._id, status: 'uploading', fileName: 'March bill.pdf' }),
    ]);
    const outsider = await get(`/invoices?batchId=${res.body.batchId}`, w.token('outsider'));
    expect(listOf(outsider).data).toEqual([]);
  });
});

describe('validation', () => {
  it('matches the bill to its account by MPAN and passes a correct bill', async () => {
    const id = await captured(bill());
    const validation = await get(`/invoice-validation/${id}/summary`);
    expect(validation.status).toBe(200);
    const failing = (summaryOf(validation).validation.results as { status: string; reason: string }[]).filter(
      (r) => r.status === 'failed' || r.status === 'warning',
    );
    expect(failing).toEqual([]);
    expect(summaryOf(validation).validation.status).toBe('passed');
    expect(summaryOf(validation).invoice).toMatchObject({
      accountId,
      account: { siteName: 'Temple Quay Point' },
    });
  });

  it('fails a bill whose VAT is wrong and says by how much', async () => {
    const id = await captured(bill({ vatTotal: 463.5, grossTotal: 2771 }));
    const summary = await get(`/invoice-validation/${id}/summary`);
    expect(summaryOf(summary).validation.status).toBe('failed');
    const vat = (
      summaryOf(summary).validation.results as { key: string; status: string; reason: string }[]
    ).find((r) => r.key === 'vat-amount');
    expect(vat?.status).toBe('failed');
    expect(vat?.reason).toMatch(/£463\.50/);
  });

  it('fails a second bill with the same supplier invoice number as a duplicate', async () => {
    const first = bill({ startDate: '2026-02-01', endDate: '2026-02-28' });
    await captured(first);
    const again = await captured({ ...first });
    const summary = await get(`/invoice-validation/${again}/summary`);
    expect(summaryOf(summary).validation.status).toBe('failed');
    const duplicate = (summaryOf(summary).validation.results as { group: string; status: string }[]).filter(
      (r) => r.group === 'duplicate' && r.status === 'failed',
    );
    expect(duplicate.length).toBeGreaterThan(0);
  });

  it('says why when no account has the bill’s meter point number', async () => {
    const id = await captured(bill({ meterPointNumber: '2099999999993' }));
    const summary = await get(`/invoice-validation/${id}/summary`);
    expect(summaryOf(summary).validation.status).toBe('error');
    expect(String(summaryOf(summary).validation.reason)).toMatch(/account/i);
  });

  it('lists failed and passed bills in their queues, newest first, and counts them', async () => {
    const failed = await get('/invoice-validation/queue?group=failed');
    const passed = await get('/invoice-validation/queue?group=passed');
    expect(listOf(failed).data.every((v) => ['failed', 'error'].includes(v.status))).toBe(true);
    expect(listOf(passed).data.every((v) => ['passed', 'warning'].includes(v.status))).toBe(true);
    expect(listOf(failed).total).toBeGreaterThanOrEqual(3);
    // The bill validated earlier in this file is there, so the check of each status above saw one.
    expect(listOf(passed).total).toBeGreaterThan(0);
    const counted = await get('/invoice-validation/queue?group=failed&$select=_id&limit=100000');
    expect(listOf(counted).total).toBe(listOf(failed).total);
    expect(Object.keys(listOf(counted).data[0] ?? {})).toEqual(['_id']);
    const created = listOf(failed).data.map((v) => v.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('passes a corrected bill after its values are edited', async () => {
    const id = await captured(
      bill({ startDate: '2025-11-01', endDate: '2025-11-30', vatTotal: 463.5, grossTotal: 2771 }),
    );
    const edited = await w.api({
      method: 'PATCH',
      path: `/invoices/${id}/manual-update`,
      token: owner,
      body: { values: { vatTotal: 461.5, grossTotal: 2769 } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.values).toMatchObject({ vatTotal: 461.5, grossTotal: 2769 });
    expect(await runQueuedValidation()).toBe(1);
    const summary = await get(`/invoice-validation/${id}/summary`);
    expect(summaryOf(summary).validation.status).toBe('passed');
  });

  it('moves the validation with its invoice onto an account and off it again', async () => {
    // A meter the company has no account for: the account is only what a person chooses.
    const id = await captured(bill({ meterPointNumber: '1900000000016', startDate: '2025-10-01' }));
    const accountOfValidation = async () =>
      (summaryOf(await get(`/invoice-validation/${id}/summary`)).validation as { accountId?: string })
        .accountId;
    expect(await accountOfValidation()).toBeUndefined();
    for (const chosen of [accountId, null]) {
      const res = await w.api({
        method: 'PATCH',
        path: `/invoices/${id}/manual-update`,
        token: owner,
        body: { accountId: chosen, values: {} },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await runQueuedValidation();
      expect(await accountOfValidation()).toBe(chosen ?? undefined);
    }
  });

  it('refuses a value of the wrong type beside its field', async () => {
    const id = await captured(bill());
    const res = await w.api({
      method: 'PATCH',
      path: `/invoices/${id}/manual-update`,
      token: owner,
      body: { values: { startDate: '31/01/2026', consumption: 'lots' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toMatchObject({
      'values.startDate': 'Must be a date as YYYY-MM-DD',
      'values.consumption': 'Must be a number',
    });
  });
});

describe('confirming an invoice', () => {
  it('adds its consumption and cost to the account once, however often it is confirmed', async () => {
    const id = await captured(bill({ startDate: '2025-06-01', endDate: '2025-06-30' }));
    for (let i = 0; i < 2; i++) {
      const res = await w.api({ method: 'POST', path: `/invoices/${id}/confirm`, token: owner });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'completed', completed: true });
    }
    const june = await get(`/accounts/${accountId}/consumption?startDate=2025-06-01&endDate=2025-06-30`);
    expect(listOf(june).data).toEqual([expect.objectContaining({ consumption: 10000, cost: 2307.5 })]);
    expect(listOf(june).data[0]?.emissionsKg).toBeGreaterThan(1000);
    const completed = await get('/invoice-validation/queue?group=completed');
    expect(listOf(completed).data.map((v) => v._id)).toContain(id);
  });

  it('shares a period across months by days', async () => {
    const id = await captured(
      bill({
        startDate: '2025-08-15',
        endDate: '2025-09-14',
        consumption: 3100,
        netTotal: 620,
        vatTotal: 124,
        grossTotal: 744,
      }),
      [],
    );
    expect((await w.api({ method: 'POST', path: `/invoices/${id}/confirm`, token: owner })).status).toBe(200);
    const res = await get(`/accounts/${accountId}/consumption?startDate=2025-08-01&endDate=2025-09-30`);
    expect(listOf(res).data.map((p) => p.consumption)).toEqual([1700, 1400]);
  });

  it('takes a deleted invoice out of the account’s data and puts it back when restored', async () => {
    const id = await captured(bill({ startDate: '2025-03-01', endDate: '2025-03-31' }));
    await w.api({ method: 'POST', path: `/invoices/${id}/confirm`, token: owner });
    const march = () => get(`/accounts/${accountId}/consumption?startDate=2025-03-01&endDate=2025-03-31`);
    expect(listOf(await march()).data[0]?.consumption).toBe(10000);
    expect(
      (await w.api({ method: 'DELETE', path: `/accounts/${accountId}/invoice/${id}`, token: owner })).status,
    ).toBe(200);
    expect(listOf(await march()).data[0]?.consumption ?? 0).toBe(0);
    const listed = await get(`/invoices?accountId=${accountId}`);
    expect(listOf(listed).data.map((i) => i._id)).not.toContain(id);
    expect((await w.api({ method: 'PUT', path: `/invoices/${id}/restore`, token: owner })).status).toBe(200);
    expect(listOf(await march()).data[0]?.consumption).toBe(10000);
  });

  it('refuses to confirm a bill without an account, naming the field', async () => {
    const id = await captured(bill({ meterPointNumber: '1200000000011' }));
    const res = await w.api({ method: 'POST', path: `/invoices/${id}/confirm`, token: owner });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toHaveProperty('accountId');
  });

  it('turns an invoice into a credit note with negative amounts, and back', async () => {
    const id = await captured(bill({ startDate: '2025-04-01', endDate: '2025-04-30' }));
    const note = await w.api({
      method: 'PUT',
      path: `/accounts/${accountId}/invoices/${id}/to-credit-note`,
      token: owner,
    });
    expect(note.status).toBe(200);
    expect(note.body).toMatchObject({
      isCreditNote: true,
      values: { grossTotal: -2769, netTotal: -2307.5 },
    });
    const back = await w.api({
      method: 'PUT',
      path: `/accounts/${accountId}/credit-notes/${id}/to-invoice`,
      token: owner,
    });
    expect(back.body).toMatchObject({ isCreditNote: false, values: { grossTotal: 2769 } });
  });
});

describe('bulk actions and access', () => {
  it('holds, tags and assigns many invoices at once', async () => {
    const a = await captured(bill());
    const b = await captured(bill());
    const hold = await w.api({
      method: 'POST',
      path: '/invoice-validation/bulk-hold',
      token: owner,
      body: { ids: [a, b], hold: true },
    });
    expect(hold.body).toMatchObject({ updated: 2 });
    await w.api({
      method: 'POST',
      path: '/invoice-validation/bulk-tag',
      token: owner,
      body: { ids: [a], tags: ['query supplier'] },
    });
    await w.api({
      method: 'POST',
      path: '/invoice-validation/assign-users',
      token: owner,
      body: { ids: [b], userSub: 'owner' },
    });
    const summaryA = await get(`/invoice-validation/${a}/summary`);
    const summaryB = await get(`/invoice-validation/${b}/summary`);
    expect(summaryOf(summaryA).validation).toMatchObject({ hold: true, tags: ['query supplier'] });
    expect(summaryOf(summaryB).validation).toMatchObject({ hold: true, assignedUserId: 'owner' });
    const empty = await w.api({
      method: 'POST',
      path: '/invoice-validation/bulk-hold',
      token: owner,
      body: { ids: [], hold: true },
    });
    expect(empty.status).toBe(400);
  });

  it('keeps another company’s invoices out of reach', async () => {
    const id = await captured(bill());
    const outsider = w.token('outsider');
    expect((await get(`/invoices/${id}`, outsider)).status).toBe(404);
    expect((await w.api({ method: 'POST', path: `/invoices/${id}/confirm`, token: outsider })).status).toBe(
      404,
    );
    expect((await get(`/invoice-validation/${id}/summary`, outsider)).status).toBe(404);
    const theirs = await get('/invoice-validation/queue?group=failed', outsider);
    expect(listOf(theirs).total).toBe(0);
    const bulk = await w.api({
      method: 'POST',
      path: '/invoice-validation/bulk-delete',
      token: outsider,
      body: { ids: [id] },
    });
    expect(bulk.body).toMatchObject({ updated: 0, missing: [id] });
    expect((await get(`/invoices/${id}`)).status).toBe(200);
  });

  it('lets a bill validation user work the queue and keeps a site user out of it', async () => {
    const billing = await w.addUser('biller', ['bill_validation']);
    expect((await get('/invoice-validation/queue?group=failed', billing)).status).toBe(200);
    const siteUser = await w.addUser('site', [], { assets: { read: [assetId], write: [] } });
    expect((await get('/invoice-validation/queue?group=failed', siteUser)).status).toBe(403);
  });
});
