import * as z from 'zod';
import { DISCUSSION_MESSAGES } from './discussion-messages.ts';
import { idField, nonEmptyField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

export { DISCUSSION_MESSAGES };

/** A thread's state: open until someone resolves it; it may be reopened. */
export const MESSAGE_STATUSES = ['open', 'resolved'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const ATTACHMENTS_PER_REPLY = 10;
export const MENTIONS_PER_POST = 20;

// Each schema is built on the first call that parses one: the function serving discussions starts without them.
const mentionsField = () => z.array(z.string().min(1).max(200)).max(MENTIONS_PER_POST).default([]);

/** POST /messages: a new thread on a site, optionally about some of its meters or one of its bills. */
export const messageCreateSchema = onFirstUse(() =>
  z.object({
    subject: nonEmptyField().max(200),
    body: z.string().max(10_000).default(''),
    category: z.string().max(100).optional(),
    assetId: idField(),
    accountIds: z.array(idField()).max(50).default([]),
    /** A bill whose failed validation checks are quoted into the thread. */
    invoiceId: idField().optional(),
    mentions: mentionsField(),
  }),
);

/** PATCH /messages/{id}: what may change after the thread is started. */
export const messagePatchSchema = onFirstUse(() =>
  z
    .object({
      subject: nonEmptyField().max(200),
      category: z.string().max(100),
      status: z.enum(MESSAGE_STATUSES),
    })
    .partial()
    // The body, assignment and mentions have calls of their own: a field this call would not change is refused.
    .strict(),
);

/** An attachment as a reply names it: the ticket POST /messages/upload-attachment gave. */
const attachmentRefField = () =>
  z.object({
    attachmentId: idField(),
    key: z.string().min(1).max(1000),
  });

export const replyCreateSchema = onFirstUse(() =>
  z.object({
    body: z.string().max(10_000).default(''),
    attachments: z.array(attachmentRefField()).max(ATTACHMENTS_PER_REPLY).default([]),
    mentions: mentionsField(),
  }),
);

/** POST /messages/{id}/attachments: files uploaded for the thread's opening post, added by its author. */
export const threadAttachSchema = onFirstUse(() =>
  z.object({
    attachments: z.array(attachmentRefField()).min(1).max(ATTACHMENTS_PER_REPLY),
  }),
);

export const replyPatchSchema = onFirstUse(() => z.object({ body: nonEmptyField().max(10_000) }));

export const attachmentUploadSchema = onFirstUse(() =>
  z.object({
    messageId: idField(),
    fileName: nonEmptyField().max(255),
    contentType: z.string().max(100).default('application/octet-stream'),
    size: z.number().int().positive().max(ATTACHMENT_MAX_BYTES, 'Must be at most 20 MB'),
  }),
);

/** PUT /messages/{id}/assign-user; no one (null) takes the assignment away. */
export const assignUserSchema = onFirstUse(() =>
  z.object({ userSub: z.string().min(1).max(200).nullable() }),
);

export const messageMembersQuery = onFirstUse(() => z.object({ assetId: idField() }));

/** An attachment as stored on a reply and answered with it. */
export interface AttachmentView {
  attachmentId: string;
  fileName: string;
  contentType: string;
  size: number;
}

export interface ReplyView {
  _id: string;
  replyId: string;
  body: string;
  authorSub: string;
  authorName?: string;
  mentions: string[];
  attachments: AttachmentView[];
  createdAt: string;
  updatedAt: string;
  editedAt?: string;
}

export interface MessageView {
  _id: string;
  subject: string;
  body: string;
  category?: string;
  assetId: string;
  accountIds: string[];
  invoiceId?: string;
  status: MessageStatus;
  authorSub: string;
  authorName?: string;
  assignedUserSub?: string;
  assignedUserName?: string;
  mentions: string[];
  /** Files of the opening post. */
  attachments: AttachmentView[];
  replyCount: number;
  createdAt: string;
  updatedAt: string;
  resolvedAt?: string;
  resolvedBy?: string;
  replies?: ReplyView[];
}

/** Someone a thread may mention or be assigned to: a member who may read its site. */
export interface MessageMember {
  userSub: string;
  name: string;
}

/** The quote of a bill's failed checks that opens a thread about it. */
export function failedChecksQuote(
  bill: string,
  checks: readonly { name: string; reason: string; status: string }[],
): string {
  const failed = checks.filter((c) => c.status === 'failed' || c.status === 'warning');
  if (failed.length === 0) return `> ${bill}: no failed checks.`;
  return [
    `> ${bill} failed ${failed.length === 1 ? 'a check' : `${failed.length} checks`}:`,
    ...failed.map((c) => `> - ${c.name} (${c.status}): ${c.reason}`),
  ].join('\n');
}
