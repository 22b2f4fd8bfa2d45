import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { keys } from '../../functions/core/data/keys.ts';
import { dieOn } from './crash-support.ts';
import { type InvoiceAccountWorld, startInvoiceAccountWorld, uploadForCapture } from './invoices-support.ts';

/**
 * A bill that cannot be captured (a damaged PDF), whose worker is killed while it records the failure,
 * and whose S3 event SQS hands out again once the visibility timeout has passed: the person who uploaded
 * it sees one bill, failed, with the reason; the validation queue holds it once, failed with the same
 * reason; nothing is left processing.
 */
const REASON = 'The PDF is damaged';
/** The capture queue's visibility timeout: a message whose worker died is handed out again after it. */
const VISIBILITY_MS = 300_000;

let w: InvoiceAccountWorld;
type Worker = (event: SQSEvent) => Promise<SQSBatchResponse>;
let worker: Worker;

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Eurocentral Cross-Dock',
    meterPointNumber: '1887093880044',
    name: 'Eurocentral Cross-Dock Electricity',
  });
  worker = (await import('../../functions/handlers/queue/capture.ts')).handler as unknown as Worker;
}, 120_000);
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await w?.stop();
});

let copies = 0;
/** Uploads the bill as the browser does; answers its batch and the S3 event message of its object. */
function upload(): Promise<{ batchId: string; event: SQSEvent }> {
  copies++;
  return uploadForCapture(w, {
    fixture: 'bgb-electricity-corrupt.pdf',
    fileName: 'july.pdf',
    copy: copies,
    messageId: `capture-error-${copies}`,
  });
}

const isPutOf = (collection: string, status: string) => (c: unknown) =>
  c instanceof PutCommand &&
  c.input.Item?.pk === keys.collection({ companyId: w.demoId }, collection) &&
  c.input.Item?.status === status;

describe('a capture that fails, whose worker is killed while it records the failure', () => {
  for (const { what, dies } of [
    { what: 'on the capture record', dies: () => isPutOf('invoice-capture', 'error') },
    { what: 'on the failed bill', dies: () => isPutOf('invoices', 'error') },
    { what: 'on the failed validation', dies: () => isPutOf('invoice-validation', 'error') },
  ])
    it(`ends with the bill failed once, with its reason, when killed ${what}`, async () => {
      const { batchId, event } = await upload();
      await dieOn(() => worker(event), dies());

      // SQS hands the message out again once its visibility timeout has passed.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + VISIBILITY_MS + 1000);
      expect((await worker(event)).batchItemFailures).toEqual([]);
      vi.useRealTimers();

      const listed = await w.call('GET', `/invoices?batchId=${batchId}`);
      const invoices = listed.body.data as { _id: string; status: string; error?: { message?: string } }[];
      expect(invoices).toHaveLength(1);
      const [invoice] = invoices as [(typeof invoices)[number]];
      expect(invoice.status).toBe('error');
      expect(invoice.error?.message).toContain(REASON);

      // The validation page lists it once, failed with the same reason.
      const queue = await w.call('GET', `/invoice-validation?invoiceId=${invoice._id}`);
      const validations = queue.body.data as { status: string; reason?: string }[];
      expect(validations).toHaveLength(1);
      expect(validations[0]?.status).toBe('error');
      expect(validations[0]?.reason).toContain(REASON);

      // The document's capture is over: failed, with the reason, not left processing.
      const captures = await w.call('GET', `/invoice-validation/invoices?batchId=${batchId}`);
      const documents = captures.body.data as { status: string; error?: { message?: string } }[];
      expect(documents).toHaveLength(1);
      expect(documents[0]?.status).toBe('error');
      expect(documents[0]?.error?.message).toContain(REASON);

      // A late copy of the event changes nothing.
      expect((await worker(event)).batchItemFailures).toEqual([]);
      expect(((await w.call('GET', `/invoices?batchId=${batchId}`)).body.data as unknown[]).length).toBe(1);
    }, 120_000);
});
