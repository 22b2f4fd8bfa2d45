import type * as z from 'zod';
import { canAccessItem } from '../../shared/access/item-access.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { detectCaptureFileType, safeFileName } from '../../shared/files/file-type.ts';
import type { InvoiceUploadTicket, ManualTicket } from '../../shared/schemas/responses/invoices.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import { deleteObject, headObject } from '../core/adapters/asset-storage.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { objectStart } from '../core/adapters/object-start.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { badRequest, conflict, formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { type CaptureLimits, captureLimits } from '../staff-tools/index.ts';
import { mayReadCapture } from './capture-access.ts';
import { applyValues, valueErrors } from './invoice-edit.ts';
import type { manualUploadSchema, uploadRequestSchema } from './invoice-inputs.ts';
import { captureKey } from './invoice-records.ts';
import { changeCapture, countCapturesSince, getCapture, getInvoice } from './invoice-repository.ts';
import { registerUpload } from './upload-registration.ts';

/** The bodies of the uploads (zod's full build) load with the first upload that parses one. */
const inputs = () => import('./invoice-inputs.ts');
type UploadRequest = z.infer<typeof uploadRequestSchema>;

const tooLarge = (limits: CaptureLimits) => `The file is larger than ${limits.maxFileMb} MB`;

/**
 * The capture limits staff set: the file's size, and how many documents a company may send to capture
 * in a UTC day (each one is Textract pages and a person's attention).
 */
async function captureLimitErrors(companyId: string, size: number): Promise<Record<string, string>> {
  const limits = await captureLimits();
  if (size > limits.maxFileBytes) return { size: tooLarge(limits) };
  const now = new Date();
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const today = await countCapturesSince(
    companyId,
    `${dayStart.toString(16).padStart(12, '0')}${'0'.repeat(12)}`,
  );
  if (today >= limits.maxBillsPerDay)
    return {
      file: `Your company has sent ${today} bills to capture today, the most allowed in a day (${limits.maxBillsPerDay}); send the rest tomorrow`,
    };
  return {};
}

async function startUpload(ctx: OpContext, req: UploadRequest): Promise<OpResult> {
  const companyId = ctx.caller.companyId;
  const limitErrors = await captureLimitErrors(companyId, req.size);
  if (Object.keys(limitErrors).length > 0) throw formError(limitErrors);
  const captureId = newId();
  const batchId = req.batchId ?? captureId;
  const key = captureKey(companyId, captureId, req.fileName);
  await registerUpload(companyId, {
    captureId,
    batchId,
    fileName: req.fileName,
    key,
    size: req.size,
    contentType: req.contentType,
    source: ctx.caller.kind === 'machine' ? 'api' : 'upload',
    userSub: ctx.caller.sub,
    accountId: req.accountId,
  });
  const uploadUrl = await presignPut(bucketName('uploads'), key, req.contentType, { size: req.size });
  return {
    status: 201,
    body: {
      _id: captureId,
      batchId,
      key,
      fileName: req.fileName,
      status: 'uploading',
      uploadUrl,
      headers: { 'Content-Type': req.contentType },
    } satisfies InvoiceUploadTicket,
  };
}

type ManualUpload = z.infer<typeof manualUploadSchema>;

/** Manual documents live apart from captures' `invoices/` prefix, so the capture worker never sees them. */
const manualPrefix = (companyId: string) => `manual/${companyId}/`;
const MANUAL_KEY = /^manual\/([0-9a-f]{24})\/([0-9a-f]{24})\/[^/]+$/;

/** The account an uploaded or manual invoice is filed on: one of the company's live accounts the caller may change. */
async function manualAccountErrors(ctx: OpContext, accountId: string): Promise<Record<string, string>> {
  const resolver = new LineageResolver(ctx.caller.companyId, ctx.caller);
  const account = await resolver.item('accounts', accountId);
  if (!account || account.deleted === true) return { accountId: 'Account not found' };
  if (isCompanyWide(ctx.caller)) return {};
  const lineage = await resolver.complete('accounts', account);
  if (!canAccessItem(ctx.caller, 'read', lineage)) return { accountId: 'Account not found' };
  if (!canAccessItem(ctx.caller, 'write', lineage))
    return { accountId: 'You may not add invoices to this account' };
  return {};
}

/**
 * POST /invoices/captur-upload and POST /invoice-capture/upload: a presigned PUT for one document. A
 * document sent for an account is filed on it, so the account must be one the caller may add bills to,
 * as for a manual upload.
 */
const upload = operation({}, async (ctx): Promise<OpResult> => {
  const req = parseOrThrow((await inputs()).uploadRequestSchema, ctx.body);
  if (req.accountId !== undefined) {
    const errors = await manualAccountErrors(ctx, req.accountId);
    if (Object.keys(errors).length > 0) throw formError(errors);
  }
  return startUpload(ctx, req);
});

/** Every field's problem at once, so the form shows them together before anything is uploaded. */
async function manualErrors(ctx: OpContext, req: ManualUpload): Promise<Record<string, string>> {
  const values = Object.fromEntries(
    Object.entries(valueErrors(req.values)).map(([k, v]) => [`values.${k}`, v]),
  );
  const limits = await captureLimits();
  const size: Record<string, string> = req.size > limits.maxFileBytes ? { size: tooLarge(limits) } : {};
  return { ...(await manualAccountErrors(ctx, req.accountId)), ...values, ...size };
}

/**
 * Checks the uploaded document by its bytes: it must have arrived, be within the size limit and be a PDF or an
 * image capture accepts. Each failure is the upload's message on `file`, which the form shows with the
 * other validation errors.
 */
async function manualFileErrors(key: string): Promise<Record<string, string>> {
  const head = await headObject(bucketName('uploads'), key);
  if (!head || head.size === 0) return { file: 'The document did not arrive. Upload it again.' };
  const limits = await captureLimits();
  if (head.size > limits.maxFileBytes) return { file: tooLarge(limits) };
  const start = await objectStart(bucketName('uploads'), key, 1024);
  if (!start || !detectCaptureFileType(start))
    return { file: 'The file is not a PDF document or a PNG, JPEG or TIFF image' };
  return {};
}

/**
 * POST /invoices/manual-upload: a document whose values a person types in, in two calls. The first checks
 * the account and values and answers a presigned PUT; nothing is stored, so an upload that fails leaves
 * nothing behind. The second, with the key, checks the document and files the invoice (status manual),
 * which goes straight to validation. Sending the second call again answers the same invoice.
 */
const manualUpload = operation({}, async (ctx): Promise<OpResult> => {
  const req = parseOrThrow((await inputs()).manualUploadSchema, ctx.body);
  const companyId = ctx.caller.companyId;
  const errors = await manualErrors(ctx, req);
  if (Object.keys(errors).length > 0) throw formError(errors);

  if (req.key === undefined) {
    const id = newId();
    const key = `${manualPrefix(companyId)}${id}/${safeFileName(req.fileName, 'invoice.pdf')}`;
    const uploadUrl = await presignPut(bucketName('uploads'), key, req.contentType, { size: req.size });
    return {
      body: {
        key,
        fileName: req.fileName,
        status: 'uploading',
        uploadUrl,
        headers: { 'Content-Type': req.contentType },
      } satisfies ManualTicket,
    };
  }

  const match = MANUAL_KEY.exec(req.key);
  const id = match?.[2];
  if (!match || match[1] !== companyId || !id) throw formError({ file: 'Upload the document first' });
  const existing = await getInvoice(companyId, id);
  if (existing) return { body: existing };
  const fileErrors = await manualFileErrors(req.key);
  if (Object.keys(fileErrors).length > 0) {
    // A refused document is not kept: the next attempt asks for a key of its own.
    await deleteObject(bucketName('uploads'), req.key).catch(() => undefined);
    throw formError(fileErrors);
  }
  const now = new Date().toISOString();
  const invoice: StoredItem = {
    _id: id,
    companyId,
    batchId: req.batchId ?? id,
    fileName: req.fileName,
    key: req.key,
    contentType: req.contentType,
    source: 'manual',
    userSub: ctx.caller.sub,
    accountId: req.accountId,
    status: 'manual',
    completed: false,
    isCreditNote: false,
    values: {},
    rates: [],
    invoiceValidationId: id,
    createdAt: now,
    updatedAt: now,
  };
  const stored = await applyValues(companyId, invoice, req.values, ctx.caller.sub);
  await publishToCompany(
    companyId,
    { type: 'invoice.created', keys: ['/invoices', '/invoice-validation'] },
    ctx.log,
  ).catch(() => undefined);
  return { status: 201, body: stored };
});

/** A document the caller may see: one holding another account's bill is hidden like a missing one. */
async function captureOf(ctx: WithParams<'id'>): Promise<StoredItem> {
  const capture = await getCapture(ctx.caller.companyId, ctx.params.id);
  if (!capture || !(await mayReadCapture(ctx.caller, capture))) throw notFound('Invoice capture not found');
  return capture;
}

/** GET /invoice-capture/{id}/download: the document as uploaded. */
const download = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const capture = await captureOf(ctx);
  const name = String(capture.fileName ?? 'invoice.pdf');
  const url = await presignGet(bucketName('uploads'), String(capture.key), 900, name);
  return { body: { url, name } };
});

/**
 * POST /invoice-capture/{id}/start-capture: captures the document again (after a template was fixed,
 * say). Only a capture that is not being worked on may be restarted.
 */
const startCapture = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const capture = await captureOf(ctx);
  if (capture.status === 'processing') throw conflict('The document is being captured right now');
  if (capture.status === 'uploading') throw badRequest('The document has not finished uploading');
  const now = new Date().toISOString();
  // Queued only from where it was checked: a worker that claimed it meanwhile keeps its claim.
  const changed = await changeCapture(ctx.caller.companyId, capture._id, (current) => {
    if (current.status === 'processing') throw conflict('The document is being captured right now');
    if (current.status === 'uploading') throw badRequest('The document has not finished uploading');
    return current.deleted === true ? undefined : { ...current, status: 'queued', updatedAt: now };
  });
  if (!changed?.written) throw notFound();
  const queued = changed.after;
  await sendToQueue('capture', [{ companyId: ctx.caller.companyId, captureId: capture._id }]);
  return { status: 202, body: queued };
});

/** PUT /invoice-capture/{id}/start-validation: validates the capture's invoices again. */
const startValidation = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const capture = await captureOf(ctx);
  const ids = Array.isArray(capture.invoiceIds) ? capture.invoiceIds.map(String) : [];
  const live: string[] = [];
  for (const id of ids) {
    const invoice = await getInvoice(ctx.caller.companyId, id);
    if (invoice && invoice.deleted !== true && invoice.status !== 'error' && invoice.status !== 'uploading')
      live.push(id);
  }
  if (live.length === 0) throw badRequest('The document has no captured invoice to validate');
  await sendToQueue(
    'validation',
    live.map((invoiceId) => ({ companyId: ctx.caller.companyId, invoiceId })),
  );
  await publishToCompany(
    ctx.caller.companyId,
    { type: 'invoice.validating', keys: ['/invoice-validation'] },
    ctx.log,
  ).catch(() => undefined);
  return { status: 202, body: { ...capture, validating: live } };
});

export const INVOICE_UPLOAD_OPERATIONS: Operations = {
  'invoices.upload': upload,
  'invoiceCapture.upload': upload,
  'invoices.manualUpload': manualUpload,
  'invoiceCapture.download': download,
  'invoiceCapture.startCapture': startCapture,
  'invoiceCapture.startValidation': startValidation,
};
