import * as z from 'zod';
import { READING_MESSAGES, READING_PHOTO_TYPES } from './account-messages.ts';
import { builtOnce } from './built-once.ts';
import { requiredText } from './contract.ts';
import { idField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';
import { readingObject } from './reading.ts';
import { declaredSize, UPLOAD_LIMITS } from './upload-size.ts';

export { READING_MESSAGES, READING_PHOTO_TYPES };

/** POST /readings/photo: asks for a presigned PUT for a reading's photo. */
export const readingPhotoSchema = onFirstUse(() =>
  z.object({
    accountId: idField(),
    fileName: requiredText().max(200),
    contentType: z.enum(READING_PHOTO_TYPES, { error: READING_MESSAGES.photoType }),
    size: declaredSize(UPLOAD_LIMITS.image),
  }),
);

/** POST /readings/submit: a reading with, optionally, the photo uploaded for it. */
export const readingSubmitSchema = onFirstUse(() =>
  readingObject().extend({
    photoKey: z.string().max(500).optional(),
  }),
);

/**
 * PUT /readings/{id}/edit-submission: the fields a reading's owner may change, applied as a patch
 * (functions/core/lib/item-patch.ts): any may be left out, and an optional one sent as null is cleared
 * (`photoKey: null` removes the photo).
 */
export const readingEditObject = builtOnce(() =>
  readingObject()
    .pick({ date: true, value: true, isEstimate: true, comment: true })
    .extend({ photoKey: z.string().max(500).optional() }),
);

export interface ReadingView {
  _id: string;
  accountId: string;
  date: string;
  value: number;
  unit?: string;
  isEstimate: boolean;
  comment?: string;
  hasPhoto?: boolean;
  photoName?: string;
  createdAt: string;
  createdBy?: string;
}
