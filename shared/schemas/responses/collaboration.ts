import type { MessageView, ReplyView } from '../collaboration.ts';
import type { PresignedPut } from './common.ts';

/** Answers of the collaboration calls, as the browser reads them. */

export interface SiteSummary {
  _id: string;
  siteName: string;
}

export interface AccountOption {
  _id: string;
  name?: string;
  meterPointNumber?: string;
  type?: string;
}

export interface AttachmentTicket extends PresignedPut {
  key: string;
  attachmentId: string;
}

/** GET /messages/{id}: a discussion with its replies. */
export interface MessageThread extends MessageView {
  replies: ReplyView[];
}
