import type * as z from 'zod';
import { detectCaptureFileType } from '../../shared/files/file-type.ts';
import { READING_MESSAGES } from '../../shared/schemas/account-messages.ts';
import type { ReadingView } from '../../shared/schemas/account-readings.ts';
import type { readingSchema } from '../../shared/schemas/reading.ts';
import { tooLargeMessage, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { storedUpload } from '../core/adapters/object-start.ts';
import { bucketName } from '../core/config.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';
import { formError } from '../core/lib/errors.ts';

/** Reading photos live in the documents bucket under their company and account. */
export const readingPhotoPrefix = (companyId: string, accountId: string) =>
  `readings/${companyId}/${accountId}/`;

const shownDate = (iso: string) => iso.split('-').reverse().join('/');
const shownValue = (n: number) => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 3 }).format(n);

/**
 * A meter's register only counts up: a reading must not be lower than the one before it or higher than
 * the one after it, and it cannot be taken in the future.
 */
export function readingFieldErrors(
  reading: { date: string; value: number },
  others: readonly StoredItem[],
  today = new Date().toISOString().slice(0, 10),
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (reading.date > today) errors.date = READING_MESSAGES.future;
  const dated = others.flatMap((r) =>
    r.deleted !== true && typeof r.date === 'string' && typeof r.value === 'number'
      ? [{ date: r.date, value: r.value }]
      : [],
  );
  const before = dated.filter((r) => r.date <= reading.date).sort((a, b) => b.date.localeCompare(a.date))[0];
  const after = dated.filter((r) => r.date > reading.date).sort((a, b) => a.date.localeCompare(b.date))[0];
  if (before && reading.value < before.value)
    errors.value = `Must not be lower than the previous reading (${shownValue(before.value)} on ${shownDate(before.date)})`;
  else if (after && reading.value > after.value)
    errors.value = `Must not be higher than the next reading (${shownValue(after.value)} on ${shownDate(after.date)})`;
  return errors;
}

/** Checks an uploaded photo by its bytes: this account's own upload, a JPEG or PNG image, within the limit. */
export async function verifyReadingPhoto(companyId: string, accountId: string, key: string) {
  if (!key.startsWith(readingPhotoPrefix(companyId, accountId)))
    throw formError({ photo: READING_MESSAGES.photoMissing });
  const stored = await storedUpload(bucketName('documents'), key, 16);
  if (!stored) throw formError({ photo: READING_MESSAGES.photoMissing });
  if (stored.size > UPLOAD_LIMITS.image) throw formError({ photo: tooLargeMessage(UPLOAD_LIMITS.image) });
  const kind = detectCaptureFileType(stored.start);
  if (kind !== 'jpeg' && kind !== 'png') throw formError({ photo: READING_MESSAGES.photoType });
  return { key, name: key.slice(key.lastIndexOf('/') + 1), uploadedAt: new Date().toISOString() };
}

/** A reading as stored: written through the reading schema (by the API or an import), with its photo. */
export type StoredReading = Stored<
  z.input<typeof readingSchema> & { photo?: { key?: string; name?: string; uploadedAt?: string } }
>;

/**
 * A reading as callers see it: whether it has a photo, never the photo's storage key. Every stored field is
 * answered as stored; the schema's default stands in for an `isEstimate` a reading written before it lacks.
 */
export function readingView(item: StoredItem): ReadingView {
  const { photo, ...rest } = storedRecord<StoredReading>('reading', item, []);
  return {
    ...rest,
    isEstimate: rest.isEstimate ?? false,
    createdAt: rest.createdAt ?? '',
    hasPhoto: photo !== undefined,
    ...(photo?.name ? { photoName: photo.name } : {}),
  };
}
