import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../functions/core/lib/ids.ts';
import { createUser } from '../support/api-fixture.ts';
import {
  type InvoiceAccountWorld,
  januaryBill,
  putCompanyItem,
  startInvoiceAccountWorld,
  storeCapturedInvoice,
} from './invoices-support.ts';

/**
 * The rules an invoice keeps whatever call reaches it: the generic resource calls cannot skip
 * confirmation, validation or the account's data; bulk force; the import rollback; the file name
 * setting; and the staff view of mail that reached no company.
 */

const MPAN = '1900000000013';
let w: InvoiceAccountWorld;
let accountId: string;

const bill = (overrides: Record<string, unknown> = {}) =>
  januaryBill(
    'INV',
    { meterPointNumber: MPAN, consumption: 1000, netTotal: 250, vatTotal: 50, grossTotal: 300 },
    overrides,
  );

const invoiceOf = async (id: string) => (await w.call('GET', `/invoices/${id}`)).body;

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Harbourside Distribution Centre and Regional Offices, Avonmouth',
    meterPointNumber: MPAN,
    name: 'Main incomer',
  });
  ({ accountId } = w);
});

afterAll(async () => w?.stop());

describe('PATCH /invoices/{id}', () => {
  it('refuses status, completion and the credit-note flag beside each field, changing nothing', async () => {
    const id = await w.captured(bill({ startDate: '2025-01-01', endDate: '2025-01-31' }));
    const res = await w.call('PATCH', `/invoices/${id}`, {
      status: 'completed',
      completed: true,
      isCreditNote: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Only the account and the values of an invoice can be changed here');
    expect(res.body.formMessages).toEqual({
      status: expect.stringMatching(/confirm the invoice/i),
      completed: 'Confirm the invoice to complete it',
      isCreditNote: expect.stringMatching(/credit note/i),
    });
    expect(await invoiceOf(id)).toMatchObject({ status: 'captured', completed: false, isCreditNote: false });
    expect(await w.consumptionIn('2025-01')).toBe(0);
    const completed = await w.call('GET', '/invoice-validation/queue?group=completed');
    expect((completed.body.data as { _id: string }[]).map((v) => v._id)).not.toContain(id);
  });

  it('edits values through the same path as the manual update, and validates again', async () => {
    const id = await w.captured(bill({ startDate: '2025-02-01', endDate: '2025-02-28', vatTotal: 55 }));
    expect((await w.validationOf(id)).status).toBe('failed');
    await w.drain('validation');
    const res = await w.call('PATCH', `/invoices/${id}`, { values: { vatTotal: 50 } });
    expect(res.status).toBe(200);
    expect(res.body.values).toMatchObject({ vatTotal: 50, grossTotal: 300 });
    expect((await w.validationOf(id)).status).toBe('pending');
    const queued = await w.drain('validation');
    expect(queued.map((b) => JSON.parse(b).invoiceId)).toEqual([id]);
    await w.validate([id]);
    expect((await w.validationOf(id)).status).toBe('passed');

    const bad = await w.call('PATCH', `/invoices/${id}`, { values: { consumption: 'lots' } });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toEqual({ 'values.consumption': 'Must be a number' });
  });

  it('moves an invoice to another account that exists, and refuses one that does not', async () => {
    const id = await w.captured(bill({ meterPointNumber: '1200000000011' }));
    expect((await invoiceOf(id)).accountId).toBeUndefined();
    const missing = await w.call('PATCH', `/invoices/${id}`, { accountId: newId() });
    expect(missing.status).toBe(400);
    expect(missing.body.formMessages).toEqual({ accountId: 'Account not found' });
    const moved = await w.call('PATCH', `/invoices/${id}`, { accountId });
    expect(moved.status).toBe(200);
    expect(await invoiceOf(id)).toMatchObject({ accountId, accountChosenBy: 'owner' });
  });

  it('refuses to change a confirmed or deleted invoice', async () => {
    const id = await w.captured(bill({ startDate: '2025-03-01', endDate: '2025-03-31' }));
    expect((await w.call('POST', `/invoices/${id}/confirm`)).status).toBe(200);
    const confirmed = await w.call('PATCH', `/invoices/${id}`, { values: { consumption: 1 } });
    expect(confirmed.status).toBe(400);
    expect(confirmed.body.message).toBe('A confirmed invoice cannot be changed');
    expect(await w.consumptionIn('2025-03')).toBe(1000);

    const other = await w.captured(bill());
    expect((await w.call('DELETE', `/invoices/${other}`)).status).toBe(200);
    const deleted = await w.call('PATCH', `/invoices/${other}`, { values: { consumption: 1 } });
    expect(deleted.status).toBe(400);
    expect(deleted.body.message).toBe('Restore the invoice before changing it');
  });

  it('keeps another company out with 404', async () => {
    const id = await w.captured(bill());
    const res = await w.call('PATCH', `/invoices/${id}`, { values: { consumption: 1 } }, w.token('outsider'));
    expect(res.status).toBe(404);
    expect((await invoiceOf(id)).values).toMatchObject({ consumption: 1000 });
  });
});

describe('creating and restoring invoices through the generic calls', () => {
  it('refuses POST /invoices and POST /invoices/bulk with 405, creating nothing', async () => {
    const before = (await w.call('GET', '/invoices?limit=0')).body.total;
    const one = await w.call('POST', '/invoices', {
      fileName: 'x.pdf',
      status: 'completed',
      completed: true,
    });
    expect(one.status).toBe(405);
    expect(Object.entries(one.headers).find(([k]) => k.toLowerCase() === 'allow')?.[1]).toBe('GET');
    expect(one.body.message).toMatch(/uploading their documents or by importing/);
    const many = await w.call('POST', '/invoices/bulk', [{ fileName: 'a.pdf' }, { fileName: 'b.pdf' }]);
    expect(many.status).toBe(405);
    expect((await w.call('GET', '/invoices?limit=0')).body.total).toBe(before);
  });

  it('PUT /invoices/{id} restores a deleted confirmed invoice with its figures', async () => {
    const id = await w.captured(bill({ startDate: '2025-04-01', endDate: '2025-04-30' }));
    await w.call('POST', `/invoices/${id}/confirm`);
    expect(await w.consumptionIn('2025-04')).toBe(1000);
    expect((await w.call('DELETE', `/invoices/${id}`)).status).toBe(200);
    expect(await w.consumptionIn('2025-04')).toBe(0);
    const restored = await w.call('PUT', `/invoices/${id}`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ deleted: false, completed: true });
    expect(await w.consumptionIn('2025-04')).toBe(1000);
    // Restoring twice counts it once.
    expect((await w.call('PUT', `/invoices/${id}`)).status).toBe(200);
    expect(await w.consumptionIn('2025-04')).toBe(1000);
    expect((await w.validationOf(id)).deleted).toBe(false);
  });
});

describe('the generic calls of invoice-validation', () => {
  it('refuses setting the result, completion or deletion by PATCH, and records tags, hold and owner', async () => {
    const id = await w.captured(bill({ vatTotal: 70 }));
    expect((await w.validationOf(id)).status).toBe('failed');
    const refused = await w.call('PATCH', `/invoice-validation/${id}`, {
      status: 'passed',
      completed: true,
      deleted: true,
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.formMessages as object).sort()).toEqual([
      'completed',
      'deleted',
      'status',
    ]);
    expect(await w.validationOf(id)).toMatchObject({ status: 'failed', completed: false });

    const ok = await w.call('PATCH', `/invoice-validation/${id}`, {
      tags: ['query supplier', 'query supplier'],
      hold: true,
      assignedUserId: 'owner',
    });
    expect(ok.status).toBe(200);
    expect(await w.validationOf(id)).toMatchObject({
      status: 'failed',
      tags: ['query supplier'],
      hold: true,
      assignedUserId: 'owner',
    });
  });

  it('DELETE deletes the invoice with its figures and PUT brings both back', async () => {
    const id = await w.captured(bill({ startDate: '2025-05-01', endDate: '2025-05-31' }));
    await w.call('POST', `/invoices/${id}/confirm`);
    expect(await w.consumptionIn('2025-05')).toBe(1000);
    const removed = await w.call('DELETE', `/invoice-validation/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ deleted: true });
    expect(await invoiceOf(id)).toMatchObject({ deleted: true });
    expect(await w.consumptionIn('2025-05')).toBe(0);
    expect((await w.call('GET', `/invoice-validation/${id}/summary`)).status).toBe(404);

    const restored = await w.call('PUT', `/invoice-validation/${id}`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ deleted: false });
    expect(await invoiceOf(id)).toMatchObject({ deleted: false, completed: true });
    expect(await w.consumptionIn('2025-05')).toBe(1000);
  });

  it('refuses to create a validation directly', async () => {
    const res = await w.call('POST', '/invoice-validation', { status: 'passed' });
    expect(res.status).toBe(405);
    expect((await w.call('POST', '/invoice-validation/bulk', [{ status: 'passed' }])).status).toBe(405);
  });
});

describe('bulk force', () => {
  it('accepts several failed bills at once, keeping what they failed, and reports the unknown', async () => {
    const a = await w.captured(bill({ vatTotal: 70 }));
    const b = await w.captured(bill({ meterPointNumber: '1200000000011' }));
    expect((await w.validationOf(a)).status).toBe('failed');
    expect((await w.validationOf(b)).status).toBe('error');
    const unknown = newId();
    const res = await w.call('POST', '/invoice-validation/bulk-force', { ids: [a, b, unknown] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ updated: 2, missing: [unknown], failed: [] });
    expect(await w.validationOf(a)).toMatchObject({
      status: 'passed',
      forced: true,
      forcedFrom: 'failed',
      forcedBy: 'owner',
    });
    expect(await w.validationOf(b)).toMatchObject({ status: 'passed', forcedFrom: 'error' });
    const passed = await w.call('GET', '/invoice-validation/queue?group=passed&limit=1000');
    expect((passed.body.data as { _id: string }[]).map((v) => v._id)).toEqual(expect.arrayContaining([a, b]));
    // The checks' findings stay visible beside the forced result.
    const vat = ((await w.validationOf(a)).results as { key: string; status: string }[]).find(
      (r) => r.key === 'vat-amount',
    );
    expect(vat?.status).toBe('failed');
  });

  it('refuses an empty selection and leaves other companies’ bills alone', async () => {
    const empty = await w.call('POST', '/invoice-validation/bulk-force', { ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.formMessages).toEqual({ ids: 'Choose at least one invoice' });
    const id = await w.captured(bill({ vatTotal: 70 }));
    const theirs = await w.call('POST', '/invoice-validation/bulk-force', { ids: [id] }, w.token('outsider'));
    expect(theirs.body).toMatchObject({ updated: 0, missing: [id] });
    expect((await w.validationOf(id)).status).toBe('failed');
  });
});

describe('invoice import and rollback', () => {
  const csv = (rows: string[]) =>
    ['MPAN,Invoice Number,Start Date,End Date,Consumption,Net,VAT,Total', ...rows].join('\n');

  it('imports bills matched by meter point number and queues them for validation', async () => {
    await w.drain('validation');
    const res = await w.call('POST', '/invoices/import', {
      csv: csv([
        `${MPAN},IMP-1,01/06/2024,30/06/2024,900,225,45,270`,
        `${MPAN},IMP-2,2024-07-01,2024-07-31,800,200,40,240`,
      ]),
      fileName: 'bills.csv',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ model: 'invoices', created: 2, fileName: 'bills.csv' });
    const batch = await w.call('GET', `/invoices?batchId=${res.body.batchId}`);
    expect(batch.body.total).toBe(2);
    expect(batch.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          invoiceNumber: 'IMP-1',
          accountId,
          source: 'import',
          values: expect.objectContaining({ startDate: '2024-06-01', grossTotal: 270 }),
        }),
      ]),
    );
    expect((await w.drain('validation')).length).toBe(2);
  });

  it('imports nothing when a row is wrong, and says which', async () => {
    const res = await w.call('POST', '/invoices/import', {
      csv: csv([
        `${MPAN},IMP-3,01/06/2024,30/06/2024,900,225,45,270`,
        '1999999999999,IMP-4,01/06/2024,31/05/2024,x,1,1,1',
      ]),
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toMatchObject({
      'rows.3.meterPointNumber': 'No account has this meter point number',
      'rows.3.endDate': 'The period must end on or after its start',
      'rows.3.consumption': 'Must be a number',
    });
    const listed = await w.call('GET', '/invoices?invoiceNumber=IMP-3');
    expect(listed.body.total).toBe(0);
  });

  it('rolls back what the import wrote, with a confirmed bill’s figures, and keeps an upload in its batch', async () => {
    const res = await w.call('POST', '/invoices/import', {
      csv: csv([`${MPAN},IMP-5,01/08/2024,31/08/2024,700,175,35,210`]),
    });
    const batchId = String(res.body.batchId);
    const [item] = res.body.items as { _id: string }[];
    const importedId = String(item?._id);
    expect((await w.call('POST', `/invoices/${importedId}/confirm`)).status).toBe(200);
    expect(await w.consumptionIn('2024-08')).toBe(700);
    // A document uploaded into the import's batch is not the import's to take back.
    const upload = await w.call('POST', '/invoices/captur-upload', {
      fileName: 'August.pdf',
      contentType: 'application/pdf',
      size: 1000,
      batchId,
    });
    expect(upload.status).toBe(201);

    const rollback = await w.call('POST', '/invoices/import-rollback', { batchId });
    expect(rollback.status).toBe(200);
    expect(rollback.body).toMatchObject({
      batchId,
      removed: 1,
      alreadyRemoved: 0,
      kept: [expect.objectContaining({ _id: upload.body._id, name: 'August.pdf' })],
    });
    expect(await invoiceOf(importedId)).toMatchObject({ deleted: true, rolledBack: batchId });
    expect(await invoiceOf(String(upload.body._id))).not.toHaveProperty('deleted');
    expect(await w.consumptionIn('2024-08')).toBe(0);
    const again = await w.call('POST', '/invoices/import-rollback', { batchId });
    expect(again.body).toMatchObject({ removed: 0, alreadyRemoved: 1 });
  });

  it('refuses to roll back an upload batch, which stays as it was', async () => {
    const upload = await w.call('POST', '/invoices/captur-upload', {
      fileName: 'September.pdf',
      contentType: 'application/pdf',
      size: 1000,
    });
    const batchId = String(upload.body.batchId);
    const res = await w.call('POST', '/invoices/import-rollback', { batchId });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('No import with this batch id was found.');
    expect(await invoiceOf(String(upload.body._id))).not.toHaveProperty('deleted');
    const captured = await storeCapturedInvoice(w.demoId, bill());
    const mine = await w.call('POST', '/invoices/import-rollback', { batchId: captured });
    expect(mine.status).toBe(400);
    expect(await invoiceOf(captured)).not.toHaveProperty('deleted');
  });
});

describe('generated file names', () => {
  it('cuts the legal and site names at the company’s limit, which admins set between 10 and 120', async () => {
    const id = await storeCapturedInvoice(w.demoId, bill({ invoiceNumber: 'FN-1' }), [], {
      key: `invoices/${w.demoId}/${newId()}/scan.pdf`,
    });
    await w.validate([id]);
    const named = async () => String((await w.call('GET', `/invoices/${id}/download`)).body.name);
    expect(await named()).toBe('Demo-Estates-Ltd-Harbourside-Distribution-Centre-and-Regi-FN-1.pdf');

    const set = await w.call('PATCH', `/companies/${w.demoId}`, { settings: { invoiceFileNameLimit: 11 } });
    expect(set.status).toBe(200);
    expect(set.body.settings).toMatchObject({ invoiceFileNameLimit: 11 });
    const me = await w.call('GET', '/users/me/company');
    expect(JSON.stringify(me.body)).toContain('"invoiceFileNameLimit":11');
    expect(await named()).toBe('Demo-Estate-Harbourside-FN-1.pdf');

    for (const [value, message] of [
      [9, 'Must be at least 10'],
      [121, 'Must be at most 120'],
      [20.5, 'Must be a whole number'],
    ] as const) {
      const bad = await w.call('PATCH', `/companies/${w.demoId}`, {
        settings: { invoiceFileNameLimit: value },
      });
      expect(bad.status, String(value)).toBe(400);
      expect(bad.body.formMessages).toEqual({ 'settings.invoiceFileNameLimit': message });
    }
    const reset = await w.call('PATCH', `/companies/${w.demoId}`, {
      settings: { invoiceFileNameLimit: null },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.settings).not.toHaveProperty('invoiceFileNameLimit');
    expect(await named()).toBe('Demo-Estates-Ltd-Harbourside-Distribution-Centre-and-Regi-FN-1.pdf');
  });
});

describe('e-mail that reached no company', () => {
  it('is listed for staff with unmatched=true, and refused to company users', async () => {
    const received = new Date().toISOString();
    await putCompanyItem(w.demoId, 'emails', [], {
      _id: newId(),
      from: 'billing@supplier.example',
      to: ['invoices@demo.capture.test'],
      subject: 'Your March invoice',
      status: 'accepted',
      attachments: [],
      receivedAt: received,
    });
    const { putItem } = await import('../../functions/core/data/item-repository.ts');
    const { keys } = await import('../../functions/core/data/keys.ts');
    const strayId = newId();
    await putItem(
      { pk: keys.collection({}, 'emails'), indexes: [], searchFields: [] },
      {
        _id: strayId,
        from: 'billing@supplier.example',
        to: ['nobody@capture.test'],
        subject: 'Invoice 42',
        status: 'refused',
        reason: 'No company uses the capture address nobody@capture.test',
        attachments: [],
        createdAt: received,
        updatedAt: received,
      },
    );
    await createUser({
      sub: 'staff',
      email: 'staff@voltfolio.test',
      companyIds: [w.demoId],
      permissions: [],
      isAdmin: true,
    });
    const staff = w.token('staff');

    const stray = await w.call('GET', '/emails?unmatched=true', undefined, staff);
    expect(stray.status).toBe(200);
    expect(stray.body.data).toEqual([
      expect.objectContaining({
        _id: strayId,
        status: 'refused',
        reason: expect.stringContaining('nobody@capture.test'),
      }),
    ]);
    const company = await w.call('GET', '/emails');
    expect(company.status).toBe(200);
    expect((company.body.data as { subject: string }[]).map((e) => e.subject)).toEqual([
      'Your March invoice',
    ]);

    const refused = await w.call('GET', '/emails?unmatched=true');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only staff can see e-mail that reached no company');
    expect((await w.call('GET', '/emails?unmatched=maybe', undefined, staff)).status).toBe(400);
    const biller = await w.addUser('biller-mail', ['bill_validation']);
    expect((await w.call('GET', '/emails?unmatched=true', undefined, biller)).status).toBe(403);
  });
});
