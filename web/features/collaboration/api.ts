import useSWR from 'swr';
import type {
  MessageMember,
  MessageStatus,
  MessageView,
  ReplyView,
} from '../../../shared/schemas/collaboration.ts';
import type {
  AccountOption,
  AttachmentTicket,
  MessageThread,
  SiteSummary,
} from '../../../shared/schemas/responses/collaboration.ts';
import type { DataList, DownloadLink, ListPage } from '../../../shared/schemas/responses/common.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';
import { contentTypeOf, putWithProgress } from '../../lib/upload.ts';

export type { AccountOption, SiteSummary } from '../../../shared/schemas/responses/collaboration.ts';

export type { MessageMember, MessageView, ReplyView };

const threadsKey = (assetId: string, status: MessageStatus | 'all') =>
  `/messages?assetId=${assetId}${status === 'all' ? '' : `&status=${status}`}&$sort=-createdAt&limit=200`;

/** Every read of threads and their replies changes with any write to one (the live path does the same). */
const anyThread = keysUnder('/messages');

/** GET /assets/{id}: the site's name for the heading. */
export const useSite = (assetId: string | undefined) =>
  useSWR<SiteSummary>(assetId ? `/assets/${assetId}` : null);
/** GET /accounts?assetId=: the site's meters, to say what a thread is about. */
export const useSiteAccounts = (assetId: string | undefined) =>
  useSWR<DataList<AccountOption>>(assetId ? `/accounts?assetId=${assetId}&limit=200` : null);
/** GET /messages?assetId=: the site's threads, newest first. */
export const useThreads = (assetId: string | undefined, status: MessageStatus | 'all') =>
  useSWR<ListPage<MessageView>>(assetId ? threadsKey(assetId, status) : null);
/** GET /messages/{id}: a thread with its replies. */
export const useThread = (id: string | undefined) => useSWR<MessageThread>(id ? `/messages/${id}` : null);
/** GET /messages/members?assetId=: whom a thread on the site may mention or be assigned to. */
export const useMembers = (assetId: string | undefined) =>
  useSWR<DataList<MessageMember>>(assetId ? `/messages/members?assetId=${assetId}` : null);

type Body = Record<string, unknown>;

/** POST /messages */
export const useStartThread = () =>
  useEndpoint(
    (api, body: Body) => api.post<MessageView>('/messages', body),
    () => [anyThread],
  );

/** PATCH /messages/{id} */
export const useUpdateThread = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch<MessageView>(`/messages/${id}`, body),
    () => [anyThread],
  );

/** PUT /messages/{id}/assign-user */
export const useAssign = () =>
  useEndpoint(
    (api, id: string, userSub: string | null) =>
      api.put<MessageView>(`/messages/${id}/assign-user`, { userSub }),
    () => [anyThread],
  );

/** POST /messages/{id}/replies */
export const useReply = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.post<ReplyView>(`/messages/${id}/replies`, body),
    () => [anyThread],
  );

/** PATCH /messages/{id}/replies/{replyId} */
export const useEditReply = () =>
  useEndpoint(
    (api, id: string, replyId: string, body: string) =>
      api.patch<ReplyView>(`/messages/${id}/replies/${replyId}`, { body }),
    () => [anyThread],
  );

/** DELETE /messages/{id}/replies/{replyId} */
export const useDeleteReply = () =>
  useEndpoint(
    (api, id: string, replyId: string) => api.del(`/messages/${id}/replies/${replyId}`),
    () => [anyThread],
  );

/** POST /messages/upload-attachment, then the file to its signed URL: what a reply then names. */
export const useUploadAttachment = () =>
  useEndpoint(async (api, messageId: string, file: File, onProgress: (percent: number) => void) => {
    const ticket = await api.post<AttachmentTicket>('/messages/upload-attachment', {
      messageId,
      fileName: file.name,
      contentType: contentTypeOf(file),
      size: file.size,
    });
    await putWithProgress(ticket, file, onProgress);
    return { attachmentId: ticket.attachmentId, key: ticket.key };
  });

/** POST /messages/{id}/attachments: uploaded files join the thread's opening post. */
export const useAttachToThread = () =>
  useEndpoint(
    (api, id: string, attachments: { attachmentId: string; key: string }[]) =>
      api.post<MessageView>(`/messages/${id}/attachments`, { attachments }),
    (_r, [id]) => [`/messages/${id}`],
  );

/** GET /messages/{id}/attachments/{attachmentId}/download: a file of the opening post. */
export const useThreadAttachmentLink = () =>
  useEndpoint((api, id: string, attachmentId: string) =>
    api.get<DownloadLink>(`/messages/${id}/attachments/${attachmentId}/download`),
  );

/** GET /messages/{id}/replies/{replyId}/attachments/{attachmentId}/download */
export const useAttachmentLink = () =>
  useEndpoint((api, id: string, replyId: string, attachmentId: string) =>
    api.get<DownloadLink>(`/messages/${id}/replies/${replyId}/attachments/${attachmentId}/download`),
  );
