import * as z from 'zod';
import { isoDate, nonEmpty } from './common.ts';
import { declaredSize, UPLOAD_LIMITS } from './upload-size.ts';

/** Largest document a site or project takes (it goes straight to storage by a signed URL). */
export const MAX_DOCUMENT_BYTES = UPLOAD_LIMITS.document;
/** Largest picture of a site: pictures are decoded whole to make thumbnails. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** Picture types a thumbnail can be made of, with the extension their stored originals get. */
export const IMAGE_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpg' } as const;
export type ImageContentType = keyof typeof IMAGE_TYPES;

/** `image/png`, `png`, `jpg`, `image/jpeg` ... as the upload-URL call's `fileType` may name them. */
export function imageContentType(fileType: string | undefined): ImageContentType | undefined {
  const t = (fileType ?? '').trim().toLowerCase();
  if (t === 'image/png' || t === 'png' || t === '.png') return 'image/png';
  if (['image/jpeg', 'image/jpg', 'jpeg', 'jpg', '.jpg', '.jpeg'].includes(t)) return 'image/jpeg';
  return undefined;
}

/** A file name that is safe as the last part of an object key and in a download's Content-Disposition. */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-.]+|-+$/g, '');
  return (cleaned || 'file').slice(-100);
}

const contentType = z
  .string()
  .trim()
  .max(100)
  .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Must be a content type such as application/pdf')
  .default('application/octet-stream');

/** POST /assets/{id}/documents/upload and POST /projects/{id}/documents/upload. */
export const documentUploadSchema = z.object({
  fileName: nonEmpty.max(200),
  contentType,
  category: z.string().trim().max(100).optional(),
  size: declaredSize(UPLOAD_LIMITS.document),
  name: z.string().trim().max(200).optional(),
});

/** POST /assets/{id}/documents: the upload is done, keep the document. */
export const documentRegisterSchema = z.object({
  key: nonEmpty.max(500),
  name: nonEmpty.max(200),
  fileName: nonEmpty.max(200),
  category: z.string().trim().max(100).optional(),
  description: z.string().trim().max(2000).optional(),
  expiresOn: isoDate.optional(),
});

/** PATCH /assets/{id}/documents/{documentId}: what a person may change once the file is stored. */
export const documentPatchSchema = z.object({
  name: nonEmpty.max(200).optional(),
  category: z.string().trim().max(100).optional(),
  description: z.string().trim().max(2000).optional(),
  expiresOn: isoDate.optional(),
});

/** The answer of an upload-URL call: PUT the file to `uploadUrl` with `contentType`. */
export interface UploadTicket {
  uploadUrl: string;
  method: 'PUT';
  key: string;
  contentType: string;
  documentId?: string;
  imageId?: string;
}
