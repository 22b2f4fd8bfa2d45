import { presignGet } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { type CollectionRef, getItem, listItems } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { badRequest, forbidden, notFound } from '../core/lib/errors.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { declaredResource } from '../core/resources/resource-refs.ts';
import { collectionOf, listQueryOf } from '../core/resources/resource-service.ts';

/**
 * GET /emails: the company's capture inbox log, newest first. `unmatched=true` lists instead the mail
 * that reached no company (an unknown capture address), which is logged where only staff see it.
 */
const listEmails = async (ctx: OpContext): Promise<OpResult> => {
  const { unmatched, ...query } = ctx.query;
  if (unmatched !== undefined && unmatched !== 'true' && unmatched !== 'false')
    throw badRequest('unmatched must be true or false');
  const resource = declaredResource('emails');
  let ref: CollectionRef = collectionOf(resource, ctx.caller);
  if (unmatched === 'true') {
    if (!ctx.caller.isAdmin) throw forbidden('Only staff can see e-mail that reached no company');
    ref = { ...ref, pk: keys.collection({}, 'emails') };
  }
  const q = listQueryOf(resource, query);
  const { data, total } = await listItems(ref, {
    ...q,
    descending: query.$sort === undefined || query.$sort === '-createdAt',
  });
  return { body: { data, total, limit: q.limit, skip: q.skip } };
};

/** GET /emails/{id}/attachments/{attachmentId}/download: an attachment as the capture inbox stored it. */
const emailAttachmentDownload = operation(
  { params: ['id', 'attachmentId'] },
  async (ctx): Promise<OpResult> => {
    // Mail to no known company is logged where only staff see it.
    const email =
      (await getItem(keys.collection({ companyId: ctx.caller.companyId }, 'emails'), ctx.params.id)) ??
      (ctx.caller.isAdmin ? await getItem(keys.collection({}, 'emails'), ctx.params.id) : undefined);
    if (!email) throw notFound('E-mail not found');
    const attachments = Array.isArray(email.attachments)
      ? (email.attachments as Record<string, unknown>[])
      : [];
    const attachment = attachments.find((a) => a._id === ctx.params.attachmentId);
    if (!attachment || typeof attachment.key !== 'string') throw notFound('Attachment not found');
    const name = String(attachment.fileName ?? 'attachment');
    const url = await presignGet(bucketName('uploads'), attachment.key, 900, name);
    return { body: { url, name } };
  },
);

export const EMAIL_OPERATIONS: Operations = {
  'emails.list': listEmails,
  'emails.attachmentDownload': emailAttachmentDownload,
};
