import { createHash } from 'node:crypto';
import { type AddressObject, simpleParser } from 'mailparser';
import { CAPTURE_CONTENT_TYPES, detectCaptureFileType, safeFileName } from '../../shared/files/file-type.ts';
import { companyIdForCaptureAddress } from '../company/index.ts';
import { getObjectBytes, putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { getItem, putItem } from '../core/data/item-repository.ts';
import type { Logger } from '../core/lib/logger.ts';
import { captureKey, MAX_CAPTURE_BYTES } from './invoice-records.ts';
import { emailsRef } from './invoice-repository.ts';
import { registerUpload } from './invoice-upload-service.ts';

export interface IntakeResult {
  emailId: string;
  status: 'accepted' | 'refused' | 'duplicate';
  companyId?: string;
  reason?: string;
  stored: string[];
}

const MAX_ATTACHMENT_BYTES = MAX_CAPTURE_BYTES;

/** The attachments of one e-mail form one batch, so the upload page can follow them together. */
const emailBatch = (receivedAt: Date, emailId: string) =>
  receivedAt.getTime().toString(16).padStart(12, '0').slice(-12) + emailId.slice(0, 12);

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => v.address ?? '')).filter((a) => a.length > 0);
}

/**
 * One received e-mail: find the company by the capture address it was sent to, store each PDF or image
 * attachment as an invoice upload of that company, and log the e-mail. Mail to an unknown address or
 * without a usable attachment is logged as refused (in the company's log when the company is known,
 * otherwise in the staff log), so nothing is dropped silently. The e-mail id comes from the stored
 * object's key, so a repeated event is recognised and does nothing.
 */
export async function processInboundEmail(bucket: string, key: string, log: Logger): Promise<IntakeResult> {
  const emailId = createHash('sha256').update(`${bucket}/${key}`).digest('hex').slice(0, 24);
  const raw = await getObjectBytes(bucket, key);
  const mail = await simpleParser(Buffer.from(raw));
  const receivedAt = mail.date ?? new Date();
  const recipients = [...addresses(mail.to), ...addresses(mail.cc)];
  const from = addresses(mail.from)[0] ?? 'unknown';

  let companyId: string | undefined;
  for (const r of recipients) {
    companyId = await companyIdForCaptureAddress(r);
    if (companyId) break;
  }
  const ref = emailsRef(companyId);
  if (await getItem(ref.pk, emailId)) return { emailId, status: 'duplicate', companyId, stored: [] };

  const stored: {
    _id: string;
    captureId: string;
    fileName: string;
    key: string;
    contentType: string;
    size: number;
  }[] = [];
  const skipped: string[] = [];
  if (companyId) {
    let index = 0;
    for (const attachment of mail.attachments) {
      index++;
      const name = attachment.filename ?? `attachment-${index}`;
      const type = detectCaptureFileType(attachment.content);
      if (!type) {
        skipped.push(`${name}: not a PDF or image`);
        continue;
      }
      if (attachment.content.byteLength > MAX_ATTACHMENT_BYTES) {
        skipped.push(`${name}: larger than 20 MB`);
        continue;
      }
      // Derived from the e-mail, so a retried intake writes the same capture instead of a second one.
      const captureId =
        receivedAt.getTime().toString(16).padStart(12, '0').slice(-12) +
        createHash('sha256').update(`${emailId}#${index}`).digest('hex').slice(0, 12);
      const objectKey = captureKey(companyId, captureId, name);
      await registerUpload(companyId, {
        captureId,
        batchId: emailBatch(receivedAt, emailId),
        fileName: name,
        key: objectKey,
        size: attachment.content.byteLength,
        contentType: CAPTURE_CONTENT_TYPES[type],
        source: 'email',
        emailId,
      });
      await putObject(bucketName('uploads'), objectKey, attachment.content, CAPTURE_CONTENT_TYPES[type], {
        'company-id': companyId,
        source: 'email',
        'email-id': emailId,
        'file-name': safeFileName(name),
      });
      stored.push({
        _id: `${emailId}-${index}`,
        captureId,
        fileName: name,
        key: objectKey,
        contentType: CAPTURE_CONTENT_TYPES[type],
        size: attachment.content.byteLength,
      });
    }
  }

  const reason = !companyId
    ? `No company uses the capture address ${recipients.join(', ') || '(none)'}`
    : stored.length === 0
      ? `No PDF or image attachment${skipped.length ? ` (${skipped.join('; ')})` : ''}`
      : skipped.length
        ? `Some attachments were not stored: ${skipped.join('; ')}`
        : undefined;
  const status = stored.length > 0 ? 'accepted' : 'refused';
  const now = new Date().toISOString();
  await putItem(ref, {
    _id: emailId,
    ...(companyId ? { companyId } : {}),
    from,
    to: recipients,
    subject: mail.subject ?? '',
    messageId: mail.messageId,
    receivedAt: receivedAt.toISOString(),
    status,
    ...(reason ? { reason } : {}),
    rawKey: key,
    attachments: stored,
    createdAt: now,
    updatedAt: now,
  });
  log.info('email processed', { emailId, status, companyId, attachments: stored.length, reason });
  return { emailId, status, companyId, reason, stored: stored.map((s) => s.key) };
}
