import { readFileSync } from 'node:fs';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { expect } from 'vitest';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { QUEUES, type QueueName } from '../../shared/system/functions.ts';
import { fixturePath } from '../fixtures/invoices/truth.ts';
import type { TestResponse } from '../support/http-events.ts';
import { type RegisterWorld, startRegisterWorld } from './register-support.ts';

export interface InvoiceWorld extends RegisterWorld {
  sqs: SQSClient;
  queueUrls: Record<QueueName, string>;
  /** Takes every message waiting on a queue off it. */
  drain: (queue: QueueName) => Promise<string[]>;
}

/** The register world with S3, and the pipeline's queues on the same emulator, named in the environment. */
export async function startInvoiceWorld(): Promise<InvoiceWorld> {
  const world = await startRegisterWorld({ s3: true });
  const endpoint = world.s3Endpoint;
  if (!endpoint) throw new Error('The S3 emulator did not start');
  const sqs = new SQSClient({
    region: 'eu-west-2',
    endpoint,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
  });
  const queueUrls = {} as Record<QueueName, string>;
  for (const queue of QUEUES) {
    await sqs.send(new CreateQueueCommand({ QueueName: queue }));
    // On the emulator's own origin: the client would otherwise send to the host the URL names.
    queueUrls[queue] = `${endpoint}/000000000000/${queue}`;
    process.env[`QUEUE_URL_${queue.toUpperCase().replaceAll('-', '_')}`] = queueUrls[queue];
  }
  Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: endpoint, LIVE_ENDPOINT: 'http://127.0.0.1:9' });
  const drain = async (queue: QueueName) => {
    const bodies: string[] = [];
    for (;;) {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrls[queue],
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
        }),
      );
      const messages = out.Messages ?? [];
      if (messages.length === 0) return bodies;
      bodies.push(...messages.map((m) => String(m.Body)));
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrls[queue],
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: String(m.ReceiptHandle) })),
        }),
      );
    }
  };
  return {
    ...world,
    sqs,
    queueUrls,
    drain,
    stop: async () => {
      sqs.destroy();
      await world.stop();
    },
  };
}

/** An SQS event as Lambda receives it, for calling a worker's handler directly. */
export function sqsEvent(bodies: readonly string[], queue: QueueName): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `m-${Date.now()}-${i}`,
      receiptHandle: 'r',
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:eu-west-2:000000000000:${queue}`,
      awsRegion: 'eu-west-2',
    })),
  };
}

/** Writes an item of a company collection as the API would (keys and indexes), for test data. */
export async function putCompanyItem(
  companyId: string,
  resource: string,
  indexes: string[],
  item: Record<string, unknown>,
) {
  const now = new Date().toISOString();
  await putItem(
    { pk: keys.collection({ companyId }, resource), indexes, searchFields: [] },
    { createdAt: now, updatedAt: now, companyId, ...item, _id: String(item._id) },
  );
}

/**
 * Stores an invoice as capture leaves it (status captured, these values and rates) with its pending
 * validation, under the same id; answers the id. Run the validation worker on it to get a result.
 */
export async function storeCapturedInvoice(
  companyId: string,
  values: Record<string, unknown>,
  rates: readonly Record<string, unknown>[] = [],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const id = newId();
  await putCompanyItem(companyId, 'invoices', ['accountId', 'batchId'], {
    _id: id,
    batchId: id,
    captureId: id,
    fileName: `${String(values.invoiceNumber ?? id)}.pdf`,
    source: 'upload',
    status: 'captured',
    values,
    rates,
    invoiceNumber: values.invoiceNumber,
    completed: false,
    isCreditNote: false,
    invoiceValidationId: id,
    ...extra,
  });
  await putCompanyItem(companyId, 'invoice-validation', ['status'], {
    _id: id,
    invoiceId: id,
    status: 'pending',
    completed: false,
    hold: false,
    tags: [],
    displayName: String(values.invoiceNumber ?? id),
  });
  return id;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The invoice world with one electricity account of Demo Estates to file bills on, and its owner's calls. */
export interface InvoiceAccountWorld extends InvoiceWorld {
  owner: string;
  assetId: string;
  accountId: string;
  /** Calls the API, as the owner unless another token is given. */
  call: (method: Method, path: string, body?: unknown, token?: string) => Promise<TestResponse>;
  /** Runs the validation worker on these queue messages, as SQS would deliver them; fails on any failure. */
  runValidation: (bodies: readonly string[]) => Promise<void>;
  /** Runs the validation worker on these invoices of Demo Estates. */
  validate: (ids: readonly string[]) => Promise<void>;
  /** Stores a captured invoice (see storeCapturedInvoice) and validates it; answers its id. */
  captured: (
    values: Record<string, unknown>,
    rates?: readonly Record<string, unknown>[],
    extra?: Record<string, unknown>,
  ) => Promise<string>;
  /** The validation of an invoice, as the validation page reads it. */
  validationOf: (id: string) => Promise<Record<string, unknown>>;
  /** The account's consumption over the first 28 days of a month (YYYY-MM). */
  consumptionIn: (month: string) => Promise<number>;
}

/** Starts the invoice world and creates, through the wizard, an asset with an electricity account on this meter. */
export async function startInvoiceAccountWorld(site: {
  siteName: string;
  meterPointNumber: string;
  name: string;
}): Promise<InvoiceAccountWorld> {
  const world = await startInvoiceWorld();
  const owner = world.token('owner');
  const call = (method: Method, path: string, body?: unknown, token = owner) =>
    world.api({ method, path, token, body });
  const assetId = newId();
  await putCompanyItem(world.demoId, 'assets', ['entityId'], {
    _id: assetId,
    siteName: site.siteName,
    images: [],
  });
  const account = await call('POST', '/accounts/from-wizard', {
    assetId,
    type: 'electricity',
    meterPointNumber: site.meterPointNumber,
    name: site.name,
  });
  expect(account.status).toBe(201);
  const accountId = String(account.body._id);
  const runValidation = async (bodies: readonly string[]) => {
    // Imported once the world has set the environment the worker reads when it loads.
    const { handler } = await import('../../functions/handlers/queue/validation.ts');
    const result = await handler(sqsEvent(bodies, 'validation'));
    expect(result.batchItemFailures).toEqual([]);
  };
  const validate = (ids: readonly string[]) =>
    runValidation(ids.map((invoiceId) => JSON.stringify({ companyId: world.demoId, invoiceId })));
  return {
    ...world,
    owner,
    assetId,
    accountId,
    call,
    runValidation,
    validate,
    captured: async (values, rates = [], extra = {}) => {
      const id = await storeCapturedInvoice(world.demoId, values, rates, extra);
      await validate([id]);
      return id;
    },
    validationOf: async (id) =>
      (await call('GET', `/invoice-validation/${id}/summary`)).body.validation as Record<string, unknown>,
    consumptionIn: async (month) => {
      const res = await call(
        'GET',
        `/accounts/${accountId}/consumption?startDate=${month}-01&endDate=${month}-28`,
      );
      const rows = (res.body.data ?? []) as { consumption: number }[];
      return rows.reduce((s, r) => s + r.consumption, 0);
    },
  };
}

/** A January 2026 electricity bill of this meter with these figures at 20% VAT, under a fresh number. */
export function januaryBill(
  prefix: string,
  figures: {
    meterPointNumber: string;
    consumption: number;
    netTotal: number;
    vatTotal: number;
    grossTotal: number;
  },
  overrides: Record<string, unknown> = {},
) {
  return {
    invoiceNumber: `${prefix}${Math.floor(Math.random() * 1e9)}`,
    invoiceDate: '2026-02-05',
    startDate: '2026-01-01',
    endDate: '2026-01-31',
    consumptionUnit: 'kWh',
    vatRate: 20,
    isEstimate: false,
    ...figures,
    ...overrides,
  };
}

/**
 * Uploads a fixture bill for capture as the browser does, with bytes of its own (`copy`) so it is never
 * refused as a file uploaded before; answers its batch and the S3 event message of its object, with the
 * message id given, since SQS hands out the same message each time.
 */
export async function uploadForCapture(
  w: InvoiceAccountWorld,
  bill: { fixture: string; fileName: string; copy: number; messageId: string },
): Promise<{ batchId: string; event: SQSEvent }> {
  const bytes = Buffer.concat([
    readFileSync(fixturePath(bill.fixture)),
    Buffer.from(`\n%copy ${bill.copy}\n`),
  ]);
  const ticket = await w.call('POST', '/invoices/captur-upload', {
    fileName: bill.fileName,
    contentType: 'application/pdf',
    size: bytes.length,
  });
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
  const put = await fetch(String(ticket.body.uploadUrl), {
    method: 'PUT',
    headers: { 'content-type': 'application/pdf' },
    body: bytes,
  });
  expect(put.status).toBe(200);
  const body = JSON.stringify({
    Records: [
      {
        eventName: 'ObjectCreated:Put',
        s3: {
          bucket: { name: 'voltfolio-uploads' },
          object: { key: String(ticket.body.key), size: bytes.length },
        },
      },
    ],
  });
  const event = sqsEvent([body], 'capture');
  (event.Records[0] as { messageId: string }).messageId = bill.messageId;
  return { batchId: String(ticket.body.batchId), event };
}
