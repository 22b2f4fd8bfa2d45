import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { REPO_ROOT } from '../../infra/local/options.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { fixturePath, loadTruth } from '../fixtures/invoices/truth.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;
let token: string;

interface Invoice {
  _id: string;
  status: string;
  fileName: string;
  invoiceNumber?: string;
  accountId?: string;
  error?: { type: string; message: string };
  values: Record<string, unknown>;
}
interface Validation {
  _id: string;
  status: string;
  reason?: string;
  results?: { key: string; status: string; reason: string }[];
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

beforeAll(async () => {
  // A short visibility timeout makes retries and dead-lettering take seconds rather than minutes.
  local = await startLocalStack({ seed: true, visibilityTimeoutSeconds: 2 });
  token = (await signInForToken({ baseUrl: local.origin, email: 'owner@demo.test', password: DEMO_PASSWORD }))
    .accessToken;
}, 120_000);
afterAll(() => local?.stop());

const truth = loadTruth();
const truthOf = (file: string) => {
  const t = truth.find((f) => f.file === file);
  if (!t) throw new Error(`No truth for ${file}`);
  return t;
};

describe('the invoice pipeline on the local stack', () => {
  it('captures a digital bill, matches its demo account and validates it', async () => {
    const file = 'bgb-electricity-digital.pdf';
    const { batchId } = await upload(file);
    const [invoice] = await settled(batchId);
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

  it('captures the same object once however often S3 announces it', async () => {
    const bytes = readFileSync(fixturePath('edf-gas-digital.pdf'));
    const { batchId, key } = await upload('edf-gas-digital.pdf', bytes);
    await settled(batchId);
    const event = {
      Records: [
        {
          eventName: 'ObjectCreated:Put',
          s3: { bucket: { name: local.env.BUCKET_UPLOADS }, object: { key, size: bytes.length } },
        },
      ],
    };
    await local.stack.messaging.sqs.send(
      new SendMessageCommand({ QueueUrl: local.env.QUEUE_URL_CAPTURE, MessageBody: JSON.stringify(event) }),
    );
    await local.drainQueues(30_000);
    const invoices = await settled(batchId);
    expect(invoices).toHaveLength(1);
  }, 90_000);

  it('recognises the same file uploaded again instead of capturing it twice', async () => {
    const bytes = readFileSync(fixturePath('thames-water-digital.pdf'));
    await settled((await upload('thames-water-digital.pdf', bytes)).batchId);
    const [again] = await settled((await upload('thames-water-digital (1).pdf', bytes)).batchId);
    expect(again?.status).toBe('error');
    expect(again?.error).toMatchObject({ type: 'duplicate' });
    expect(again?.error?.message).toContain('already uploaded');
  }, 90_000);

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
