import * as z from 'zod/mini';
import { onFirstUse } from './on-first-use.ts';

/**
 * Small query strings of single calls, each built on the first call that reads it. Their values are
 * kept as text: the operations check them against what they know (a site, a size limit) and answer
 * with every problem at once.
 */

const text = () => z.optional(z.string());

/** GET /accounts/{id}: the further fields to add (`$select`, comma-separated; `processingInvoices`). */
export const accountGetQuery = onFirstUse(() => z.object({ $select: text() }));

/** GET /assets/image-upload-url: the picture's type and size, and the site it is for. */
export const imageUploadUrlQuery = onFirstUse(() =>
  z.object({ fileType: text(), assetId: text(), size: text() }),
);
