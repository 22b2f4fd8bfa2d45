import type { INVOICE_STATUSES } from '../../../shared/schemas/invoice.ts';
import type { InvoiceError, PolledInvoice } from '../../../shared/schemas/responses/invoices.ts';

/**
 * The invoice upload list (02 §4): each file goes uploading → uploaded (the store has the bytes) → queued →
 * pending → processing and ends as captured, error or manual, after which it leaves polling. Uploaded is
 * the browser's own step, between its PUT succeeding and the server saying more; the others are the
 * invoice's statuses. Pure, so the rules can be tested alone.
 */
export type UploadStatus = (typeof INVOICE_STATUSES)[number] | 'uploaded';

/** The capture's own failure type: such an invoice still goes to validation, others are listed apart. */
export const CAPTURE_ERROR_TYPE = 'capture';
/** A failure in the browser (the upload call or the PUT) before the server had the file. */
export const UPLOAD_ERROR_TYPE = 'upload';

export type { InvoiceError, PolledInvoice } from '../../../shared/schemas/responses/invoices.ts';

export interface UploadEntry {
  /** Local key: the file's place in this page's list, or the invoice id of a further invoice found. */
  key: string;
  fileName: string;
  size?: number;
  /** 0 to 100; a further invoice of a document starts at 100. */
  progress: number;
  status: UploadStatus;
  /** The invoice the upload call created (its id is also the capture's). */
  invoiceId?: string;
  error?: InvoiceError;
  invoiceNumber?: string;
  invoiceValidationId?: string;
  /** The bill checks' outcome; absent (or pending) until validation has run. */
  validationStatus?: string;
  /** For an invoice split from a document: the entry of the document's upload. */
  parentKey?: string;
}

const SETTLED: ReadonlySet<string> = new Set(['captured', 'error', 'manual', 'completed']);
const KNOWN: ReadonlySet<string> = new Set([
  'uploading',
  'queued',
  'pending',
  'processing',
  'captured',
  'error',
  'manual',
  'completed',
]);

/** Captured, error, manual (or already confirmed): the end of capture, and of polling. */
export const isSettled = (status: string) => SETTLED.has(status);

/** Whether the next poll looks at this entry: uploaded, and not yet settled. */
export const isPolled = (e: UploadEntry) =>
  e.invoiceId !== undefined && e.progress >= 100 && !isSettled(e.status) && e.status !== 'uploading';

/**
 * Capture ending is not the end of the story: the bill checks run next, and what a person wants to know
 * is whether it passed. A bill sent to validation is watched until its outcome is known.
 */
export const awaitsValidation = (e: UploadEntry) =>
  e.invoiceId !== undefined &&
  isForValidation(e) &&
  (e.validationStatus === undefined || e.validationStatus === 'pending');

export const isWatched = (e: UploadEntry) => isPolled(e) || awaitsValidation(e);

export const needsPolling = (entries: readonly UploadEntry[]) => entries.some(isWatched);

/** Where each status stands on the way; settled ones share the end. */
const STEP: Readonly<Record<string, number>> = {
  uploading: 0,
  uploaded: 1,
  queued: 2,
  pending: 3,
  processing: 4,
};
const stepOf = (status: string) => STEP[status] ?? 5;

/**
 * The status of an uploaded file from its server record. A missing record counts as queued; so does a
 * record still saying uploading once the browser has finished sending (the store has the bytes, capture
 * has not begun).
 */
export function statusFromServer(record: PolledInvoice | undefined): UploadStatus {
  if (!record || record.status === 'uploading' || !KNOWN.has(record.status)) return 'queued';
  return record.status as UploadStatus;
}

/**
 * The status an entry moves to on a poll: the server's, never one behind what the entry already shows
 * (an answer cached from before the live connection's word must not move it back). A file the browser
 * has just sent stays uploaded while its record still says uploading (the store's event has not reached
 * capture yet); a missing record counts as queued, as the spec has it.
 */
function nextStatus(current: UploadStatus, record: PolledInvoice | undefined): UploadStatus {
  const reported = statusFromServer(record);
  const heard = record === undefined || (record.status !== 'uploading' && KNOWN.has(record.status));
  if (current === 'uploaded' && !heard) return 'uploaded';
  return stepOf(reported) < stepOf(current) ? current : reported;
}

export function newEntries(files: readonly { name: string; size: number }[], start = 0): UploadEntry[] {
  return files.map((f, i) => ({
    key: `file-${start + i}`,
    fileName: f.name,
    size: f.size,
    progress: 0,
    status: 'uploading',
  }));
}

const update = (entries: readonly UploadEntry[], key: string, change: Partial<UploadEntry>) =>
  entries.map((e) => (e.key === key ? { ...e, ...change } : e));

/** The upload call answered: the invoice exists, the bytes are on their way. */
export const withInvoiceId = (entries: readonly UploadEntry[], key: string, invoiceId: string) =>
  update(entries, key, { invoiceId });

export function withProgress(entries: readonly UploadEntry[], key: string, percent: number): UploadEntry[] {
  const progress = Math.max(0, Math.min(100, Math.round(percent)));
  // All bytes sent is not yet the store's answer: the file is uploaded once the PUT has succeeded.
  return update(entries, key, { progress });
}

/**
 * The PUT to the store succeeded: the file is uploaded, and stays so until the server reports it queued.
 * An entry already further (a poll came first) keeps its status.
 */
export const withUploaded = (entries: readonly UploadEntry[], key: string) =>
  entries.map((e) =>
    e.key === key
      ? { ...e, progress: 100, status: stepOf(e.status) > stepOf('uploaded') ? e.status : 'uploaded' }
      : e,
  );

export const withUploadError = (entries: readonly UploadEntry[], key: string, message: string) =>
  update(entries, key, { status: 'error', error: { type: UPLOAD_ERROR_TYPE, message } });

/**
 * Applies a poll of the batch. Entries still polled take their record's status; settled entries are left
 * as they ended. Further invoices a settled document turned out to hold (their sisterId is the
 * document's invoice) join the list after it.
 */
export function applyPoll(
  entries: readonly UploadEntry[],
  invoices: readonly PolledInvoice[],
): UploadEntry[] {
  const byId = new Map(invoices.map((i) => [i._id, i]));
  const known = new Set(entries.flatMap((e) => (e.invoiceId ? [e.invoiceId] : [])));
  const out: UploadEntry[] = [];
  for (const entry of entries) {
    let current = entry;
    const outcome = entry.invoiceId ? byId.get(entry.invoiceId)?.validationStatus : undefined;
    if (outcome && awaitsValidation(entry)) current = { ...entry, validationStatus: outcome };
    if (isPolled(entry)) {
      const record = byId.get(entry.invoiceId as string);
      current = {
        ...entry,
        status: nextStatus(entry.status, record),
        ...(record?.error ? { error: record.error } : {}),
        ...(record?.invoiceNumber ? { invoiceNumber: record.invoiceNumber } : {}),
        ...(record?.invoiceValidationId ? { invoiceValidationId: record.invoiceValidationId } : {}),
        ...(record?.validationStatus ? { validationStatus: record.validationStatus } : {}),
      };
    }
    out.push(current);
    if (current.parentKey || !current.invoiceId || !isSettled(current.status)) continue;
    for (const sister of invoices) {
      if (sister.sisterId !== current.invoiceId || known.has(sister._id)) continue;
      known.add(sister._id);
      out.push({
        key: sister._id,
        fileName: sister.fileName ?? current.fileName,
        progress: 100,
        status: statusFromServer(sister),
        invoiceId: sister._id,
        parentKey: current.key,
        ...(sister.error ? { error: sister.error } : {}),
        ...(sister.invoiceNumber ? { invoiceNumber: sister.invoiceNumber } : {}),
        ...(sister.invoiceValidationId ? { invoiceValidationId: sister.invoiceValidationId } : {}),
        ...(sister.validationStatus ? { validationStatus: sister.validationStatus } : {}),
      });
    }
  }
  return out;
}

/** An error that is not the capture's own (a duplicate, a failed upload): listed apart for a person to act on. */
export const isErrored = (e: UploadEntry) => e.status === 'error' && e.error?.type !== CAPTURE_ERROR_TYPE;

/**
 * Each captured, error or manual result is a new invoice in the validation queues; a file that never
 * reached the store (its upload failed in the browser) is not.
 */
export const isForValidation = (e: UploadEntry) => isSettled(e.status) && e.error?.type !== UPLOAD_ERROR_TYPE;

export interface UploadSummary {
  forValidation: UploadEntry[];
  /** Sent to validation, outcome not known yet. */
  validating: UploadEntry[];
  /** Errors other than the capture's; a duplicate is also among those for validation. */
  errored: UploadEntry[];
  /** Entries still uploading or waiting for capture. */
  inProgress: UploadEntry[];
}

export function summarise(entries: readonly UploadEntry[]): UploadSummary {
  return {
    forValidation: entries.filter(isForValidation),
    validating: entries.filter(awaitsValidation),
    errored: entries.filter(isErrored),
    inProgress: entries.filter((e) => !isSettled(e.status)),
  };
}

/** The id the validation page of an entry is under: its validation item's, which is the invoice's. */
export const validationIdOf = (e: UploadEntry) => e.invoiceValidationId ?? e.invoiceId;

/** Documents over 20 MB are refused (the API and the capture worker refuse them too). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

const TYPE_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};
const ACCEPTED_TYPES = new Set(Object.values(TYPE_BY_EXTENSION));

/**
 * The content type to sign the upload for: the browser's when it is one capture takes, else one read
 * from the name (browsers give none, or an odd one such as application/x-pdf, for some files).
 */
export function captureContentType(file: { name: string; type: string }): string {
  if (ACCEPTED_TYPES.has(file.type)) return file.type;
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return TYPE_BY_EXTENSION[ext] ?? (file.type || 'application/octet-stream');
}

/** Why a file cannot be sent at all, said before anything is sent; undefined when it may go. */
export function refusalOf(file: { name: string; type: string; size: number }): string | undefined {
  if (file.size === 0) return 'The file is empty';
  if (file.size > MAX_UPLOAD_BYTES) return 'The file is larger than 20 MB';
  if (!ACCEPTED_TYPES.has(captureContentType(file)))
    return 'Only PDF documents and PNG, JPEG or TIFF images can be captured';
  return undefined;
}

/** The `accept` of the file picker. */
export const ACCEPT = '.pdf,.png,.jpg,.jpeg,.tif,.tiff,application/pdf,image/png,image/jpeg,image/tiff';
