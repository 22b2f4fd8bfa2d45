import { createHash } from 'node:crypto';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { CAPTURE_CONTENT_TYPES, detectCaptureFileType, safeFileName } from '../../shared/files/file-type.ts';
import { EMAIL_CAPTURE_OFF } from '../../shared/schemas/staff-admin-values.ts';
import { COMPANY_ADMINS } from '../../shared/system/permission-sets.ts';
import { companyIdForCaptureAddress, getCompany } from '../company/index.ts';
import { memberCaller } from '../core/access/caller-service.ts';
import { listMemberships } from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import { getObjectBytes, putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { getItem, putItem } from '../core/data/item-repository.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import { captureLimits, featureOn } from '../staff-tools/index.ts';
import { captureKey } from './invoice-records.ts';
import { claimNewSender, emailsRef, putNotifications } from './invoice-repository.ts';
import { registerUpload } from './upload-registration.ts';

export interface IntakeResult {
  emailId: string;
  status: 'accepted' | 'refused' | 'duplicate';
  companyId?: string;
  reason?: string;
  stored: string[];
}

/** The stored mail and whom SES received it for: the SMTP envelope's recipients, not its headers. */
export interface ReceivedMail {
  bucket: string;
  key: string;
  recipients: readonly string[];
  /** The envelope's sender (MAIL FROM), kept in the log beside the From header. */
  envelopeFrom?: string;
  /** SES's DMARC verdict on the From header's domain, when it gave one. */
  dmarcVerdict?: string;
}

/**
 * Documents taken from one e-mail. A supplier's monthly run seldom holds more than a dozen bills, while
 * each document stored starts a capture (Textract pages, a worker invocation) and an invoice a person has
 * to look at: 20 takes any real batch and stops one mail from filling a company's queue with hundreds.
 */
export const MAX_ATTACHMENTS_PER_EMAIL = 20;

/** The attachments of one e-mail form one batch, so the upload page can follow them together. */
const emailBatch = (receivedAt: Date, emailId: string) =>
  receivedAt.getTime().toString(16).padStart(12, '0').slice(-12) + emailId.slice(0, 12);

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => v.address ?? '')).filter((a) => a.length > 0);
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

/** Whether a company's list of accepted senders (addresses, or `@domain`) takes this address. */
export function senderAccepted(list: readonly string[], address: string): boolean {
  const from = address.toLowerCase();
  const domain = from.slice(from.lastIndexOf('@'));
  return list.some((entry) => {
    const e = entry.toLowerCase();
    return e.startsWith('@') ? e === domain : e === from;
  });
}

/**
 * One received e-mail: find the companies by the capture addresses among the envelope's recipients (what
 * SES received it for; the To and Cc headers are whatever the sender wrote, and a blind copy is in
 * neither), and for each, unless its list of accepted senders is on and leaves this sender out, store
 * each PDF or image attachment, up to MAX_ATTACHMENTS_PER_EMAIL, as an invoice upload, and log the
 * e-mail. Mail to an unknown address, from a sender the company does not accept or without a usable
 * attachment is logged as refused with the reason (in the company's log when the company is known,
 * otherwise in the staff log), so nothing is dropped silently; no reply goes out, since the From of
 * unwanted mail is often forged and replies would land on someone else. The e-mail id comes from the
 * stored object's key, so a repeated event is recognised and does nothing.
 */
export async function processInboundEmail(received: ReceivedMail, log: Logger): Promise<IntakeResult[]> {
  const { bucket, key } = received;
  const recipients = [...new Set(received.recipients.map((r) => r.trim().toLowerCase()))].filter(Boolean);
  const companyIds: string[] = [];
  for (const r of recipients) {
    const companyId = await companyIdForCaptureAddress(r);
    if (companyId && !companyIds.includes(companyId)) companyIds.push(companyId);
  }
  const raw = await getObjectBytes(bucket, key);
  const mail = await simpleParser(Buffer.from(raw));
  if (companyIds.length === 0) {
    return [await intakeFor(undefined, hash(`${bucket}/${key}`), mail, received, recipients, log)];
  }
  const results: IntakeResult[] = [];
  for (const companyId of companyIds) {
    // Each company addressed gets its own copy, and its own id when there are several.
    const emailId =
      companyIds.length === 1 ? hash(`${bucket}/${key}`) : hash(`${bucket}/${key}#${companyId}`);
    results.push(await intakeFor(companyId, emailId, mail, received, recipients, log));
  }
  return results;
}

interface StoredAttachment {
  _id: string;
  captureId: string;
  fileName: string;
  key: string;
  contentType: string;
  size: number;
}

async function intakeFor(
  companyId: string | undefined,
  emailId: string,
  mail: ParsedMail,
  received: ReceivedMail,
  recipients: readonly string[],
  log: Logger,
): Promise<IntakeResult> {
  const ref = emailsRef(companyId);
  if (await getItem(ref.pk, emailId)) return { emailId, status: 'duplicate', companyId, stored: [] };
  const receivedAt = mail.date ?? new Date();
  const from = (addresses(mail.from)[0] ?? 'unknown').toLowerCase();

  const stored: StoredAttachment[] = [];
  const skipped: string[] = [];
  let refusal: string | undefined;
  const settings = companyId ? (await getCompany(companyId))?.settings : undefined;
  const captureOn = companyId ? await featureOn('email-capture') : true;
  if (!companyId) {
    refusal = `No company uses the capture address ${recipients.join(', ') || '(none)'}`;
  } else if (!captureOn) {
    refusal = EMAIL_CAPTURE_OFF;
  } else if (
    settings?.invoiceCaptureSendersOnly === true &&
    !senderAccepted(settings.invoiceCaptureSenders ?? [], from)
  ) {
    refusal = `The sender ${from} is not on the company's list of accepted senders`;
  } else if (settings?.invoiceCaptureSendersOnly === true && received.dmarcVerdict === 'FAIL') {
    // A listed From is only worth trusting when its domain does not disown the mail.
    refusal = `The sender ${from} failed DMARC: the address may be forged`;
  } else {
    await storeAttachments(companyId, emailId, mail, receivedAt, stored, skipped);
  }

  const reason =
    refusal ??
    (stored.length === 0
      ? `No PDF or image attachment${skipped.length ? ` (${skipped.join('; ')})` : ''}`
      : skipped.length
        ? `Some attachments were not stored: ${skipped.join('; ')}`
        : undefined);
  const status = stored.length > 0 ? 'accepted' : 'refused';
  const now = new Date().toISOString();
  await putItem(ref, {
    _id: emailId,
    ...(companyId ? { companyId } : {}),
    from,
    ...(received.envelopeFrom !== undefined ? { envelopeFrom: received.envelopeFrom } : {}),
    to: recipients,
    headerTo: [...addresses(mail.to), ...addresses(mail.cc)],
    subject: mail.subject ?? '',
    messageId: mail.messageId,
    receivedAt: receivedAt.toISOString(),
    status,
    ...(reason ? { reason } : {}),
    rawKey: received.key,
    attachments: stored,
    createdAt: now,
    updatedAt: now,
  });
  const level = refusal && companyId ? 'warn' : 'info';
  log[level]('email processed', { emailId, status, companyId, from, attachments: stored.length, reason });
  if (companyId && captureOn && settings?.invoiceCaptureSendersOnly !== true && from !== 'unknown') {
    await warnOfNewSender(companyId, from, status, log);
  }
  return { emailId, status, companyId, reason, stored: stored.map((s) => s.key) };
}

async function storeAttachments(
  companyId: string,
  emailId: string,
  mail: ParsedMail,
  receivedAt: Date,
  stored: StoredAttachment[],
  skipped: string[],
): Promise<void> {
  let index = 0;
  let overLimit = 0;
  const limits = await captureLimits();
  for (const attachment of mail.attachments) {
    index++;
    const name = attachment.filename ?? `attachment-${index}`;
    const type = detectCaptureFileType(attachment.content);
    if (!type) {
      skipped.push(`${name}: not a PDF or image`);
      continue;
    }
    if (attachment.content.byteLength > limits.maxFileBytes) {
      skipped.push(`${name}: larger than ${limits.maxFileMb} MB`);
      continue;
    }
    if (stored.length >= MAX_ATTACHMENTS_PER_EMAIL) {
      overLimit++;
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
  if (overLimit > 0) {
    skipped.push(
      `${overLimit} more document${overLimit === 1 ? '' : 's'}: an e-mail may carry at most ` +
        `${MAX_ATTACHMENTS_PER_EMAIL}; send the others in another e-mail`,
    );
  }
}

/**
 * The first mail from an address tells the company's administrators, so a stranger's mail (a forged
 * supplier, a wrong address) is noticed; the list of accepted senders, when on, refuses it instead.
 */
async function warnOfNewSender(companyId: string, from: string, status: string, log: Logger): Promise<void> {
  if (!(await claimNewSender(companyId, from))) return;
  const [memberships, roles] = await Promise.all([listMemberships(companyId), listRoles(companyId)]);
  const admins = memberships
    .filter((m) => m.deleted !== true)
    .map((m) => memberCaller(companyId, m._id, m, roles))
    .filter((c) => canUseRoute(COMPANY_ADMINS, c));
  const now = new Date().toISOString();
  const content =
    `Invoice e-mail from a new sender, ${from}, was ${status}. If you do not expect bills from this ` +
    'address, check its documents and consider turning on the list of accepted senders.';
  await putNotifications(
    companyId,
    admins.map((a) => ({
      _id: newId(),
      companyId,
      userSub: a.sub,
      content,
      route: '/admin/emails',
      icon: 'alert-triangle',
      isSeen: false,
      kind: 'email-new-sender',
      createdAt: now,
      updatedAt: now,
      createdBy: 'system',
    })),
  );
  log.warn('email from a new sender', { companyId, from, admins: admins.length });
}
