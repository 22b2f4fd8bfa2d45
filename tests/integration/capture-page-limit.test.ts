import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { putObject } from '../../functions/core/adapters/s3.ts';
import { bucketName } from '../../functions/core/config.ts';
import { createLogger } from '../../functions/core/lib/logger.ts';
import { captureDocument } from '../../functions/invoices/capture-service.ts';
import { captureKey } from '../../functions/invoices/invoice-records.ts';
import { getInvoice } from '../../functions/invoices/invoice-repository.ts';
import { writeProductSettings } from '../../functions/staff-tools/admin-repository.ts';
import { startTextract, type TextractStandIn } from '../../infra/local/textract/server.ts';
import { DEFAULT_PRODUCT_SETTINGS } from '../../shared/schemas/staff-admin.ts';
import { type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let textract: TextractStandIn;
let counter: Server;
/** Requests that reached the local Textract, each one a document Textract would charge for. */
let textractCalls = 0;
const log = createLogger({ service: 'voltfolio', fn: 'capture-test' }, 'error');

/** Counts every request on its way to the local Textract, so a test sees whether capture paid for a read. */
function countingProxy(target: string): Promise<Server> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    textractCalls++;
    const forward = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  w = await startRegisterWorld({ s3: true });
  textract = await startTextract({ port: 0, s3Endpoint: w.s3Endpoint ?? '' });
  counter = await countingProxy(textract.endpoint);
  process.env.AWS_ENDPOINT_URL_TEXTRACT = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
  await writeProductSettings(
    {
      ...DEFAULT_PRODUCT_SETTINGS,
      captureLimits: { maxFileMb: 20, maxPagesPerBill: 3, maxBillsPerDay: 5000 },
    },
    'staff',
  );
}, 90_000);
afterAll(async () => {
  await new Promise((r) => counter?.close(r));
  await textract?.stop();
  await w?.stop();
});
beforeEach(() => {
  textractCalls = 0;
});

async function billOf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    doc.addPage([595, 842]).drawText(`Electricity bill, page ${i} of ${pages}`, { x: 50, y: 780, font });
  }
  // Object streams hide the page tree from a plain scan of the file; the count must still find it.
  return doc.save({ useObjectStreams: true });
}

let seq = 0;
async function capture(bytes: Uint8Array, fileName: string) {
  const captureId = `0000000000${String(++seq).padStart(14, '0')}`;
  const key = captureKey(w.demoId, captureId, fileName);
  await putObject(bucketName('uploads'), key, bytes, 'application/pdf');
  const outcome = await captureDocument(bucketName('uploads'), key, bytes.byteLength, log);
  return { outcome, invoice: await getInvoice(w.demoId, captureId) };
}

describe('the page limit per bill', () => {
  it('refuses a bill over the limit before Textract reads (and charges for) it', async () => {
    const { outcome, invoice } = await capture(await billOf(4), 'long-bill.pdf');
    expect(outcome.status).toBe('error');
    expect(invoice?.status).toBe('error');
    expect(outcome.reason).toBe(
      'The document has 4 pages; bills of at most 3 pages are captured. Split it and upload the parts.',
    );
    expect(textractCalls).toBe(0);
  });

  it('refuses a damaged PDF with a reason instead of crashing, without calling Textract', async () => {
    const whole = await billOf(2);
    const { outcome, invoice } = await capture(whole.subarray(0, Math.floor(whole.length * 0.4)), 'cut.pdf');
    expect(outcome.status).toBe('error');
    expect(invoice?.status).toBe('error');
    expect(outcome.reason).toMatch(/damaged/);
    expect(textractCalls).toBe(0);
  });

  it('sends a bill within the limit on to Textract', async () => {
    // What follows the reading (queues, live updates) is not this test's concern.
    await capture(await billOf(3), 'short-bill.pdf').catch(() => undefined);
    expect(textractCalls).toBeGreaterThan(0);
  });
});
