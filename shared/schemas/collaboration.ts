import * as z from 'zod/mini';
import { DISCUSSION_MESSAGES } from './discussion-messages.ts';
import { idField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

export { DISCUSSION_MESSAGES };

/** A thread's state: open until someone resolves it; it may be reopened. */
export const MESSAGE_STATUSES = ['open', 'resolved'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const ATTACHMENTS_PER_REPLY = 10;
export const MENTIONS_PER_POST = 20;

/** GET /messages/members: built on first use, with zod's small build; the bodies' schemas are in `collaboration-inputs.ts`. */
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
