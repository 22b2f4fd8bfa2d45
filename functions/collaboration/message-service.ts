import type { Caller } from '../../shared/access/caller.ts';
import { canSearch } from '../../shared/access/route-access.ts';
import { CAPTURE_CONTENT_TYPES, detectCaptureFileType, safeFileName } from '../../shared/files/file-type.ts';
import {
  ATTACHMENTS_PER_REPLY,
  type AttachmentView,
  DISCUSSION_MESSAGES,
  failedChecksQuote,
  type MessageView,
  messageMembersQuery,
  type ReplyView,
} from '../../shared/schemas/collaboration.ts';
import {
  genericListQuery,
  genericSearchQuery,
  genericSubListQuery,
} from '../../shared/schemas/generic-queries.ts';
import { findAccount } from '../accounts/index.ts';
import { loadAsset } from '../assets/index.ts';
import { getCompany } from '../company/index.ts';
import { LineageResolver, mayAccessItem } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { headObject } from '../core/adapters/asset-storage.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { mailer } from '../core/adapters/mailer.ts';
import { objectStart } from '../core/adapters/object-start.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName, mailConfig } from '../core/config.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import { putItem, type StoredItem } from '../core/data/item-repository.ts';
import { ApiError, forbidden, formError, notFound, readOnly } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult, WithParams } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { answeredItem, answeredPage } from '../core/resources/generic-answers.ts';
import { declaredResource, stampNew } from '../core/resources/resource-refs.ts';
import { genericOperation } from '../core/resources/resource-service.ts';
import { indexForSearch } from '../core/search-index/search-index-service.ts';
import { getValidation } from '../invoices/index.ts';
import { putNotifications } from '../notifications/index.ts';
import { gatedBy } from '../staff-tools/index.ts';
import { readersOfSite, type SiteReader } from './message-members.ts';
import {
  attachmentsOf,
  findMessage,
  findReply,
  messagesRef,
  repliesOf,
  repliesRef,
  type StoredAttachment,
  type StoredMessage,
  type StoredReply,
  toMessage,
  toReply,
} from './message-repository.ts';

/**
 * Discussions (02 §7): threads on a site, optionally about some of its meters or one of its bills, with
 * replies, attachments, an assignee and an open / resolved state. A thread is seen by whoever may read its
 * site, and by nobody else: each call checks the site before it answers, and live messages go only to them.
 */

const DOWNLOAD_SECONDS = 900;
/**
 * The writes' body schemas, of zod's full build: loaded on the first write, so a cold start serving the
 * threads' reads carries none of them.
 */
const inputs = () => import('../../shared/schemas/collaboration-inputs.ts');
/** Where a thread's attachments are stored: under its company and thread, so a key names both. */
const attachmentPrefix = (companyId: string, messageId: string) => `messages/${companyId}/${messageId}/`;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** A thread the caller may read: another company's, a deleted one or one on a site they cannot read is not found. */
async function loadThread(caller: Caller, id: string): Promise<StoredMessage> {
  const thread = await findMessage(caller.companyId, id);
  if (!thread || thread.deleted === true) throw notFound();
  const resolver = new LineageResolver(caller.companyId, caller);
  if (!(await mayAccessItem(declaredResource('messages'), caller, thread, 'read', resolver)))
    throw notFound();
  return thread;
}

/** A site the caller may read, else not found (its existence is not revealed). */
async function readableSite(caller: Caller, assetId: string): Promise<StoredItem> {
  const asset = await loadAsset(caller.companyId, assetId);
  const resolver = new LineageResolver(caller.companyId, caller);
  if (!(await mayAccessItem(declaredResource('assets'), caller, asset, 'read', resolver))) throw notFound();
  return asset;
}

async function readersOf(companyId: string, assetId: string): Promise<SiteReader[]> {
  return readersOfSite(companyId, await loadAsset(companyId, assetId));
}

function checkMentions(mentions: readonly string[], readers: readonly SiteReader[]): string[] {
  const allowed = new Set(readers.map((r) => r.userSub));
  const unique = [...new Set(mentions)];
  if (unique.some((sub) => !allowed.has(sub))) throw formError({ mentions: DISCUSSION_MESSAGES.notAMember });
  return unique;
}

const attachmentView = (a: StoredAttachment): AttachmentView => ({
  attachmentId: String(a.attachmentId),
  fileName: String(a.fileName),
  contentType: String(a.contentType),
  size: Number(a.size ?? 0),
});

function replyView(item: StoredItem): ReplyView {
  const reply = toReply(item);
  const attachments = attachmentsOf(reply);
  return {
    _id: reply._id,
    replyId: reply._id,
    body: String(reply.body ?? ''),
    authorSub: String(reply.authorSub ?? reply.createdBy ?? ''),
    ...(str(reply.authorName) ? { authorName: str(reply.authorName) } : {}),
    mentions: strings(reply.mentions),
    attachments: attachments.map(attachmentView),
    createdAt: String(reply.createdAt),
    updatedAt: String(reply.updatedAt),
    ...(str(reply.editedAt) ? { editedAt: str(reply.editedAt) } : {}),
  };
}

function threadView(item: StoredItem): MessageView {
  const thread = toMessage(item);
  const { _rev: _r, searchText: _s, ...rest } = thread;
  return {
    ...rest,
    body: String(thread.body ?? ''),
    accountIds: strings(thread.accountIds),
    mentions: strings(thread.mentions),
    // Without their storage keys: a file is reached through the download call, which checks the reader.
    attachments: attachmentsOf(thread).map(attachmentView),
    status: thread.status === 'resolved' ? 'resolved' : 'open',
    authorSub: String(thread.authorSub ?? thread.createdBy ?? ''),
    replyCount: Number(thread.replyCount ?? 0),
  };
}

/** Tells the browsers of those who may read the thread's site that it changed; polling remains if this fails. */
async function announce(
  companyId: string,
  thread: StoredItem,
  readers: readonly SiteReader[],
  type: string,
  log: Logger,
): Promise<void> {
  const message = { type, keys: ['/messages', `/messages/${thread._id}`], data: { messageId: thread._id } };
  await Promise.all(
    readers.map((r) =>
      publishToCompany(companyId, message, log, r.userSub).catch((err: unknown) =>
        log.warn('live update failed', { error: String(err) }),
      ),
    ),
  );
}

const threadLink = (thread: StoredItem) => `/assets/${String(thread.assetId)}/discussion/${thread._id}`;

/** Bell notifications for members named by a thread, never the one who acted. */
async function notify(
  caller: Caller,
  subs: readonly string[],
  content: string,
  thread: StoredItem,
  kind: string,
) {
  const now = new Date().toISOString();
  const items = [...new Set(subs)]
    .filter((sub) => sub !== caller.sub)
    .map((userSub) => ({
      _id: newId(),
      companyId: caller.companyId,
      userSub,
      content,
      route: threadLink(thread),
      icon: 'message-circle',
      isSeen: false,
      kind,
      messageId: thread._id,
      createdAt: now,
      updatedAt: now,
      createdBy: caller.sub,
    }));
  if (items.length > 0) await putNotifications(caller.companyId, items);
}

/** The assignee hears in the bell and by e-mail; a failed e-mail is logged, the assignment stands. */
async function tellAssignee(caller: Caller, assignee: SiteReader, thread: StoredItem, log: Logger) {
  if (assignee.userSub === caller.sub) return;
  const who = caller.name ?? caller.email ?? 'A colleague';
  await notify(
    caller,
    [assignee.userSub],
    `${who} assigned you the discussion "${String(thread.subject)}"`,
    thread,
    'message-assigned',
  );
  if (!assignee.email) return;
  const { appUrl } = mailConfig();
  await mailer()
    .send({
      to: assignee.email,
      subject: `You have been assigned "${String(thread.subject)}"`,
      text: [
        `Hello ${assignee.name},`,
        '',
        `${who} assigned you the discussion "${String(thread.subject)}" on Voltfolio.`,
        '',
        `Open it at ${appUrl ?? ''}${threadLink(thread)}`,
        '',
        'Voltfolio',
      ].join('\n'),
    })
    .catch((err: unknown) => log.warn('assignment e-mail not sent', { error: String(err) }));
}

async function checkCategory(companyId: string, category: string | undefined): Promise<void> {
  if (!category) return;
  const settings = objectOf((await getCompany(companyId))?.settings);
  const categories = strings(settings.messageCategories);
  if (!categories.includes(category)) throw formError({ category: DISCUSSION_MESSAGES.unknownCategory });
}

async function checkAccounts(
  companyId: string,
  assetId: string,
  accountIds: readonly string[],
): Promise<void> {
  for (const id of accountIds) {
    const account = await findAccount(companyId, id);
    if (!account || account.assetId !== assetId)
      throw formError({ accountIds: DISCUSSION_MESSAGES.notOnSite });
  }
}

/** The bill's failed checks, quoted; its meter joins the thread's. Only a bill of this site may open it. */
async function billQuote(companyId: string, assetId: string, invoiceId: string) {
  const validation = await getValidation(companyId, invoiceId);
  const accountId = str(validation?.accountId);
  const account = accountId ? await findAccount(companyId, accountId) : undefined;
  if (!validation || validation.deleted === true || !account || account.assetId !== assetId)
    throw formError({ invoiceId: DISCUSSION_MESSAGES.billNotOnSite });
  const results = Array.isArray(validation.results) ? validation.results : [];
  const checks = results.map((r) => ({
    name: String(r.name ?? r.key),
    reason: String(r.reason ?? ''),
    status: String(r.status),
  }));
  const bill = str(validation.displayName) ?? str(validation.invoiceNumber) ?? 'The bill';
  return { quote: failedChecksQuote(bill, checks), accountId: account._id };
}

/** GET /messages/members?assetId=: who a thread on the site may mention or be assigned to. */
const members = operation({ query: messageMembersQuery }, async (ctx): Promise<OpResult> => {
  const asset = await readableSite(ctx.caller, ctx.query.assetId);
  const readers = await readersOfSite(ctx.caller.companyId, asset);
  return { body: { data: readers.map(({ userSub, name }) => ({ userSub, name })) } };
});

/** POST /messages: a new thread on a site the caller may read. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const input = parseOrThrow((await inputs()).messageCreateSchema, ctx.body ?? {});
  const asset = await readableSite(ctx.caller, input.assetId);
  const companyId = ctx.caller.companyId;
  await checkCategory(companyId, input.category);
  await checkAccounts(companyId, asset._id, input.accountIds);
  const readers = await readersOfSite(companyId, asset);
  const mentions = checkMentions(input.mentions, readers);
  const accountIds = [...input.accountIds];
  let body = input.body;
  if (input.invoiceId) {
    const { quote, accountId } = await billQuote(companyId, asset._id, input.invoiceId);
    body = body ? `${quote}\n\n${body}` : quote;
    if (!accountIds.includes(accountId)) accountIds.push(accountId);
  }
  const thread = stampNew(ctx.caller, {
    subject: input.subject,
    body,
    ...(input.category ? { category: input.category } : {}),
    assetId: asset._id,
    accountIds,
    ...(input.invoiceId ? { invoiceId: input.invoiceId } : {}),
    status: 'open',
    authorSub: ctx.caller.sub,
    ...(ctx.caller.name ? { authorName: ctx.caller.name } : {}),
    mentions,
    replyCount: 0,
  });
  await putItem(messagesRef(companyId), thread, { mustNotExist: true });
  await indexForSearch(companyId, 'messages', thread);
  const who = ctx.caller.name ?? 'A colleague';
  await notify(ctx.caller, mentions, `${who} mentioned you in "${input.subject}"`, thread, 'message-mention');
  await writeActivity(ctx.caller, {
    type: 'create',
    model: 'messages',
    modelId: thread._id,
    message: `Discussion "${input.subject}" started`,
  });
  await announce(companyId, thread, readers, 'message.created', ctx.log);
  return { status: 201, body: threadView(thread) };
});

const bulkRefused = operation({}, async (): Promise<OpResult> => {
  throw readOnly('Discussions are started one at a time with POST /messages');
});

/**
 * GET /messages and GET /messages/search: the generic list and search, each thread as its page reads it,
 * so that its files come without their storage keys and a thread stored before a field had a default
 * still answers it.
 */
const list = operation({ query: genericListQuery }, async (ctx): Promise<OpResult> => {
  const result = await genericOperation('generic.list')({ ...ctx, query: ctx.query.text });
  const page = answeredPage(result);
  return { ...result, body: { ...page, data: page.data.map(threadView) } };
});

const search = operation({ query: genericSearchQuery }, async (ctx): Promise<OpResult> => {
  if (!canSearch(ctx.caller)) throw forbidden();
  const result = await genericOperation('generic.search')({ ...ctx, query: ctx.query.text });
  const page = answeredPage(result);
  return { ...result, body: { ...page, data: page.data.map(threadView) } };
});

/** GET /messages/{id}/replies and GET /messages/{id}/replies/{subId}: the generic reads, as replies show. */
const listReplies = operation(
  { params: ['id'], query: genericSubListQuery },
  async (ctx): Promise<OpResult> => {
    const query = { limit: String(ctx.query.limit), skip: String(ctx.query.skip) };
    const result = await genericOperation('generic.sub.list')({ ...ctx, query });
    const page = answeredPage(result);
    return { ...result, body: { ...page, data: page.data.map(replyView) } };
  },
);

const getReply = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const result = await genericOperation('generic.sub.get')(ctx);
  return { ...result, body: replyView(answeredItem(result)) };
});

/** GET /messages/{id}: the thread with its replies, oldest first, and the names of the people in it. */
const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  const replies = await repliesOf(ctx.caller.companyId, thread._id);
  const view = threadView(thread);
  const assignee = str(thread.assignedUserSub);
  return {
    body: {
      ...view,
      ...(assignee ? { assignedUserName: str(thread.assignedUserName) ?? assignee } : {}),
      replies: replies.map(replyView).sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    },
  };
});

/** PATCH /messages/{id}: resolve or reopen (anyone in it); the subject and category (its author only). */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  const input = parseOrThrow((await inputs()).messagePatchSchema, ctx.body ?? {});
  const own = thread.authorSub === ctx.caller.sub;
  if ((input.subject !== undefined || input.category !== undefined) && !own && !ctx.caller.isAdmin)
    throw forbidden('Only its author may change a discussion');
  await checkCategory(ctx.caller.companyId, input.category);
  const now = new Date().toISOString();
  const changed = await changeItem(messagesRef(ctx.caller.companyId), thread._id, (current) => {
    const next: StoredItem = { ...current, ...input, updatedAt: now, updatedBy: ctx.caller.sub };
    if (input.status === 'resolved' && current.status !== 'resolved') {
      next.resolvedAt = now;
      next.resolvedBy = ctx.caller.sub;
    }
    if (input.status === 'open') {
      delete next.resolvedAt;
      delete next.resolvedBy;
    }
    return next;
  });
  if (!changed) throw notFound();
  const after = changed.after;
  await indexForSearch(ctx.caller.companyId, 'messages', after);
  if (input.status && input.status !== thread.status) {
    await writeActivity(ctx.caller, {
      type: 'update',
      model: 'messages',
      modelId: thread._id,
      message: `Discussion "${String(after.subject)}" ${input.status === 'resolved' ? 'resolved' : 'reopened'}`,
    });
  }
  await announce(
    ctx.caller.companyId,
    after,
    await readersOf(ctx.caller.companyId, String(after.assetId)),
    'message.updated',
    ctx.log,
  );
  return { body: threadView(after) };
});

/** PUT /messages/{id}/assign-user {userSub}: someone who may read the site; they are told. */
const assign = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  const { userSub } = parseOrThrow((await inputs()).assignUserSchema, ctx.body ?? {});
  const readers = await readersOf(ctx.caller.companyId, String(thread.assetId));
  const assignee = userSub === null ? undefined : readers.find((r) => r.userSub === userSub);
  if (userSub !== null && !assignee) throw formError({ userSub: DISCUSSION_MESSAGES.notAMember });
  const now = new Date().toISOString();
  const changed = await changeItem(messagesRef(ctx.caller.companyId), thread._id, (current) => {
    const next: StoredItem = { ...current, updatedAt: now, updatedBy: ctx.caller.sub };
    if (assignee) Object.assign(next, { assignedUserSub: assignee.userSub, assignedUserName: assignee.name });
    else {
      delete next.assignedUserSub;
      delete next.assignedUserName;
    }
    return next;
  });
  if (!changed) throw notFound();
  if (assignee && thread.assignedUserSub !== assignee.userSub)
    await tellAssignee(ctx.caller, assignee, changed.after, ctx.log);
  await announce(ctx.caller.companyId, changed.after, readers, 'message.assigned', ctx.log);
  return { body: threadView(changed.after) };
});

/** POST /messages/upload-attachment {messageId, fileName, contentType, size}: a signed PUT for one file. */
const uploadAttachment = operation({}, async (ctx): Promise<OpResult> => {
  const input = parseOrThrow((await inputs()).attachmentUploadSchema, ctx.body ?? {});
  const thread = await loadThread(ctx.caller, input.messageId);
  const attachmentId = newId();
  const fileName = safeFileName(input.fileName);
  const key = `${attachmentPrefix(ctx.caller.companyId, thread._id)}${attachmentId}/${fileName}`;
  try {
    const uploadUrl = await presignPut(bucketName('documents'), key, input.contentType, { size: input.size });
    return {
      status: 201,
      body: {
        uploadUrl,
        method: 'PUT',
        headers: { 'Content-Type': input.contentType },
        key,
        attachmentId,
        fileName,
      },
    };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(502, 'UPLOAD_URL_FAILED', 'There was a problem getting an upload URL.');
  }
});

/**
 * The attachments a reply names, each checked by its bytes: it must be an upload to this thread (a key of
 * another thread or company is refused as unknown), be there, and be a PDF or a picture whatever its name.
 */
async function storedAttachments(
  companyId: string,
  messageId: string,
  refs: readonly { attachmentId: string; key: string }[],
): Promise<StoredAttachment[]> {
  const out: StoredAttachment[] = [];
  for (const ref of refs) {
    const prefix = `${attachmentPrefix(companyId, messageId)}${ref.attachmentId}/`;
    const fileName = ref.key.slice(prefix.length);
    if (!ref.key.startsWith(prefix) || !fileName || fileName.includes('/'))
      throw formError({ attachments: DISCUSSION_MESSAGES.attachmentUnknown });
    const bucket = bucketName('documents');
    const [head, stored] = await Promise.all([
      objectStart(bucket, ref.key, 1024),
      headObject(bucket, ref.key),
    ]);
    if (!head || head.length === 0 || !stored)
      throw formError({ attachments: DISCUSSION_MESSAGES.attachmentMissing });
    const kind = detectCaptureFileType(head);
    if (!kind) throw formError({ attachments: DISCUSSION_MESSAGES.attachmentType });
    out.push({
      attachmentId: ref.attachmentId,
      key: ref.key,
      fileName,
      contentType: CAPTURE_CONTENT_TYPES[kind],
      size: stored.size,
    });
  }
  return out;
}

/**
 * POST /messages/{id}/attachments {attachments}: files for the opening post, uploaded once the thread
 * exists (an upload names its thread). Only the thread's author adds them, as only they wrote the post.
 */
const attach = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  if (thread.authorSub !== ctx.caller.sub) throw forbidden('Only its author may add files to a discussion');
  const input = parseOrThrow((await inputs()).threadAttachSchema, ctx.body ?? {});
  const companyId = ctx.caller.companyId;
  const added = await storedAttachments(companyId, thread._id, input.attachments);
  const changed = await changeItem(messagesRef(companyId), thread._id, (current) => {
    const kept = attachmentsOf(current);
    const fresh = added.filter((a) => !kept.some((k) => k.attachmentId === a.attachmentId));
    if (kept.length + fresh.length > ATTACHMENTS_PER_REPLY)
      throw formError({ attachments: `A post holds at most ${ATTACHMENTS_PER_REPLY} files` });
    return { ...current, attachments: [...kept, ...fresh], updatedAt: new Date().toISOString() };
  });
  if (!changed) throw notFound();
  await announce(
    companyId,
    changed.after,
    await readersOf(companyId, String(thread.assetId)),
    'message.updated',
    ctx.log,
  );
  return { body: threadView(changed.after) };
});

/** GET /messages/{id}/attachments/{attachmentId}/download: a short-lived link to a file of the opening post. */
const threadDownload = operation({ params: ['id', 'attachmentId'] }, async (ctx): Promise<OpResult> => {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  const attachment = attachmentsOf(thread).find((a) => a.attachmentId === ctx.params.attachmentId);
  if (!attachment) throw notFound();
  const fileName = String(attachment.fileName);
  const url = await presignGet(bucketName('documents'), String(attachment.key), DOWNLOAD_SECONDS, fileName);
  return { body: { downloadUrl: url, url, fileName, expiresIn: DOWNLOAD_SECONDS } };
});

/** POST /messages/{id}/replies {body, attachments, mentions}. */
const createReply = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  const input = parseOrThrow((await inputs()).replyCreateSchema, ctx.body ?? {});
  const companyId = ctx.caller.companyId;
  if (!input.body.trim() && input.attachments.length === 0)
    throw formError({ body: 'This field is required' });
  const readers = await readersOf(companyId, String(thread.assetId));
  const mentions = checkMentions(input.mentions, readers);
  const attachments = await storedAttachments(companyId, thread._id, input.attachments);
  const reply = stampNew(ctx.caller, {
    messageId: thread._id,
    body: input.body,
    authorSub: ctx.caller.sub,
    ...(ctx.caller.name ? { authorName: ctx.caller.name } : {}),
    mentions,
    attachments,
  });
  await putItem(repliesRef(companyId, thread._id), reply, { mustNotExist: true });
  const changed = await changeItem(messagesRef(companyId), thread._id, (current) => ({
    ...current,
    replyCount: Number(current.replyCount ?? 0) + 1,
    lastReplyAt: reply.createdAt,
    updatedAt: String(reply.createdAt),
  }));
  const after = changed?.after ?? thread;
  const who = ctx.caller.name ?? 'A colleague';
  await notify(
    ctx.caller,
    mentions,
    `${who} mentioned you in "${String(thread.subject)}"`,
    after,
    'message-mention',
  );
  await announce(companyId, after, readers, 'message.replied', ctx.log);
  return { status: 201, body: replyView(reply) };
});

/** A reply of the thread that is the caller's own: another's may be read but not changed (403). */
async function ownReply(
  ctx: WithParams<'id' | 'subId'>,
): Promise<{ thread: StoredMessage; reply: StoredReply }> {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  const reply = await findReply(ctx.caller.companyId, thread._id, ctx.params.subId);
  if (!reply || reply.deleted === true) throw notFound();
  if (reply.authorSub !== ctx.caller.sub) throw forbidden(DISCUSSION_MESSAGES.notYours);
  return { thread, reply };
}

/** PATCH /messages/{id}/replies/{replyId} {body}: the author's own reply. */
const updateReply = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const { thread, reply } = await ownReply(ctx);
  const { body } = parseOrThrow((await inputs()).replyPatchSchema, ctx.body ?? {});
  const now = new Date().toISOString();
  const changed = await changeItem(repliesRef(ctx.caller.companyId, thread._id), reply._id, (current) => ({
    ...current,
    body,
    editedAt: now,
    updatedAt: now,
  }));
  if (!changed) throw notFound();
  await announce(
    ctx.caller.companyId,
    thread,
    await readersOf(ctx.caller.companyId, String(thread.assetId)),
    'message.replied',
    ctx.log,
  );
  return { body: replyView(changed.after) };
});

/** DELETE /messages/{id}/replies/{replyId}: the author's own reply goes, with its attachments' links. */
const deleteReply = operation({ params: ['id', 'subId'] }, async (ctx): Promise<OpResult> => {
  const { thread, reply } = await ownReply(ctx);
  const companyId = ctx.caller.companyId;
  const now = new Date().toISOString();
  await changeItem(repliesRef(companyId, thread._id), reply._id, (current) => ({
    ...current,
    deleted: true,
    deletedAt: now,
    updatedAt: now,
  }));
  const changed = await changeItem(messagesRef(companyId), thread._id, (current) => ({
    ...current,
    replyCount: Math.max(0, Number(current.replyCount ?? 0) - 1),
    updatedAt: now,
  }));
  await announce(
    companyId,
    changed?.after ?? thread,
    await readersOf(companyId, String(thread.assetId)),
    'message.replied',
    ctx.log,
  );
  return { body: { _id: reply._id, deleted: true } };
});

/** GET /messages/{id}/replies/{replyId}/attachments/{attachmentId}/download: a short-lived link. */
const download = operation({ params: ['id', 'replyId', 'attachmentId'] }, async (ctx): Promise<OpResult> => {
  const thread = await loadThread(ctx.caller, ctx.params.id);
  const reply = await findReply(ctx.caller.companyId, thread._id, ctx.params.replyId);
  if (!reply || reply.deleted === true) throw notFound();
  const attachment = attachmentsOf(reply).find((a) => a.attachmentId === ctx.params.attachmentId);
  if (!attachment) throw notFound();
  const fileName = String(attachment.fileName);
  const url = await presignGet(bucketName('documents'), String(attachment.key), DOWNLOAD_SECONDS, fileName);
  return { body: { downloadUrl: url, url, fileName, expiresIn: DOWNLOAD_SECONDS } };
});

export const MESSAGE_OPERATIONS: Operations = gatedBy('discussions', {
  'messages.members': members,
  'messages.create': create,
  'messages.bulkRefused': bulkRefused,
  'messages.list': list,
  'messages.search': search,
  'messages.get': get,
  'messages.update': update,
  'messages.assign': assign,
  'messages.uploadAttachment': uploadAttachment,
  'messages.attach': attach,
  'messages.download': threadDownload,
  'messages.replies.list': listReplies,
  'messages.replies.get': getReply,
  'messages.replies.create': createReply,
  'messages.replies.update': updateReply,
  'messages.replies.delete': deleteReply,
  'messages.attachments.download': download,
});
