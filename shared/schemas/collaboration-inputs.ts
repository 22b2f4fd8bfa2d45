import * as z from 'zod';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_REPLY,
  MENTIONS_PER_POST,
  MESSAGE_STATUSES,
} from './collaboration.ts';
import { idField, nonEmptyField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

/*
 * The bodies of the discussion writes, in zod's full build: the operations load this module on the first
 * write that parses one, so the function serving discussions starts without it. Each schema is built on
 * the first call that parses it.
 */

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
