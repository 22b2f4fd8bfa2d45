/**
 * | pattern                          | key condition                                          | index |
 * | -------------------------------- | ------------------------------------------------------ | ----- |
 * | one thread by id                 | pk = C#{companyId}#messages, sk = id                   | table |
 * | write a thread (generic layer)   | pk = C#{companyId}#messages, sk = id                   | table |
 * | one reply of a thread by id      | pk = C#{companyId}#messages#{messageId}#replies, sk = id | table |
 * | a thread's replies (a page)      | pk = C#{companyId}#messages#{messageId}#replies        | table |
 *
 * Threads and their replies. Stored items are typed here; the operations read them as records.
 */
import type { MessageView, ReplyView } from '../../shared/schemas/collaboration.ts';
import { type CollectionRef, getItem, listItems, type StoredItem } from '../core/data/item-repository.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';
import { childRef, resourceRef } from '../core/resources/resource-refs.ts';

const REPLY_PAGE = 1000;

export const messagesRef = (companyId: string): CollectionRef => resourceRef(companyId, 'messages');
export const repliesRef = (companyId: string, messageId: string): CollectionRef =>
  childRef(companyId, 'messages', messageId, 'replies');

/** A file of a post: where it is stored (never shown) and what it is. */
export interface StoredAttachment {
  attachmentId: string;
  key: string;
  fileName: string;
  contentType: string;
  size?: number;
}

type Posted = { attachments?: StoredAttachment[]; _rev?: string; searchText?: string };

export type StoredMessage = Stored<
  Omit<MessageView, 'attachments' | 'replies' | 'accountIds' | 'mentions' | 'replyCount' | 'authorSub'> &
    Posted & {
      accountIds?: string[];
      mentions?: string[];
      replyCount?: number;
      authorSub?: string;
      lastReplyAt?: string;
    }
>;

export type StoredReply = Stored<
  Omit<ReplyView, 'attachments' | 'replyId' | 'mentions' | 'authorSub'> &
    Posted & { messageId: string; mentions?: string[]; authorSub?: string }
>;

export const toMessage = (item: StoredItem): StoredMessage =>
  storedRecord<StoredMessage>('message', item, []);
export const toReply = (item: StoredItem): StoredReply => storedRecord<StoredReply>('reply', item, []);

/** A post's files; none when it has none. */
export const attachmentsOf = (post: StoredItem | StoredMessage | StoredReply): StoredAttachment[] =>
  Array.isArray(post.attachments) ? (post.attachments as StoredAttachment[]) : [];

/** A thread as stored, deleted or not. */
export async function findMessage(companyId: string, id: string): Promise<StoredMessage | undefined> {
  const item = await getItem(messagesRef(companyId).pk, id);
  return item ? toMessage(item) : undefined;
}

/** A reply as stored, deleted or not. */
export async function findReply(
  companyId: string,
  messageId: string,
  id: string,
): Promise<StoredReply | undefined> {
  const item = await getItem(repliesRef(companyId, messageId).pk, id);
  return item ? toReply(item) : undefined;
}

/** A thread's replies, at most a page of them. */
export async function repliesOf(companyId: string, messageId: string): Promise<StoredReply[]> {
  const found = await listItems(repliesRef(companyId, messageId), {
    filters: {},
    limit: REPLY_PAGE,
    skip: 0,
  });
  return found.data.map(toReply);
}

// Threads and replies are posted by the message calls, which add the author, mentions and files.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    messages: StoredMessage;
    'messages/replies': StoredReply;
  }
}
