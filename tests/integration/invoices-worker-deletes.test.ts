import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import {
  type InvoiceAccountWorld,
  januaryBill,
  startInvoiceAccountWorld,
  storeCapturedInvoice,
} from './invoices-support.ts';

/**
 * A worker reads an invoice, works on it for a while, and writes what it made of it. Whoever deletes the
 * invoice meanwhile (a person, an import's rollback) must find it still deleted afterwards.
 */
const MPAN = '1900000000013';
let w: InvoiceAccountWorld;

const bill = () =>
  januaryBill('DEL', {
    meterPointNumber: MPAN,
    consumption: 1000,
    netTotal: 250,
    vatTotal: 50,
    grossTotal: 300,
  });

const stored = (collection: 'invoices' | 'invoice-validation', id: string) =>
  getItem(keys.collection({ companyId: w.demoId }, collection), id);

/**
 * Runs `meanwhile` just before the first write of this item to this collection reaches the table, as if
 * it happened while the worker was busy.
 */
function beforeWriteOf(collection: string, id: string, meanwhile: () => Promise<unknown>) {
  const send = DynamoDBDocumentClient.prototype.send;
  const pk = keys.collection({ companyId: w.demoId }, collection);
  let pending = true;
  vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation(async function (
    this: DynamoDBDocumentClient,
    command: Parameters<DynamoDBDocumentClient['send']>[0],
  ) {
    const item = command instanceof PutCommand ? command.input.Item : undefined;
    if (pending && item?.pk === pk && item.sk === id) {
      pending = false;
      await meanwhile();
    }
    return (send as (c: typeof command) => Promise<unknown>).call(this, command);
  } as DynamoDBDocumentClient['send']);
}

beforeAll(async () => {
  w = await startInvoiceAccountWorld({ siteName: 'Avonmouth', meterPointNumber: MPAN, name: 'Main incomer' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => w?.stop());

describe('the validation worker and a delete meanwhile', () => {
  it('leaves an invoice deleted before its result was written deleted, and does not fail the message', async () => {
    const id = await storeCapturedInvoice(w.demoId, bill());
    beforeWriteOf('invoices', id, async () => {
      expect((await w.call('DELETE', `/invoices/${id}`)).status).toBe(200);
    });
    await w.validate([id]);
    expect(await stored('invoices', id)).toMatchObject({ deleted: true });
    expect(await stored('invoice-validation', id)).toMatchObject({ deleted: true });
    const listed = (await w.call('GET', '/invoices')).body.data as { _id: string }[];
    expect(listed.map((i) => i._id)).not.toContain(id);
  });

  it('leaves the validation deleted when the invoice was deleted after its own write', async () => {
    const id = await storeCapturedInvoice(w.demoId, bill());
    beforeWriteOf('invoice-validation', id, async () => {
      expect((await w.call('DELETE', `/invoices/${id}`)).status).toBe(200);
    });
    await w.validate([id]);
    expect(await stored('invoices', id)).toMatchObject({ deleted: true });
    expect(await stored('invoice-validation', id)).toMatchObject({ deleted: true });
  });
});

describe('the validation worker and a person changing the bill meanwhile', () => {
  it('keeps the tags and comments added to the validation while it ran', async () => {
    const id = await storeCapturedInvoice(w.demoId, bill());
    const tags = ['urgent', 'query-supplier', 'site-visit'];
    beforeWriteOf('invoice-validation', id, async () => {
      const answers = await Promise.all([
        ...tags.map((tag) => w.call('POST', '/invoice-validation/bulk-tag', { ids: [id], tags: [tag] })),
        w.call('POST', `/invoices/${id}/update-validation`, { comment: 'Checked the meter' }),
      ]);
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
    await w.validate([id]);
    const validation = await w.validationOf(id);
    expect(validation.status).not.toBe('pending');
    expect([...(validation.tags as string[])].sort()).toEqual([...tags].sort());
    expect((validation.comments as { text: string }[]).map((c) => c.text)).toEqual(['Checked the meter']);
  });

  it('keeps what was written on the invoice while it ran', async () => {
    const id = await storeCapturedInvoice(w.demoId, bill());
    beforeWriteOf('invoices', id, async () => {
      const { changeInvoice } = await import('../../functions/invoices/invoice-repository.ts');
      await changeInvoice(w.demoId, id, (current) => ({ ...current, stampedKey: `stamped/${id}.pdf` }));
    });
    await w.validate([id]);
    expect(await stored('invoices', id)).toMatchObject({
      stampedKey: `stamped/${id}.pdf`,
      accountId: w.accountId,
    });
  });
});

describe('capturing a document again while a worker takes it', () => {
  it('leaves the worker its claim and tells the person it is being captured', async () => {
    const { claimCapture, createCapture, getCapture } = await import(
      '../../functions/invoices/invoice-repository.ts'
    );
    const { newId } = await import('../../functions/core/lib/ids.ts');
    const id = newId();
    const now = new Date().toISOString();
    await createCapture(w.demoId, {
      _id: id,
      status: 'queued',
      fileName: 'bill.pdf',
      createdAt: now,
      updatedAt: now,
    });
    beforeWriteOf('invoice-capture', id, async () => {
      expect(await claimCapture(w.demoId, id, new Date())).toBe(true);
    });
    const res = await w.call('POST', `/invoice-capture/${id}/start-capture`);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(await getCapture(w.demoId, id)).toMatchObject({ status: 'processing', attempts: 1 });
  });
});
