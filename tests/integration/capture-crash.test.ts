import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listAssetRollups, listCompanyRollups } from '../../functions/accounts/index.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { startTextract, type TextractStandIn } from '../../infra/local/textract/server.ts';
import { dieOn } from './crash-support.ts';
import { type InvoiceAccountWorld, startInvoiceAccountWorld, uploadForCapture } from './invoices-support.ts';

/**
 * A capture whose worker is killed after the bill is partly stored, and whose S3 event SQS then hands
 * out again, once the visibility timeout has passed: the person who uploaded the bill sees one invoice
 * with its figures, it goes on to validation, and once confirmed the roll-ups count it once.
 */
const MPAN = '1887093880044';
const BILL = { invoiceNumber: 'BGB91840257', consumption: 46005, netTotal: 10180.06, grossTotal: 12216.07 };
/** The capture queue's visibility timeout: a message whose worker died is handed out again after it. */
const VISIBILITY_MS = 300_000;

let w: InvoiceAccountWorld;
let textract: TextractStandIn;
type Worker = (event: SQSEvent) => Promise<SQSBatchResponse>;
let worker: Worker;

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Eurocentral Cross-Dock',
    meterPointNumber: MPAN,
    name: 'Eurocentral Cross-Dock Electricity',
  });
  textract = await startTextract({ port: 0, s3Endpoint: w.s3Endpoint ?? '' });
  process.env.AWS_ENDPOINT_URL_TEXTRACT = textract.endpoint;
  worker = (await import('../../functions/handlers/queue/capture.ts')).handler as unknown as Worker;
}, 120_000);
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await textract?.stop();
  await w?.stop();
});

let copies = 0;
/** Uploads the bill as the browser does; answers its batch and the S3 event message of its object. */
function upload(): Promise<{ batchId: string; event: SQSEvent }> {
  copies++;
  return uploadForCapture(w, {
    fixture: 'bgb-electricity-digital.pdf',
    fileName: 'september.pdf',
    copy: copies,
    messageId: `capture-${copies}`,
  });
}

const isPutOf = (collection: string, statuses: readonly string[]) => (c: unknown) =>
  c instanceof PutCommand &&
  c.input.Item?.pk === keys.collection({ companyId: w.demoId }, collection) &&
  statuses.includes(String(c.input.Item?.status));

const figures = async () => {
  const site = await listAssetRollups(w.demoId, w.assetId, '2026-09', '2026-09');
  const company = (await listCompanyRollups(w.demoId, '2026-09', '2026-09')).filter(
    (r) => r.utilityType === 'electricity',
  );
  const sum = (rows: readonly { consumption: number }[]) =>
    rows.reduce((n, r) => n + Number(r.consumption), 0);
  return { site: sum(site), company: sum(company) };
};

describe('a capture whose worker is killed midway', () => {
  for (const { what, dies } of [
    {
      what: 'as it stores the invoice, its validation already stored',
      dies: () => isPutOf('invoices', ['captured', 'manual']),
    },
    {
      what: 'after storing the invoice, before the capture is recorded done',
      dies: () => isPutOf('invoice-capture', ['captured', 'manual']),
    },
    {
      what: 'as it sends the bill to validation',
      dies: () => (c: unknown) =>
        c instanceof SendMessageBatchCommand && String(c.input.QueueUrl).endsWith('/validation'),
    },
  ])
    it(`leaves one invoice with its figures, counted once, when killed ${what}`, async () => {
      const before = await figures();
      const { batchId, event } = await upload();
      await dieOn(() => worker(event), dies());

      // SQS hands the message out again once its visibility timeout has passed.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + VISIBILITY_MS + 1000);
      expect((await worker(event)).batchItemFailures).toEqual([]);
      vi.useRealTimers();

      const listed = await w.call('GET', `/invoices?batchId=${batchId}`);
      const invoices = listed.body.data as { _id: string; status: string; values: Record<string, unknown> }[];
      expect(invoices).toHaveLength(1);
      const [invoice] = invoices as [(typeof invoices)[number]];
      expect(invoice.status).toBe('captured');
      expect(invoice.values).toMatchObject(BILL);

      // The bill goes on to validation, and is confirmed into the account's figures.
      const validations = await w.drain('validation');
      expect(validations.length).toBeGreaterThan(0);
      await w.runValidation(validations);
      const confirmed = await w.call('POST', `/invoices/${invoice._id}/confirm`);
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

      // A late copy of the event changes nothing.
      expect((await worker(event)).batchItemFailures).toEqual([]);
      expect(((await w.call('GET', `/invoices?batchId=${batchId}`)).body.data as unknown[]).length).toBe(1);
      const after = await figures();
      expect(after.site - before.site).toBeCloseTo(BILL.consumption, 3);
      expect(after.company - before.company).toBeCloseTo(BILL.consumption, 3);
    }, 120_000);
});
