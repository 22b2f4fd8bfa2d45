import type { UploadTarget } from '../../lib/upload.ts';

/** An upload as the register's upload calls describe it: PUT the file to `uploadUrl` with `contentType`. */
export interface UploadTicket extends UploadTarget {
  key: string;
  contentType: string;
  documentId?: string;
  imageId?: string;
}
