import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { REPO_ROOT } from '../../infra/local/options.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { fixturePath, loadTruth } from '../fixtures/invoices/truth.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';
import { pdfBomb, pngBomb } from '../support/picture-bombs.ts';
import { present } from '../support/present.ts';

let local: LocalStackHandle;
let token: string;

interface Invoice {
  _id: string;
  status: string;
  fileName: string;
  invoiceNumber?: string;
  accountId?: string;
  account?: { name?: string };
  error?: { type: string; message: string };
  values: Record<string, unknown>;
  results?: { extractMeterValues?: unknown[]; multiMeter?: unknown };
  pages?: number[];
}
interface Validation {
  _id: string;
  status: string;
  reason?: string;
  accountId?: string;
  results?: { key: string; status: string; reason: string }[];
}

/** What the browsers of the company are told on the live connection, in the order it arrived. */
interface LiveEvent {
  type: string;
  keys?: string[];
  data?: { captureId?: string; invoiceId?: string; status?: string; invoiceIds?: string[] };
}
const live: LiveEvent[] = [];
let socket: WebSocket | undefined;

/** The capture statuses the live connection announced for a document, in order. */
const announced = (captureId: string) =>
  live.filter((e) => e.data?.captureId === captureId).map((e) => String(e.data?.status));

/** Waits until the live connection has announced the end of a document's capture. */
async function announcedUntilSettled(captureId: string, timeoutMs = 10_000): Promise<string[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const statuses = announced(captureId);
    if (statuses.some((s) => FINAL.has(s))) return statuses;
    if (Date.now() > until) throw new Error(`Only ${statuses.join(', ') || 'nothing'} announced`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Where a status stands on the way through capture; the ends share the last place. */
const STEP: Record<string, number> = { uploading: 0, queued: 1, pending: 2, processing: 3 };
const stepOf = (status: string) => STEP[status] ?? 4;
/** Every status each invoice was seen at by the batch polls, in order. */
const polledStatuses = new Map<string, string[]>();

function expectNeverBackwards(statuses: readonly string[]) {
  for (let i = 1; i < statuses.length; i++) {
    const [was, now] = [statuses[i - 1] as string, statuses[i] as string];
    expect(stepOf(now), `${statuses.join(' → ')}`).toBeGreaterThanOrEqual(stepOf(was));
    if (stepOf(was) === 4) expect(now, `${statuses.join(' → ')}`).toBe(was);
  }
}

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const TYPES: Record<string, string> = { pdf: 'application/pdf', png: 'image/png' };

/** Uploads a document as the browser does: ask for a presigned URL, then PUT the bytes to it. */
async function upload(file: string, bytes = readFileSync(fixturePath(file))) {
  const contentType = TYPES[file.split('.').pop() ?? ''] ?? 'application/pdf';
  const res = await call('POST', '/invoices/captur-upload', {
    fileName: file,
    contentType,
    size: bytes.length,
  });
  expect(res.status).toBe(201);
  const put = await fetch(String(res.body.uploadUrl), {
    method: 'PUT',
    headers: { 'Content-Type': contentType },
    body: bytes,
  });
  expect(put.status).toBe(200);
  return { id: String(res.body._id), batchId: String(res.body.batchId), key: String(res.body.key) };
}

const FINAL = new Set(['captured', 'manual', 'error', 'completed']);

/** Polls the batch as the upload page does, until capture has finished with every invoice in it. */
async function settled(batchId: string, timeoutMs = 60_000): Promise<Invoice[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', `/invoices?batchId=${batchId}`);
    const data = res.body.data as Invoice[];
    for (const i of data) polledStatuses.set(i._id, [...(polledStatuses.get(i._id) ?? []), i.status]);
    if (data.length > 0 && data.every((i) => FINAL.has(i.status))) {
      await local.drainQueues(30_000);
      return (await call('GET', `/invoices?batchId=${batchId}`)).body.data as Invoice[];
    }
    if (Date.now() > until)
      throw new Error(`Batch ${batchId} still at ${data.map((i) => i.status).join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const validationOf = async (id: string) =>
  ((await call('GET', `/invoice-validation/${id}/summary`)).body as { validation: Validation }).validation;

/** The ids in one of the validation queues the pages show (failed or error; passed or warning). */
async function queueIds(group: 'failed' | 'passed'): Promise<string[]> {
  const res = await call('GET', `/invoice-validation/queue?group=${group}&$select=_id&limit=1000`);
  expect(res.status).toBe(200);
  return (res.body.data as { _id: string }[]).map((v) => v._id);
}

beforeAll(async () => {
  // A short visibility timeout makes retries and dead-lettering take seconds rather than minutes.
  local = await startLocalStack({ seed: true, visibilityTimeoutSeconds: 2 });
  token = (await signInForToken({ baseUrl: local.origin, email: 'owner@demo.test', password: DEMO_PASSWORD }))
    .accessToken;
  // Listens as the browser does, to see each status the server announces.
  const ws = new WebSocket(`${local.wsUrl}?token=${encodeURIComponent(token)}`);
  ws.on('message', (data) => live.push(JSON.parse(data.toString()) as LiveEvent));
  await new Promise((resolve, reject) => {
    ws.on('open', resolve);
    ws.on('error', reject);
  });
  socket = ws;
}, 120_000);
afterAll(async () => {
  socket?.close();
  await local?.stop();
});

const truth = loadTruth();
const truthOf = (file: string) => {
  const t = truth.find((f) => f.file === file);
  if (!t) throw new Error(`No truth for ${file}`);
  return t;
};

type TruthField = keyof NonNullable<ReturnType<typeof truthOf>['invoices'][number]>['values'];

/**
 * Uploads a one-bill file and expects it captured with the true value of each of `fields`, on the demo
 * account its truth names, and validated.
 */
async function expectCaptured(file: string, fields: readonly TruthField[], timeoutMs?: number) {
  const expected = present(truthOf(file).invoices[0], `The truth of ${file}`);
  const { id, batchId } = await upload(file);
  const invoices = await settled(batchId, timeoutMs);
  const [invoice] = invoices;
  expect(invoice?.status).toBe('captured');
  expect(invoice?.values).toMatchObject(Object.fromEntries(fields.map((f) => [f, expected.values[f]])));
  expect(invoice?.account?.name).toBe(
    present(expected.account.demoAccounts[0], `The demo account of ${file}`),
  );
  const validation = await validationOf(String(invoice?._id));
  expect(['passed', 'warning', 'failed']).toContain(validation.status);
  return { id, invoices, expected, validation };
}

/** The first test's bill, which the re-issued copy duplicates. */
let digitalOriginal: Invoice | undefined;

describe('the invoice pipeline on the local stack', () => {
  it('captures a digital bill, matches its demo account and validates it', async () => {
    const file = 'bgb-electricity-digital.pdf';
    const { batchId } = await upload(file);
    const [invoice] = await settled(batchId);
    digitalOriginal = invoice;
    const expected = truthOf(file).invoices[0]?.values;
    expect(invoice?.status).toBe('captured');
    expect(invoice?.values).toMatchObject({
      invoiceNumber: expected?.invoiceNumber,
      startDate: expected?.startDate,
      endDate: expected?.endDate,
      grossTotal: expected?.grossTotal,
    });
    expect(invoice?.accountId).toMatch(/^[0-9a-f]{24}$/);
    const validation = await validationOf(String(invoice?._id));
    expect(['passed', 'warning', 'failed']).toContain(validation.status);
    expect(validation.results?.length).toBeGreaterThan(10);
  }, 90_000);

  it('shows an upload as queued, pending, processing, then captured, once however often S3 announces it', async () => {
    const file = 'edf-gas-digital.pdf';
    const { id, batchId, key } = await upload(file);
    const [invoice] = await settled(batchId);
    expect(invoice?.status).toBe('captured');
    // The live connection announced each step, in order, once.
    expect(await announcedUntilSettled(id)).toEqual(['queued', 'pending', 'processing', 'captured']);
    expectNeverBackwards(present(polledStatuses.get(id), `The statuses polled for ${id}`));

    // A late copy of the S3 event finds it captured: nothing is announced, nothing moves back.
    const before = live.length;
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({
        QueueUrl: local.env.QUEUE_URL_CAPTURE,
        MessageBody: JSON.stringify({
          Records: [
            {
              eventName: 'ObjectCreated:Put',
              s3: { bucket: { name: local.env.BUCKET_UPLOADS }, object: { key } },
            },
          ],
        }),
      }),
    );
    await local.drainQueues(30_000);
    expect(live.slice(before).filter((e) => e.data?.captureId === id)).toEqual([]);
    const again = await settled(batchId);
    expect(again).toHaveLength(1);
    expect(again[0]?.status).toBe('captured');
  }, 90_000);

  it('splits a document of three invoices into three, each validated', async () => {
    const file = 'edf-gas-multi-invoice.pdf';
    const { batchId } = await upload(file);
    const invoices = await settled(batchId);
    const numbers = truthOf(file).invoices.map((i) => i.values.invoiceNumber);
    expect(invoices.map((i) => i.invoiceNumber).sort()).toEqual([...numbers].sort());
    for (const i of invoices) expect((await validationOf(i._id)).status).not.toBe('pending');
  }, 90_000);

  it('fails the bill whose VAT is wrong, saying by how much', async () => {
    const { batchId } = await upload('edf-gas-vat-error.pdf');
    const [invoice] = await settled(batchId);
    const validation = await validationOf(String(invoice?._id));
    expect(validation.status).toBe('failed');
    const vat = validation.results?.find((r) => r.key === 'vat-amount' && r.status === 'failed');
    expect(vat?.reason).toMatch(/difference £90\.00/);
  }, 90_000);

  it('ends a corrupt, an encrypted and a non-PDF file as error with a reason', async () => {
    const corrupt = await upload('bgb-electricity-corrupt.pdf');
    const encrypted = await upload('thames-water-encrypted.pdf');
    const text = await upload('notes.pdf', Buffer.from('These are not the bills you are looking for.'));
    const [c] = await settled(corrupt.batchId);
    const [e] = await settled(encrypted.batchId);
    const [t] = await settled(text.batchId);
    expect(c).toMatchObject({ status: 'error' });
    expect(c?.error?.message).toMatch(/damaged|read|corrupt|invalid/i);
    expect(e?.error?.message).toMatch(/password/i);
    expect(t?.error?.message).toBe('The file is not a PDF or an image (PNG, JPEG or TIFF).');
    expect((await validationOf(String(t?._id))).status).toBe('error');
  }, 90_000);

  it('ends a picture of 20000 × 20000 pixels in a small file as error, without reading it', async () => {
    const bomb = await upload('bomb.png', Buffer.from(pngBomb()));
    const [b] = await settled(bomb.batchId);
    expect(b).toMatchObject({ status: 'error' });
    expect(b?.error?.message).toBe(
      'The picture is 20000 × 20000 pixels; pictures of at most 10,000 pixels a side can be read.',
    );
    // Inside a PDF, the reader refuses it from the picture's dictionary: an error, not a retry.
    const inPdf = await upload('bomb.pdf', Buffer.from(await pdfBomb()));
    const [p] = await settled(inPdf.batchId);
    expect(p).toMatchObject({ status: 'error' });
    expect(p?.error?.message).toMatch(/too large to be read/);
  }, 90_000);

  it('recognises the same file uploaded again instead of capturing it twice', async () => {
    const bytes = readFileSync(fixturePath('thames-water-digital.pdf'));
    await settled((await upload('thames-water-digital.pdf', bytes)).batchId);
    const [again] = await settled((await upload('thames-water-digital (1).pdf', bytes)).batchId);
    expect(again?.status).toBe('error');
    expect(again?.error).toMatchObject({ type: 'duplicate' });
    expect(again?.error?.message).toBe(
      'This file was already uploaded as thames-water-digital.pdf; it is not captured twice.',
    );
    // A copy is a failed duplicate check, with the reason, in the failed queue for a person to remove.
    const validation = await validationOf(String(again?._id));
    expect(validation.status).toBe('failed');
    expect(validation.reason).toContain('already uploaded as thames-water-digital.pdf');
    expect(validation.results).toEqual([
      expect.objectContaining({ key: 'duplicate-invoice-number', status: 'failed' }),
    ]);
    expect(await queueIds('failed')).toContain(again?._id);
    expect(await queueIds('passed')).not.toContain(again?._id);
  }, 90_000);

  it('fails the re-issued copy of a captured bill on its duplicate invoice number', async () => {
    const original = truthOf('bgb-electricity-digital.pdf').invoices[0]?.values;
    // The digital original was captured by the first test; the copy has other bytes and the same number.
    expect(digitalOriginal?.status).toBe('captured');
    const { batchId } = await upload('bgb-electricity-duplicate.pdf');
    const [copy] = await settled(batchId);
    expect(copy?.status).toBe('captured');
    expect(copy?.values).toMatchObject({
      invoiceNumber: original?.invoiceNumber,
      grossTotal: original?.grossTotal,
    });
    const validation = await validationOf(String(copy?._id));
    expect(validation.status).toBe('failed');
    const duplicate = validation.results?.find((r) => r.key === 'duplicate-invoice-number');
    expect(duplicate?.status).toBe('failed');
    expect(duplicate?.reason).toContain(`Invoice number ${original?.invoiceNumber} is already on another`);
    expect(await queueIds('failed')).toContain(copy?._id);
  }, 90_000);

  it.each(['bgb-electricity-scan.pdf', 'edf-gas-scan.pdf'])(
    'captures the scanned bill %s through OCR, matches its account and validates it',
    async (file) => {
      const { id, validation } = await expectCaptured(
        file,
        ['invoiceNumber', 'startDate', 'endDate', 'meterPointNumber', 'grossTotal'],
        120_000,
      );
      expect(await announcedUntilSettled(id)).toEqual(['queued', 'pending', 'processing', 'captured']);
      expect(validation.results?.find((r) => r.key === 'duplicate-invoice-number')?.status).toBe('passed');
    },
    180_000,
  );

  it('captures a phone photo of a water bill', async () => {
    await expectCaptured(
      'thames-water-photo.png',
      ['invoiceNumber', 'meterPointNumber', 'grossTotal'],
      120_000,
    );
  }, 180_000);

  it('captures a bill of three meters as one invoice with the values of each meter', async () => {
    const { invoices, expected } = await expectCaptured('bgb-electricity-multi-meter.pdf', [
      'invoiceNumber',
      'grossTotal',
      'consumption',
    ]);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]?.results?.extractMeterValues).toHaveLength(expected?.meters.length ?? 0);
  }, 90_000);

  it('captures a bill whose charges run on to a second page', async () => {
    await expectCaptured('edf-electricity-two-page.pdf', [
      'invoiceNumber',
      'netTotal',
      'grossTotal',
      'consumption',
    ]);
  }, 90_000);

  it('leaves a letter that is not an invoice for a person, saying why it cannot be validated', async () => {
    const { batchId } = await upload('edf-letter-not-invoice.pdf');
    const [letter] = await settled(batchId);
    expect(letter?.status).toBe('manual');
    expect(letter?.values.invoiceNumber ?? null).toBeNull();
    const validation = await validationOf(String(letter?._id));
    expect(validation.status).toBe('error');
    expect(validation.reason).toMatch(/cannot be validated/);
    expect(await queueIds('failed')).toContain(letter?._id);
  }, 90_000);

  it('never showed any upload a step back from where it had been', () => {
    expect(polledStatuses.size).toBeGreaterThan(10);
    for (const statuses of polledStatuses.values()) expectNeverBackwards(statuses);
  });

  it('keeps a message it cannot handle in the dead-letter queue, and replays it from there', async () => {
    const failing = JSON.stringify({
      Records: [
        {
          eventName: 'ObjectCreated:Put',
          s3: {
            bucket: { name: local.env.BUCKET_UPLOADS },
            object: { key: `invoices/${'0'.repeat(24)}/${'1'.repeat(24)}/gone.pdf` },
          },
        },
      ],
    });
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({ QueueUrl: local.env.QUEUE_URL_CAPTURE, MessageBody: failing }),
    );
    await local.drainQueues(40_000);
    const waiting = async () =>
      Number(
        (
          await local.stack.messaging.sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: local.env.QUEUE_URL_CAPTURE_DLQ,
              AttributeNames: ['ApproximateNumberOfMessages'],
            }),
          )
        ).Attributes?.ApproximateNumberOfMessages,
      );
    expect(await waiting()).toBe(1);
    const { stdout } = await promisify(execFile)(
      join(REPO_ROOT, 'node_modules/.bin/node'),
      [join(REPO_ROOT, 'infra/tools/replay-dead-letters.ts'), 'capture'],
      { env: { ...process.env, ...local.env } },
    );
    expect(stdout).toContain('Moved 1 message from capture-dlq back to capture.');
  }, 120_000);
});
