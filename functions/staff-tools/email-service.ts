import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import { emailListQuery, listSearchQuery } from '../../shared/schemas/list-queries.ts';
import { presignGet } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import {
  type CollectionRef,
  type ListQuery,
  listItems,
  type StoredItem,
} from '../core/data/item-repository.ts';
import { badRequest, forbidden, notFound } from '../core/lib/errors.ts';
import type { AnyOpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { declaredResource } from '../core/resources/resource-refs.ts';
import { collectionOf, listQueryOf } from '../core/resources/resource-service.ts';
import { readableCaptureIds } from '../invoices/index.ts';
import {
  emailAttachmentsOf,
  findEmail as findStoredEmail,
  type StoredEmail,
  type StoredEmailAttachment,
  unmatchedEmailsRef,
} from './admin-repository.ts';

const captureIdOf = (attachment: StoredEmailAttachment): string | undefined =>
  typeof attachment.captureId === 'string' ? attachment.captureId : undefined;

/**
 * The mails a member with grants may see: those whose every attachment became a document they may read
 * (as the bills' own pages decide). Mail that made no document is the company-wide members' only.
 */
async function readableEmails(caller: Caller, emails: readonly StoredItem[]): Promise<StoredItem[]> {
  const ids = emails.flatMap((e) => emailAttachmentsOf(e).map(captureIdOf));
  const readable = await readableCaptureIds(
    caller,
    ids.filter((id): id is string => id !== undefined),
  );
  return emails.filter((e) => {
    const attachments = emailAttachmentsOf(e);
    return (
      attachments.length > 0 &&
      attachments.every((a) => {
        const id = captureIdOf(a);
        return id !== undefined && readable.has(id);
      })
    );
  });
}

/** A page of these mails' readable part, counted after the filter so the total is what the caller may see. */
async function pageOfReadable(ctx: AnyOpContext, ref: CollectionRef, q: ListQuery): Promise<OpResult> {
  if (isCompanyWide(ctx.caller)) {
    const { data, total } = await listItems(ref, q);
    return { body: { data, total, limit: q.limit, skip: q.skip } };
  }
  const all = await listItems(ref, { ...q, skip: 0, limit: MAX_LIST_LIMIT });
  const mine = await readableEmails(ctx.caller, all.data);
  return {
    body: { data: mine.slice(q.skip, q.skip + q.limit), total: mine.length, limit: q.limit, skip: q.skip },
  };
}

/**
 * GET /emails: the company's capture inbox log, newest first. `unmatched=true` lists instead the mail
 * that reached no company (an unknown capture address), which is logged where only staff see it.
 */
const listEmails = operation({ query: emailListQuery }, async (ctx): Promise<OpResult> => {
  const { unmatched, ...query } = ctx.query.text;
  const resource = declaredResource('emails');
  let ref: CollectionRef = collectionOf(resource, ctx.caller);
  if (unmatched === 'true') {
    if (!ctx.caller.isAdmin) throw forbidden('Only staff can see e-mail that reached no company');
    ref = unmatchedEmailsRef(ref);
  }
  const q = {
    ...listQueryOf(resource, query),
    descending: query.$sort === undefined || query.$sort === '-createdAt',
  };
  return pageOfReadable(ctx, ref, q);
});

/** GET /emails/search?query=: the company's mail whose sender or subject holds the words, as the list filters it. */
const searchEmails = operation({ query: listSearchQuery }, async (ctx): Promise<OpResult> => {
  if (ctx.query.query.length === 0) throw badRequest('query is required');
  const resource = declaredResource('emails');
  return pageOfReadable(ctx, collectionOf(resource, ctx.caller), {
    ...listQueryOf(resource, ctx.query.text),
    text: ctx.query.query,
  });
});

/** The company's mail by id, or for staff mail that reached no company (logged where only they see it). */
async function findEmail(caller: Caller, id: string): Promise<StoredEmail | undefined> {
  return (
    (await findStoredEmail(caller.companyId, id)) ??
    (caller.isAdmin ? await findStoredEmail(undefined, id) : undefined)
  );
}

/** GET /emails/{id}: one mail of the log, to whoever may see it in the list. */
const getEmail = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const email = await findEmail(ctx.caller, ctx.params.id);
  if (!email) throw notFound('E-mail not found');
  if (!isCompanyWide(ctx.caller) && (await readableEmails(ctx.caller, [email])).length === 0)
    throw notFound('E-mail not found');
  return { body: email };
});

/** GET /emails/{id}/attachments/{attachmentId}/download: an attachment as the capture inbox stored it. */
const emailAttachmentDownload = operation(
  { params: ['id', 'attachmentId'] },
  async (ctx): Promise<OpResult> => {
    const email = await findEmail(ctx.caller, ctx.params.id);
    if (!email) throw notFound('E-mail not found');
    const attachment = emailAttachmentsOf(email).find((a) => a._id === ctx.params.attachmentId);
    if (!attachment || typeof attachment.key !== 'string') throw notFound('Attachment not found');
    // The attachment is the bill's document: refused as the bill's own download refuses it.
    if (!isCompanyWide(ctx.caller)) {
      const captureId = captureIdOf(attachment);
      const readable = captureId ? await readableCaptureIds(ctx.caller, [captureId]) : new Set<string>();
      if (!captureId || !readable.has(captureId)) throw notFound('Attachment not found');
    }
    const name = String(attachment.fileName ?? 'attachment');
    const url = await presignGet(bucketName('uploads'), attachment.key, 900, name);
    return { body: { url, name } };
  },
);

export const EMAIL_OPERATIONS: Operations = {
  'emails.list': listEmails,
  'emails.search': searchEmails,
  'emails.get': getEmail,
  'emails.attachmentDownload': emailAttachmentDownload,
};
