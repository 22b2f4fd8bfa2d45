import { createHash } from 'node:crypto';
import { extractInvoices, isInvoiceComplete } from '../../shared/capture/extract.ts';
import type { CaptureResults, InvoiceExtract, Template } from '../../shared/capture/model.ts';
import { type ListedSupplier, matchInvoiceSuppliers } from '../../shared/capture/supplier-match.ts';
import { detectCaptureFileType } from '../../shared/files/file-type.ts';
import type { CheckResult } from '../../shared/validation/checks.ts';
import { DEFAULT_VALIDATION_RULES } from '../../shared/validation/rules.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { getObjectBytes } from '../core/adapters/s3.ts';
import { analyseDocument, isDocumentProblem } from '../core/adapters/textract.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { imageSize } from '../core/lib/image-size.ts';
import type { Logger } from '../core/lib/logger.ts';
import { captureLimits } from '../staff-tools/index.ts';
import { allSuppliers, liveTemplates } from '../suppliers/index.ts';
import { invoiceFieldsOf, invoiceIdFor, parseCaptureKey, validationItemFor } from './invoice-records.ts';
import {
  advanceCaptureStatus,
  advanceInvoiceStatus,
  type CaptureProgress,
  changeCapture,
  claimCapture,
  claimFileDigest,
  createCapture,
  getCapture,
  getInvoice,
  putCapturedInvoice,
  putInvoice,
  putValidationUnlessCompleted,
  requeueInvoice,
  type StoredCapture,
} from './invoice-repository.ts';
import { countPdfPages } from './pdf-pages.ts';

export interface CaptureOutcome {
  companyId?: string;
  captureId?: string;
  status: 'captured' | 'manual' | 'error' | 'skipped';
  invoiceIds: string[];
  reason?: string;
}

/** The error type of a document whose bytes were captured before. */
const DUPLICATE_TYPE = 'duplicate';

const TEMPLATE_CACHE_MS = 60_000;
let templateCache: { at: number; templates: Template[] } | undefined;

/** Templates change rarely and are shared by every company; a minute's cache spares a read per document. */
async function templates(): Promise<Template[]> {
  if (templateCache && Date.now() - templateCache.at < TEMPLATE_CACHE_MS) return templateCache.templates;
  templateCache = { at: Date.now(), templates: await liveTemplates() };
  return templateCache.templates;
}

let supplierCache: { at: number; suppliers: ListedSupplier[] } | undefined;

/** The suppliers list a name read from a bill is matched against, kept as long as the templates. */
async function suppliers(): Promise<ListedSupplier[]> {
  if (supplierCache && Date.now() - supplierCache.at < TEMPLATE_CACHE_MS) return supplierCache.suppliers;
  const list = (await allSuppliers()).map(
    (s): ListedSupplier => ({
      _id: s._id,
      name: s.name,
      ...(s.vatNumber ? { vatNumber: s.vatNumber } : {}),
      ...(s.website ? { website: s.website } : {}),
      ...(s.portal ? { portal: s.portal } : {}),
    }),
  );
  supplierCache = { at: Date.now(), suppliers: list };
  return list;
}

export function forgetTemplates(): void {
  templateCache = undefined;
  supplierCache = undefined;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Textract's limit on either side of a picture, in pixels. */
const MAX_PICTURE_SIDE = 10_000;

/** An object written to `invoices/` without an upload call (by a machine, say) still gets its records. */
async function ensureCapture(companyId: string, captureId: string, fileName: string, key: string) {
  const existing = await getCapture(companyId, captureId);
  if (existing) return existing;
  const now = new Date().toISOString();
  const capture: StoredCapture = {
    _id: captureId,
    companyId,
    batchId: captureId,
    fileName,
    key,
    source: 'api',
    status: 'queued',
    invoiceIds: [captureId],
    createdAt: now,
    updatedAt: now,
  };
  if (!(await createCapture(companyId, capture))) return (await getCapture(companyId, captureId)) ?? capture;
  await putInvoice(companyId, {
    _id: captureId,
    companyId,
    captureId,
    batchId: captureId,
    fileName,
    key,
    status: 'queued',
    completed: false,
    isCreditNote: false,
    values: {},
    rates: [],
    createdAt: now,
    updatedAt: now,
  });
  return capture;
}

/** The invoices a capture's document became (or will become): one until it has been read. */
const invoiceIdsOf = (capture: StoredCapture, captureId: string): string[] =>
  capture.invoiceIds && capture.invoiceIds.length > 0 ? capture.invoiceIds : [captureId];

/**
 * Tells the company's browsers that invoices moved on, with the keys they refetch: the upload list polls
 * `/invoices?batchId=` and so updates at once instead of at its next tick.
 */
export async function announceCaptureStatus(
  companyId: string,
  captureId: string,
  status: string,
  invoiceIds: string[],
  log: Logger,
): Promise<void> {
  await publishToCompany(
    companyId,
    {
      type: `invoice.${status}`,
      keys: ['/invoices', '/invoice-validation', ...invoiceIds.map((id) => `/invoices/${id}`)],
      data: { captureId, status, invoiceIds },
    },
    log,
  ).catch((err) => log.warn('live update failed', { error: String(err) }));
}

/**
 * Mirrors a capture status onto the capture's invoices, each only forward (a conditional write), and
 * announces the ones that moved. A repeated or late event finds them there or past it and says nothing.
 */
async function mirrorStatus(
  companyId: string,
  captureId: string,
  ids: string[],
  status: CaptureProgress,
  log: Logger,
): Promise<string[]> {
  const advanced = await Promise.all(ids.map((id) => advanceInvoiceStatus(companyId, id, status)));
  const moved = ids.filter((_, i) => advanced[i]);
  if (moved.length > 0) await announceCaptureStatus(companyId, captureId, status, moved, log);
  return moved;
}

const tooManyPages = (pages: number, max: number) =>
  `The document has ${pages} pages; bills of at most ${max} pages are captured. Split it and upload the parts.`;

/** PDF encryption is declared in the trailer; Textract cannot read such a file, so say why at once. */
function isEncryptedPdf(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 4096))).toString('latin1');
  const head = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 4096))).toString('latin1');
  return /\/Encrypt\s+\d+\s+\d+\s+R/.test(tail) || /\/Encrypt\s+\d+\s+\d+\s+R/.test(head);
}

/**
 * Captures one uploaded document: checks it, has Textract read it, extracts its invoices with the
 * supplier templates (or without), stores an invoice and a pending validation for each, and queues them
 * for validation. Every failure a person can act on ends the capture as error with its reason; anything
 * else throws, so the message is retried and, in the end, kept in the dead-letter queue. `delivery` is
 * the id of the SQS message naming the document: its redelivery resumes a capture whose worker died.
 */
export async function captureDocument(
  bucket: string,
  key: string,
  size: number | undefined,
  log: Logger,
  delivery?: string,
): Promise<CaptureOutcome> {
  const parsed = parseCaptureKey(key);
  if (!parsed) {
    log.warn('object outside the capture layout ignored', { key });
    return { status: 'skipped', invoiceIds: [], reason: 'Not an invoice upload key' };
  }
  const { companyId, captureId, fileName } = parsed;
  const capture = await ensureCapture(companyId, captureId, fileName, key);
  const ids = invoiceIdsOf(capture, captureId);
  // The object is in the store and its event in hand: the document waits for a worker.
  await Promise.all([
    advanceCaptureStatus(companyId, captureId, 'queued'),
    mirrorStatus(companyId, captureId, ids, 'queued', log),
  ]);
  if (!(await claimCapture(companyId, captureId, new Date(), delivery))) {
    // Routine: S3 delivers at least once, and a document stored already captured (the demo's) is announced too.
    log.debug('capture already taken', { companyId, captureId, status: capture.status });
    return { companyId, captureId, status: 'skipped', invoiceIds: [], reason: 'Already captured' };
  }
  // Claimed: the document is checked and waits on Textract's reading (pending), then its values are
  // taken out and stored (processing).
  await mirrorStatus(companyId, captureId, ids, 'pending', log);
  try {
    return await captureClaimed(
      bucket,
      key,
      size,
      capture,
      parsed,
      () => mirrorStatus(companyId, captureId, ids, 'processing', log),
      log,
    );
  } catch (err) {
    // Give the claim back, so the retry SQS makes (or a replay from the dead-letter queue) can take it.
    await changeCapture(companyId, captureId, (current) =>
      current.deleted === true
        ? undefined
        : {
            ...current,
            status: 'queued',
            lastError: err instanceof Error ? err.message : String(err),
            updatedAt: new Date().toISOString(),
          },
    ).catch((e) => log.error('could not release the capture', { captureId, error: String(e) }));
    const back = await Promise.all(ids.map((id) => requeueInvoice(companyId, id).catch(() => false)));
    const requeued = ids.filter((_, i) => back[i]);
    if (requeued.length > 0) await announceCaptureStatus(companyId, captureId, 'queued', requeued, log);
    throw err;
  }
}

async function captureClaimed(
  bucket: string,
  key: string,
  size: number | undefined,
  capture: StoredCapture,
  { companyId, captureId, fileName }: { companyId: string; captureId: string; fileName: string },
  read: () => Promise<unknown>,
  log: Logger,
): Promise<CaptureOutcome> {
  const started = Date.now();
  const fail = (reason: string, type = 'capture') =>
    finishWithError(companyId, captureId, reason, type, log).then(
      (): CaptureOutcome => ({ companyId, captureId, status: 'error', invoiceIds: [captureId], reason }),
    );

  const limits = await captureLimits();
  const tooLarge = `The file is larger than ${limits.maxFileMb} MB.`;
  if (size !== undefined && size > limits.maxFileBytes) return fail(tooLarge);
  const bytes = await getObjectBytes(bucket, key);
  if (bytes.byteLength > limits.maxFileBytes) return fail(tooLarge);
  if (bytes.byteLength === 0) return fail('The file is empty.');
  const type = detectCaptureFileType(bytes);
  if (!type) return fail('The file is not a PDF or an image (PNG, JPEG or TIFF).');
  // Textract reads pictures of at most 10,000 pixels a side; the header says so without decoding.
  const picture = type === 'png' || type === 'jpeg' ? imageSize(bytes) : undefined;
  if (picture && Math.max(picture.width, picture.height) > MAX_PICTURE_SIDE) {
    return fail(
      `The picture is ${picture.width} × ${picture.height} pixels; pictures of at most 10,000 pixels a side can be read.`,
    );
  }
  if (type === 'pdf' && isEncryptedPdf(bytes)) {
    return fail('The PDF is protected by a password. Save it without the password and upload it again.');
  }
  // Textract charges by the page it reads: an over-long bill is refused from its page tree, before it is sent.
  if (type === 'pdf') {
    const pages = await countPdfPages(bytes).catch(() => undefined);
    if (pages === undefined) {
      return fail(
        'The PDF is damaged: its pages could not be counted. Export or scan it again and upload the new file.',
      );
    }
    if (pages > limits.maxPagesPerBill) return fail(tooManyPages(pages, limits.maxPagesPerBill));
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  const earlier = await claimFileDigest(companyId, digest, captureId);
  if (earlier) {
    const other = await getCapture(companyId, earlier);
    const name = other?.fileName ?? earlier;
    return fail(`This file was already uploaded as ${name}; it is not captured twice.`, DUPLICATE_TYPE);
  }

  let results: CaptureResults;
  try {
    const output = await analyseDocument(bucket, key);
    await read();
    const pages = output.document.DocumentMetadata.Pages;
    if (pages > limits.maxPagesPerBill) {
      return fail(tooManyPages(pages, limits.maxPagesPerBill));
    }
    results = extractInvoices(output, await templates());
    matchInvoiceSuppliers(results, await suppliers());
  } catch (err) {
    if (isDocumentProblem(err)) return fail(err instanceof Error ? err.message : String(err));
    throw err;
  }
  if (results.multiInvoice.invoices.length === 0) {
    return fail('No text could be read from the document.');
  }

  const now = new Date().toISOString();
  const placeholder = await getInvoice(companyId, captureId);
  const createdAt = str(placeholder?.createdAt) ?? now;
  const invoices = results.multiInvoice.invoices;
  const ids = invoices.map((inv) => invoiceIdFor(captureId, inv.index));
  const records = invoices.map((inv, i) => {
    const id = invoiceIdFor(captureId, inv.index);
    const status = isInvoiceComplete(inv) ? 'captured' : 'manual';
    return {
      extract: inv,
      invoice: {
        ...(i === 0 ? (placeholder ?? {}) : {}),
        _id: id,
        companyId,
        captureId,
        batchId: capture.batchId ?? captureId,
        fileName: invoices.length > 1 ? `${fileName} (${i + 1} of ${invoices.length})` : fileName,
        key,
        source: capture.source ?? 'upload',
        ...invoiceFieldsOf(inv, results),
        status,
        invoiceValidationId: id,
        // Invoices split from one document point at each other, so each can lead to the rest.
        ...(invoices.length > 1 ? { sisterId: i === 0 ? ids[1] : ids[0] } : {}),
        completed: false,
        createdAt: i === 0 ? createdAt : now,
        updatedAt: now,
      } satisfies StoredItem,
    };
  });
  // An invoice a person confirmed while its document was captured again keeps what they confirmed. Its
  // validation goes first, so an invoice seen as captured always has one.
  const written: typeof records = [];
  for (const r of records) {
    const validation = validationItemFor(r.invoice, capture, 'pending', now);
    if (!(await putValidationUnlessCompleted(companyId, validation))) continue;
    if (await putCapturedInvoice(companyId, r.invoice)) written.push(r);
  }
  const allComplete = records.every((r) => r.invoice.status === 'captured');
  // Sent before the capture is recorded done: a worker that dies in between leaves the capture claimed,
  // so the message handed out again captures it again and sends them, rather than finding it done.
  await sendToQueue(
    'validation',
    written.map((r) => ({ companyId, invoiceId: r.invoice._id })),
  );
  // Over the record as stored now: the claim's attempt count, and a delete made meanwhile, stay.
  await changeCapture(companyId, capture._id, (current) => {
    if (current.deleted === true) return undefined;
    const next: StoredItem = {
      ...current,
      status: allComplete ? 'captured' : 'manual',
      results,
      invoiceIds: ids,
      digest,
      pageCount: results.pageCount,
      ocr: results.ocr,
      durationMs: Date.now() - started,
      updatedAt: now,
    };
    delete next.error;
    return next;
  });
  log.info('document captured', {
    companyId,
    captureId,
    invoices: ids.length,
    methods: invoices.map((i: InvoiceExtract) => i.method),
    ms: Date.now() - started,
  });
  return { companyId, captureId, status: allComplete ? 'captured' : 'manual', invoiceIds: ids };
}

/**
 * Records a capture's failure: the bill and its validation first, the capture record last. A worker that
 * dies in between leaves the capture claimed, so the message handed out again records the failure again,
 * rather than finding the capture over and the bill left where it was.
 */
async function finishWithError(
  companyId: string,
  captureId: string,
  reason: string,
  type: string,
  log: Logger,
) {
  const now = new Date().toISOString();
  const error = { type, message: reason };
  const found = await getCapture(companyId, captureId);
  const capture = found?.deleted === true ? undefined : found;
  const invoice = (await getInvoice(companyId, captureId)) ?? {
    _id: captureId,
    companyId,
    captureId,
    batchId: capture?.batchId ?? captureId,
    fileName: capture?.fileName ?? 'document',
    values: {},
    rates: [],
    completed: false,
    isCreditNote: false,
    createdAt: now,
  };
  const stored = { ...invoice, status: 'error', error, invoiceValidationId: captureId, updatedAt: now };
  const written = await putCapturedInvoice(companyId, stored);
  if (written) {
    await putValidationUnlessCompleted(
      companyId,
      validationOfFailedCapture(stored, capture ?? stored, reason, type, now),
    );
  }
  await changeCapture(companyId, captureId, (current) =>
    current.deleted === true ? undefined : { ...current, status: 'error', error, updatedAt: now },
  );
  if (!written)
    log.warn('capture failed; the confirmed invoice is kept', { companyId, captureId, reason, type });
  else log.warn('capture failed', { companyId, captureId, reason, type });
}

const DUPLICATE_RULE = DEFAULT_VALIDATION_RULES.find((r) => r.key === 'duplicate-invoice-number');

/**
 * The validation item of a document capture gave up on. Mostly error: the bill could not be read, so
 * nothing could be checked. A copy of a file already captured is different: the duplicate check of the
 * bill validation (DOMAIN) has its answer without reading it, so it fails that check, with the reason.
 */
function validationOfFailedCapture(
  invoice: StoredItem,
  capture: StoredItem,
  reason: string,
  type: string,
  now: string,
): StoredItem {
  const base = { ...validationItemFor(invoice, capture, 'error', now), reason };
  if (type !== DUPLICATE_TYPE || !DUPLICATE_RULE) return base;
  const result: CheckResult = {
    key: DUPLICATE_RULE.key,
    group: DUPLICATE_RULE.group,
    name: DUPLICATE_RULE.name,
    status: 'failed',
    reason: `${reason} Remove the copy.`,
  };
  return {
    ...base,
    status: 'failed',
    results: [result],
    summary: { passed: 0, warning: 0, failed: 1, skipped: 0 },
    validatedAt: now,
  };
}
