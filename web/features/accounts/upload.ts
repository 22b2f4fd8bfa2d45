import type { UploadTarget } from '../../lib/upload.ts';

/** A presigned upload as the API describes it (POST .../upload, POST /readings/photo). */
export interface PresignedUpload extends UploadTarget {
  headers: Record<string, string>;
  key: string;
}
