import * as z from 'zod/mini';

const MB = 1024 * 1024;

/**
 * The largest file each presigned upload takes. The size a caller declares is signed into the upload
 * URL, so storage refuses a body of any other size: the limit checked here is the limit stored.
 */
export const UPLOAD_LIMITS = {
  /** Pictures are decoded whole (thumbnails, reports), so they stay small. */
  image: 20 * MB,
  /** A logo is a header and report cover mark; the pixel ceiling is checked from its header. */
  logo: 5 * MB,
  contractPdf: 50 * MB,
  /** A template's sample goes to the text reader, which takes documents up to this size. */
  templateSample: 20 * MB,
  /** Site and project documents are only stored and handed back, never read. */
  document: 100 * MB,
  /** A file dropped into an automation's folder goes to capture or the imports worker, which read it whole. */
  automationFile: 20 * MB,
} as const;

export const tooLargeMessage = (maxBytes: number) => `Must be ${Math.round(maxBytes / MB)} MB or smaller`;

/**
 * The size in bytes an upload declares when it asks for its URL: required, and at most `maxBytes`. In zod's
 * small build, as functions read this module at start; it fits in a body schema of either build.
 */
export const declaredSize = (maxBytes: number) =>
  z
    .number()
    .check(
      z.int('Must be a whole number of bytes'),
      z.positive('The file is empty'),
      z.maximum(maxBytes, tooLargeMessage(maxBytes)),
    );

/** A declared size given in a query string (`?size=`): missing stays missing, text is not a number. */
export const declaredSizeParam = (raw: string | undefined): number | undefined =>
  raw === undefined || raw.trim() === '' ? undefined : Number(raw);
