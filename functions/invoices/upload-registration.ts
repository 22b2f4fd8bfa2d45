import { createCapture, putInvoice } from './invoice-repository.ts';

/**
 * A document on its way in (an upload, an e-mail attachment, a file an automation fetched), registered by
 * the area that received it. Kept apart from the upload calls, so that the areas that register documents
 * do not load those calls' code.
 */
export interface UploadRegistration {
  captureId: string;
  batchId: string;
  fileName: string;
  key: string;
  size: number;
  contentType: string;
  source: 'upload' | 'email' | 'api';
  userSub?: string;
  accountId?: string;
  emailId?: string;
}

/**
 * Writes the records of a document before its bytes arrive: a capture and the invoice that the browser
 * follows while it uploads. Writing them twice (a retried e-mail) keeps the first.
 */
export async function registerUpload(companyId: string, r: UploadRegistration): Promise<void> {
  const now = new Date().toISOString();
  const common = {
    companyId,
    batchId: r.batchId,
    fileName: r.fileName,
    key: r.key,
    source: r.source,
    ...(r.userSub ? { userSub: r.userSub } : {}),
    ...(r.emailId ? { emailId: r.emailId } : {}),
    createdAt: now,
    updatedAt: now,
  };
  const created = await createCapture(companyId, {
    _id: r.captureId,
    ...common,
    size: r.size,
    contentType: r.contentType,
    status: 'uploading',
    invoiceIds: [r.captureId],
  });
  if (!created) return;
  await putInvoice(companyId, {
    _id: r.captureId,
    captureId: r.captureId,
    ...common,
    ...(r.accountId ? { accountId: r.accountId } : {}),
    status: 'uploading',
    completed: false,
    isCreditNote: false,
    values: {},
    rates: [],
  });
}
