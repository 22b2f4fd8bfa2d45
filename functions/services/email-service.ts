import { presignGet } from '../adapters/s3.ts';
import { bucketName } from '../config.ts';
import { notFound } from '../lib/errors.ts';
import type { OpContext, Operations, OpResult } from '../middleware/api-context.ts';
import { getItem } from '../repositories/item-repository.ts';
import { keys } from '../repositories/keys.ts';

/** GET /emails/{id}/attachments/{attachmentId}/download: an attachment as the capture inbox stored it. */
const emailAttachmentDownload = async (ctx: OpContext): Promise<OpResult> => {
  // Mail to no known company is logged where only staff see it.
  const email =
    (await getItem(
      keys.collection({ companyId: ctx.caller.companyId }, 'emails'),
      ctx.params.id as string,
    )) ??
    (ctx.caller.isAdmin ? await getItem(keys.collection({}, 'emails'), ctx.params.id as string) : undefined);
  if (!email) throw notFound('E-mail not found');
  const attachments = Array.isArray(email.attachments)
    ? (email.attachments as Record<string, unknown>[])
    : [];
  const attachment = attachments.find((a) => a._id === ctx.params.attachmentId);
  if (!attachment || typeof attachment.key !== 'string') throw notFound('Attachment not found');
  const name = String(attachment.fileName ?? 'attachment');
  const url = await presignGet(bucketName('uploads'), attachment.key, 900, name);
  return { body: { url, name } };
};

export const EMAIL_OPERATIONS: Operations = {
  'emails.attachmentDownload': emailAttachmentDownload,
};
