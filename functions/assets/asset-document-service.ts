import type * as z from 'zod';
import {
  documentPatchSchema,
  documentRegisterSchema,
  documentUploadSchema,
  safeFileName,
  type UploadTicket,
} from '../../shared/schemas/asset-documents.ts';
import { ASSET_MESSAGES } from '../../shared/schemas/asset-messages.ts';
import { assetDocumentsQuery } from '../../shared/schemas/queries.ts';
import { tooLargeMessage, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { getCompany } from '../company/index.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { headObject } from '../core/adapters/asset-storage.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { getItem, listItems, putItem, type StoredItem } from '../core/data/item-repository.ts';
import { ApiError, formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { childRef } from '../core/resources/resource-refs.ts';
import { loadAsset } from './asset-records.ts';

const DOWNLOAD_SECONDS = 900;

/** The company's document categories (company settings); with none set, any category is accepted. */
export async function checkCategory(companyId: string, category: string | undefined): Promise<void> {
  if (!category) return;
  const settings = objectOf((await getCompany(companyId))?.settings);
  const categories = Array.isArray(settings.documentCategories) ? settings.documentCategories : [];
  if (categories.length > 0 && !categories.includes(category))
    throw formError({ category: ASSET_MESSAGES.unknownCategory });
}

/** A signed PUT for a new file under `prefix`, in a folder named by the new document's id. */
export async function uploadTicket(
  prefix: string,
  input: z.output<typeof documentUploadSchema>,
): Promise<UploadTicket & { documentId: string }> {
  const documentId = newId();
  const key = `${prefix}${documentId}/${safeFileName(input.fileName)}`;
  try {
    // A declared size is signed, so storage refuses a body of any other size.
    const uploadUrl = await presignPut(bucketName('documents'), key, input.contentType, {
      size: input.size,
    });
    return { uploadUrl, method: 'PUT', key, contentType: input.contentType, documentId };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(502, 'UPLOAD_URL_FAILED', ASSET_MESSAGES.uploadUrlProblem);
  }
}

/** A short-lived link to a document's file, under both names callers know it by. */
export interface DownloadLink {
  url: string;
  downloadUrl: string;
  fileName: string;
  expiresIn: number;
}

export async function downloadLink(item: StoredItem): Promise<DownloadLink> {
  const key = String(item.key);
  const fileName = typeof item.fileName === 'string' ? item.fileName : (key.split('/').pop() ?? 'file');
  const url = await presignGet(bucketName('documents'), key, DOWNLOAD_SECONDS, fileName);
  return { url, downloadUrl: url, fileName, expiresIn: DOWNLOAD_SECONDS };
}

const documentsRef = (companyId: string, assetId: string) =>
  childRef(companyId, 'assets', assetId, 'documents');
const prefixOf = (assetId: string) => `assets/${assetId}/documents/`;

const list = operation({ params: ['id'], query: assetDocumentsQuery }, async (ctx): Promise<OpResult> => {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const { category } = ctx.query;
  const found = await listItems(documentsRef(ctx.caller.companyId, asset._id), {
    filters: category ? { category } : {},
    limit: 10_000,
    skip: 0,
    descending: true,
  });
  return { body: { data: found.data, total: found.total, limit: found.total, skip: 0 } };
});

/** POST /assets/{id}/documents/upload: where to PUT the file; POST /assets/{id}/documents keeps it. */
const upload = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const input = parseOrThrow(documentUploadSchema, ctx.body ?? {});
  await checkCategory(ctx.caller.companyId, input.category);
  return { body: await uploadTicket(prefixOf(asset._id), input) };
});

const register = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const input = parseOrThrow(documentRegisterSchema, ctx.body ?? {});
  // Only a key this site's upload call handed out: `assets/{id}/documents/{documentId}/{file}`.
  const match = new RegExp(`^${prefixOf(asset._id)}([0-9a-f]{24})/[^/]+$`).exec(input.key);
  if (!match?.[1]) throw formError({ key: ASSET_MESSAGES.fileMissing });
  await checkCategory(ctx.caller.companyId, input.category);
  const ref = documentsRef(ctx.caller.companyId, asset._id);
  const existing = await getItem(ref.pk, match[1]);
  if (existing && existing.deleted !== true) return { body: existing };
  const stored = await headObject(bucketName('documents'), input.key);
  if (!stored) throw formError({ file: ASSET_MESSAGES.fileMissing });
  // The URL took only the declared size; a file put there some other way is held to the limit here.
  if (stored.size > UPLOAD_LIMITS.document)
    throw formError({ file: tooLargeMessage(UPLOAD_LIMITS.document) });
  const now = new Date().toISOString();
  const item: StoredItem = {
    ...input,
    _id: match[1],
    companyId: ctx.caller.companyId,
    assetId: asset._id,
    size: stored.size,
    contentType: stored.contentType,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await putItem(ref, item);
  await writeActivity(ctx.caller, {
    type: 'create',
    model: 'asset-documents',
    modelId: item._id,
    message: `${input.name} added to ${String(asset.siteName)}`,
  });
  return { status: 201, body: item };
});

async function loadDocument(ctx: WithParams<'id' | 'documentId'>) {
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const ref = documentsRef(ctx.caller.companyId, asset._id);
  const doc = await getItem(ref.pk, ctx.params.documentId);
  if (!doc || doc.deleted === true) throw notFound();
  return { ref, doc };
}

const update = operation({ params: ['id', 'documentId'] }, async (ctx): Promise<OpResult> => {
  const { ref, doc } = await loadDocument(ctx);
  const patch = parseOrThrow(documentPatchSchema, ctx.body ?? {});
  await checkCategory(ctx.caller.companyId, patch.category);
  // Applied to the document as stored when written, so a concurrent change of another field stays.
  const changed = await changeItem(ref, doc._id, (current) => {
    if (current.deleted === true) throw notFound();
    return { ...current, ...patch, updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  return { body: changed.after };
});

/** Soft deletion, as everywhere a restore may follow; the file stays until the item is purged. */
const remove = operation({ params: ['id', 'documentId'] }, async (ctx): Promise<OpResult> => {
  const { ref, doc } = await loadDocument(ctx);
  const changed = await changeItem(ref, doc._id, (current) => ({
    ...current,
    deleted: true,
    deletedAt: new Date().toISOString(),
    deletedBy: ctx.caller.sub,
  }));
  if (!changed) throw notFound();
  const next = changed.after;
  await writeActivity(ctx.caller, { type: 'delete', model: 'asset-documents', modelId: doc._id });
  return { body: next };
});

const download = operation({ params: ['id', 'documentId'] }, async (ctx): Promise<OpResult> => {
  const { doc } = await loadDocument(ctx);
  return { body: await downloadLink(doc) };
});

export const ASSET_DOCUMENT_OPERATIONS: Operations = {
  'assets.documents.list': list,
  'assets.documents.upload': upload,
  'assets.documents.register': register,
  'assets.documents.update': update,
  'assets.documents.delete': remove,
  'assets.documents.download': download,
};
